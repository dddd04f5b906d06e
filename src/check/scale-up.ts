/**
 * "Can never finish" only where the cluster cannot add the room: a rollout whose new
 * pods fit no node there is, re-run with the nodes a growable group would add
 * (growth/with-new-nodes.ts), one more per group at a time up to MAX_NEW_NODES. Where
 * that finishes it is "will finish after a scale-up" (ScaleUpNeeded, a note); where a
 * group may grow with nodes whose size is not known (no member to copy, or a Karpenter
 * NodePool, which may launch a larger instance type), "not known"; else the verdict
 * stands, saying what the groups could not add. Pure.
 */
import { selectsNode, untoleratedTaints } from '../diagnosis/base/node-match.js';
import type { CheckEvidence, NoteSays } from './check-evidence.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { typeOfKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import type { GrowableGroup, NodeGrowth } from './growth/node-groups.js';
import { withNewNodes } from './growth/with-new-nodes.js';
import type { Prediction } from './prediction.js';
import type { ScaleGroup } from './words.js';

/** The most nodes tried per group: a scale-up larger than this is not promised. */
const MAX_NEW_NODES = 10;

/** Codes a new node can settle: the pods wait for room (not a quota, an admission refusal or a crash). */
const ROOM_CODES = new Set(['Unschedulable', 'RolloutSurgeDeadlock']);

export function withScaleUp(
  snapshot: WorkloadSnapshot,
  prediction: Prediction,
  growth: NodeGrowth,
  predict: (candidate: WorkloadSnapshot) => Prediction,
): Prediction {
  if (prediction.verdict !== 'never-finishes') return prediction;
  if (!prediction.findings.some((f) => ROOM_CODES.has(f.code))) return prediction;
  const growable = growth.groups.filter((g) => g.canAdd > 0);
  for (let n = 1; n <= MAX_NEW_NODES; n++) {
    const grown = withNewNodes(snapshot, growable, n);
    if (grown.added.length === 0) break;
    const next = predict(grown.snapshot);
    if (next.verdict === 'finishes') return afterScaleUp(snapshot, grown.added, n);
    if (grown.added.every(({ group, nodes }) => nodes < n || nodes >= group.canAdd)) break;
  }
  const open = growable.filter((g) => mayHelp(snapshot, g));
  if (open.length > 0) return notKnown(snapshot, prediction, open);
  return withGrowthNotes(prediction, growth);
}

function afterScaleUp(
  snapshot: WorkloadSnapshot,
  added: readonly { group: GrowableGroup; nodes: number }[],
  n: number,
): Prediction {
  const ref = `${typeOfKind(snapshot.target.kind)}/${snapshot.target.name}`;
  const groups = added.map(({ group }) => `${group.name} (${byWords(group)}, ${group.nodes} node(s) now)`);
  const karpenter = added.some(({ group }) => group.by === 'karpenter');
  return {
    verdict: 'finishes',
    reason: `after a scale-up of ${n} node(s)`,
    findings: [
      {
        code: 'ScaleUpNeeded',
        severity: 'info',
        summary: `The rollout of ${ref} finishes once the cluster adds ${n === 1 ? 'a node' : `${n} nodes`}: its new pods fit no node there is now, and ${n === 1 ? 'one more node' : `${n} more nodes`} like those of ${groups.join(' or ')} take them.`,
        explanation: `Run forward with new nodes copied from the group's own (allocatable, labels, taints and the DaemonSet pods every node runs), the rollout finishes. ${karpenter ? 'Karpenter usually launches a node in about a minute' : 'A new node usually joins in a few minutes'}; the cluster autoscaler waits up to 15 minutes for one (--max-node-provision-time). Until then the new pods are Pending.`,
        says: {
          key: 'scaleUp',
          why: 'scaleUpWhy',
          params: { ref, n, groups: added.map(({ group }) => scaleGroup(group)) },
        },
        evidence: added.map(({ group }) => ({
          type: 'note' as const,
          text: `${byWords(group)} ${group.name}: ${group.nodes} node(s), room for ${group.canAdd} more; a new node is like ${group.template?.metadata.name ?? '?'}`,
          says: {
            key: 'scaleUpAdded',
            params: {
              ...named(group),
              nodes: group.nodes,
              canAdd: group.canAdd,
              like: group.template?.metadata.name ?? '?',
            },
          } as const,
        })),
      },
    ],
  };
}

