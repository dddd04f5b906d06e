/**
 * Removing a node exclusion that rollout-doctor set: exactly the NotIn
 * values its record says it added come out of every required term, the user's own
 * values stay, an expression or term left empty by that goes (an empty term matches no
 * node), and the record's annotations go in the same JSON patch. The patch is
 * conditional on the live affinity and on the record's expires-at as read, so two
 * workers (or a job delivered twice) remove it once: the second patch fails its test.
 *
 * The removal is a plan of the exclude-node kind, as an Undo keeps the kind it reverts
 * (kinds/exclude-node.ts: the affinity and the record's annotations are what it may
 * write). Pure.
 */
import type { Affinity, NodeSelectorTerm } from '../diagnosis/k8s.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import { AFFINITY_PATH, type JsonPatchOp } from './builders/exclude-node.js';
import { annotationPointer, EXCLUSION_ANNOTATIONS, type ExclusionRecord } from './exclusion-record.js';
import { jsonEqual } from './json-pointer.js';
import { planId } from './plan-id.js';
import type { WorkloadPatchPlan } from './plan.js';

/** The affinity without the values `added` (by key) in any required NotIn; undefined when nothing is left of it. */
export function withoutExcluded(
  affinity: Affinity | undefined,
  added: Readonly<Record<string, readonly string[]>>,
): Affinity | undefined {
  if (!affinity) return undefined;
  const result = structuredClone(affinity);
  const required = result.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  if (!result.nodeAffinity || !required) return result;
  const terms = (required.nodeSelectorTerms ?? []).flatMap((term) => {
    const kept = termWithout(term, added);
    return kept === null ? [] : [kept];
  });
  if (terms.length > 0) required.nodeSelectorTerms = terms;
  else delete result.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution;
  if (Object.keys(result.nodeAffinity).length === 0) delete result.nodeAffinity;
  return Object.keys(result).length === 0 ? undefined : result;
}

/** The term without those values; null when removing them left it empty (an empty term of the user's stays). */
function termWithout(
  term: NodeSelectorTerm,
  added: Readonly<Record<string, readonly string[]>>,
): NodeSelectorTerm | null {
  const expressions = term.matchExpressions ?? [];
  if (expressions.length === 0) return term;
  const kept = expressions.flatMap((e) => {
    const ours = e.operator === 'NotIn' ? added[e.key] : undefined;
    if (!ours) return [e];
    const values = (e.values ?? []).filter((v) => !ours.includes(v));
    return values.length > 0 ? [{ ...e, values }] : [];
  });
  if (kept.length === 0 && (term.matchFields ?? []).length === 0) return null;
  return { ...term, matchExpressions: kept };
}

/** The JSON patch that removes the exclusion and its record, tested against the live affinity and record. */
function removalPatch(
  live: Affinity | undefined,
  record: ExclusionRecord,
  annotations: Readonly<Record<string, string>>,
): JsonPatchOp[] {
  const after = withoutExcluded(live, record.values);
  const ops: JsonPatchOp[] = [
    // Exactly once: a second removal finds another expires-at (or none) and fails here.
    {
      op: 'test',
      path: annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt),
      value: record.expiresAt,
    },
  ];
  if (!jsonEqual(live, after)) {
    ops.push({ op: 'test', path: AFFINITY_PATH, value: live });
    ops.push(
      after === undefined
        ? { op: 'remove', path: AFFINITY_PATH }
        : { op: 'replace', path: AFFINITY_PATH, value: after },
    );
  }
  for (const key of Object.values(EXCLUSION_ANNOTATIONS)) {
    if (annotations[key] !== undefined) ops.push({ op: 'remove', path: annotationPointer(key) });
  }
  return ops;
}

/** Why a removal is made: the exclusion expired, or the excluded nodes changed (exclusion-nodes.ts). */
export type RemovalCause = 'expired' | 'nodes-changed';

/** What the removal plan reads of the live workload. */
export interface LiveExclusion {
  target: WorkloadRef;
  uid: string;
  generation: number;
  affinity: Affinity | undefined;
  annotations: Readonly<Record<string, string>>;
  record: ExclusionRecord;
}

/**
 * The plan that removes an exclusion, as any plan: preconditions on the live affinity
 * and the record's expires-at, the patch, and an inverse that puts the exclusion back.
 * The id is the same for the same exclusion (workload uid and its expires-at), so
 * every worker that finds it expired names the same job.
 */
export function removalPlan(live: LiveExclusion, cause: RemovalCause): WorkloadPatchPlan {
  const { record } = live;
  const patch = removalPatch(live.affinity, record, live.annotations);
  const listed = Object.entries(record.values)
    .map(([key, values]) => `${key} NotIn ${values.join(', ')}`)
    .join('; ');
  const why =
    cause === 'expired'
      ? `it expired at ${record.expiresAt}`
      : 'the excluded nodes no longer carry what set them apart';
  return {
    id: planId('unexclude', live.uid, 0, [record.expiresAt, record.setAt, record.values]),
    kind: 'exclude-node',
    target: live.target,
    summary: `Remove the node exclusion rollout-doctor set on ${live.target.name} (${listed}): ${why}.`,
    impact:
      'Removes only the NotIn values rollout-doctor added (values set by anyone else stay); the pod template changes, so this starts a new rollout that may place pods on those nodes again.',
    warnings: [],
    patch: { type: 'json', body: patch },
    inverse: null,
    preconditions: {
      uid: live.uid,
      generation: live.generation,
      fields: [
        { path: AFFINITY_PATH, value: live.affinity },
        { path: annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt), value: record.expiresAt },
      ],
      fieldsOnly: true,
    },
    addresses: cause === 'expired' ? 'ExclusionExpired' : 'ExclusionNodesChanged',
  };
}