/** A group that may grow with nodes of a size not known, which the new pods' selection and tolerations allow. */
function mayHelp(snapshot: WorkloadSnapshot, group: GrowableGroup): boolean {
  const template = group.template;
  if (!template) return true;
  if (!group.mayBeLarger) return false;
  const kind = workloadKind(snapshot);
  const spec = kind.podTemplate(kind.object(snapshot)).spec;
  return selectsNode(template, spec) && untoleratedTaints(template, spec).length === 0;
}

function notKnown(
  snapshot: WorkloadSnapshot,
  prediction: Prediction,
  open: readonly GrowableGroup[],
): Prediction {
  const ref = `${typeOfKind(snapshot.target.kind)}/${snapshot.target.name}`;
  const names = open.map((g) => `${byWords(g)} ${g.name}`).join(', ');
  return {
    verdict: 'unknown',
    findings: [
      {
        code: 'IncompleteEvidence',
        severity: 'warning',
        summary: `Whether the rollout of ${ref} finishes is not known: its new pods fit no node there is now (${prediction.reason ?? 'no room'}), and ${names} may add nodes whose size is not known.`,
        explanation:
          'A node group whose nodes cannot be told (no node-pool label its name holds, or no node yet), or a Karpenter NodePool, which may launch a larger instance type than any it runs, may add the room. check does not promise it either way.',
        evidence: [...open.map(groupNote), ...prediction.findings.flatMap((f) => f.evidence).slice(0, 3)],
        says: {
          key: 'scaleUpNotKnown',
          why: 'scaleUpNotKnownWhy',
          params: { ref, groups: open.map(scaleGroup) },
        },
      },
    ],
  };
}

/** The verdict as it was, with what each group could not add. */
function withGrowthNotes(prediction: Prediction, growth: NodeGrowth): Prediction {
  const notes: CheckEvidence[] = [
    ...growth.groups.map(groupNote),
    ...growth.unread.map((what) => ({
      type: 'note' as const,
      text: `Not read: ${what}`,
      says: { key: 'unread', params: { what } } as const,
    })),
  ];
  if (notes.length === 0) return prediction;
  const [first, ...rest] = prediction.findings;
  if (!first) return prediction;
  return { ...prediction, findings: [{ ...first, evidence: [...first.evidence, ...notes] }, ...rest] };
}

function groupNote(group: GrowableGroup): CheckEvidence {
  const what = group.held
    ? `adds no node now: ${group.held}`
    : group.template
      ? `may add ${group.canAdd} node(s) like ${group.template.metadata.name ?? '?'}${group.mayBeLarger ? ' or larger' : ''}`
      : `may add ${group.canAdd} node(s) whose size is not known`;
  const says: NoteSays = group.held
    ? { key: 'groupHeld', params: { ...named(group), held: group.held } }
    : group.template
      ? {
          key: 'groupMayAdd',
          params: {
            ...named(group),
            canAdd: group.canAdd,
            like: group.template.metadata.name ?? '?',
            larger: Boolean(group.mayBeLarger),
          },
        }
      : { key: 'groupUnknownSize', params: { ...named(group), canAdd: group.canAdd } };
  return { type: 'note', text: `${byWords(group)} ${group.name} ${what}`, says };
}

const named = (group: GrowableGroup): { name: string; karpenter: boolean } => ({
  name: group.name,
  karpenter: group.by === 'karpenter',
});

function scaleGroup(group: GrowableGroup): ScaleGroup {
  return { name: group.name, karpenter: group.by === 'karpenter', nodes: group.nodes };
}

function byWords(group: GrowableGroup): string {
  return group.by === 'karpenter' ? 'Karpenter NodePool' : 'cluster autoscaler node group';
}
