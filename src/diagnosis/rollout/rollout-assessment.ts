/**
 * One shared judgement of a Deployment's pending pods, used by the surge-deadlock,
 * unschedulable and at-risk analyzers and by the strategy plan builders, so they
 * never disagree and the work is done once per analysis context.
 *
 * For each unscheduled pod of ours:
 * - no eligible node (selector, node affinity, taints, cordons) → unschedulable;
 * - some eligible node has room now → unexplained (stale message, or a constraint
 *   this model does not know; the scheduler's own words are all we have);
 * - no eligible node has room even with our old pods gone → unschedulable;
 * - room appears once already-terminating old pods are gone → transient;
 * - room appears once live old pods go: a surge deadlock when the strategy surges
 *   (maxSurge ≥ 1, maxUnavailable 0), else the controller is already letting them go.
 */
import { codeSpan } from '../../text/code-span.js';
import type { Evidence } from '../finding.js';
import type { KubeEvent, Node, Pod } from '../k8s.js';
import { isEligible, passesCordon, selectsNode, untoleratedTaints } from '../base/node-match.js';
import type { ResolvedStrategy } from '../resolved-strategy.js';
import { workloadKind, workloadObject, type Revision } from '../workloads/index.js';
import { claimNames } from '../base/pod-constraints.js';
import { fitsOn, placementContext, usesClaim } from '../placement/placement.js';
import { assessNode, type NodeAssessment } from '../placement/holder-release.js';
import { heldBeforeScheduling } from '../scheduling/held-back.js';
import { needsOf } from '../dra/dra-index.js';
import { safeParse } from '../scheduling/scheduling-message.js';
import type { AnalysisContext } from '../analysis-context.js';
import { occupancyKnown, type WorkloadSnapshot } from '../snapshot/types.js';
import { eventsOfPod, latestSchedulingFailure } from '../base/pod-events.js';
import { isReady, isTerminating, isUnscheduled } from '../base/pods.js';
import type { IneligibleNode, Judged, PendingAssessment } from './pending-types.js';
import { volumePins } from '../base/volume-node-affinity.js';
import { pendingVerdict } from './pending-verdict.js';
import { preemptionUnderWay } from '../scheduling/preemption.js';
import { scaleUpUnderWay } from '../scheduling/scale-up.js';
import { DRA_READS, list, pendingWords } from './pending-words.js';

export type { IneligibleNode, PendingAssessment, PendingVerdict } from './pending-types.js';

/** The scheduler's own message about a pending pod, as evidence (none when it left no event). */
export function schedulingEvidence(pending: PendingAssessment): Evidence[] {
  if (!pending.failure) return [];
  return [
    {
      type: 'scheduling',
      pod: pending.pod.metadata.name ?? '',
      message: pending.failure.message,
      parsed: pending.parsed,
    },
    ...unnamedTaintNote(pending),
    ...(pending.deviceNotes ?? []).map((text) => ({ type: 'note' as const, text })),
  ];
}

/**
 * "node(s) had untolerated taint(s)" (1.35, 1.34.2+) names no taint: the node objects
 * do. Nodes not read are not taken for untainted.
 */
export function unnamedTaintNote(pending: Pick<PendingAssessment, 'parsed' | 'ineligible'>): Evidence[] {
  const parsed = pending.parsed;
  if (!parsed?.reasons.some((r) => r.category === 'taints' && !r.taint)) return [];
  const byTaint = new Map<string, string[]>();
  for (const { node, reasons } of pending.ineligible) {
    for (const reason of reasons.filter((r) => r.startsWith('taint '))) {
      const taint = reason.slice('taint '.length);
      byTaint.set(taint, [...(byTaint.get(taint) ?? []), node.metadata.name ?? '']);
    }
  }
  const lead = `The scheduler's "node(s) had untolerated taint(s)" names no taint (Kubernetes 1.35 and 1.34.2+ print it so)`;
  if (byTaint.size === 0) {
    return [
      {
        type: 'note',
        text: `${lead}, and no node read carries a NoSchedule or NoExecute taint this pod does not tolerate: the tainted nodes were not read, or their taints changed since (kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints).`,
      },
    ];
  }
  const found = [...byTaint.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([taint, nodes]) => `${taint} on ${list(nodes)}`);
  return [{ type: 'note', text: `${lead}; the node objects show ${found.join('; ')}.` }];
}

/** A new pod bound to a node but unable to attach a ReadWriteOnce volume held elsewhere. */
export interface AttachBlock {
  pod: Pod;
  node: string;
  claim: string;
  holders: Pod[];
  /** Every holder is a live old pod of this Deployment: letting it go first frees the volume. */
  releasable: boolean;
  events: KubeEvent[];
}

export interface RolloutAssessment {
  replicas: number;
  strategy: ResolvedStrategy;
  /** The controller replaces old pods surge first (kind.replacement): the deadlock shape. */
  surges: boolean;
  current?: Revision;
  old: Revision[];
  oldPods: ReadonlySet<Pod>;
  newPods: Pod[];
  pending: PendingAssessment[];
  attach: AttachBlock[];
}

/** The shared assessment of the context's snapshot (computed once per context). */
export function assessRollout(ctx: AnalysisContext): RolloutAssessment {
  return ctx.once('rollout-assessment', () => computeAssessment(ctx));
}

function computeAssessment(ctx: AnalysisContext): RolloutAssessment {
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const strategy = kind.strategy(object);
  const { current, old } = kind.revisions(snapshot);
  const newPods = current?.pods ?? [];
  const oldPods = new Set(old.flatMap((revision) => revision.pods));
  const newSet = new Set(newPods);
  // New pods first, old ones only once a new one is Ready: a new pod waiting for what an old one holds deadlocks.
  const surges = kind.replacement(strategy, snapshot) === 'surge-first';
  const pending = snapshot.pods
    .filter(isUnscheduled)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((pod) => assessPending(ctx, pod, newSet.has(pod), oldPods, surges));
  return {
    replicas: kind.desiredReplicas(object),
    strategy,
    surges,
    ...(current ? { current } : {}),
    old,
    oldPods,
    newPods,
    pending,
    attach: attachBlocks(ctx, newPods, oldPods),
  };
}

function assessPending(
  analysis: AnalysisContext,
  pod: Pod,
  isNew: boolean,
  oldPods: ReadonlySet<Pod>,
  surges: boolean,
): PendingAssessment {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const failure = latestSchedulingFailure(snapshot, pod);
  const parsed = failure ? safeParse(failure.message) : null;
  const eligibleNodes: Node[] = [];
  const ineligible: IneligibleNode[] = [];
  // Its bound volumes' node affinity rules nodes out as the scheduler's VolumeBinding does.
  const pins = volumePins(pod, snapshot.pvcs, snapshot.guards?.persistentVolumes);
  for (const node of snapshot.nodes) {
    const pinnedOut = pins.filter((p) => !p.allows(node)).map((p) => `volume node affinity (${p.volume})`);
    if (isEligible(node, pod.spec) && pinnedOut.length === 0) eligibleNodes.push(node);
    else ineligible.push({ node, reasons: [...ineligibility(node, pod), ...pinnedOut] });
  }
  const releasable = (holder: Pod): boolean => isNew && oldPods.has(holder);
  const eligible = eligibleNodes.map((node) => assessNode(ctx, pod, node, releasable));
  const base = { pod, isNew, parsed, eligible, ineligible, ...(failure ? { failure } : {}) };
  const held = heldBeforeScheduling(pod);
  if (held) return { ...base, verdict: 'held-back', heldBack: held, provedOn: [], caveats: [], missing: [] };
  const gone = needsOf(analysis, pod)?.missing ?? [];
  if (gone.length > 0) {
    // Whatever the template asks for, the scheduler does not get as far as the nodes.
    return { ...base, verdict: 'claim-missing', claimsGone: gone, provedOn: [], caveats: [], missing: [] };
  }
  const preemption = preemptionUnderWay(snapshot, pod, failure?.message);
  if (preemption) {
    // The scheduler is already making room: resolving, whatever the nodes show now.
    return { ...base, verdict: 'preempting', preemption, provedOn: [], caveats: [], missing: [] };
  }
  const scaleUp = scaleUpUnderWay(snapshot, pod);
  if (scaleUp) {
    // A node is on its way for it: resolving, whatever the nodes there are show now.
    return { ...base, verdict: 'scaling-up', scaleUp, provedOn: [], caveats: [], missing: [] };
  }
  const oldOnes = isNew ? [...oldPods] : [];
  const notes = sharedClaimNotes(analysis, pod, oldOnes);
  const withNotes = notes.length > 0 ? { ...base, deviceNotes: notes } : base;
  const celError = parsed?.reasons.find((r) => r.claims === 'selector-error');
  if (celError) {
    // The scheduler's own latest word: its DynamicResources filter aborts the pod at a
    // selector that errs, before free devices or old pods matter (no strategy helps).
    return {
      ...withNotes,
      verdict: 'unschedulable',
      selectorError: celError.reason,
      provedOn: [],
      caveats: [],
      missing: [],
    };
  }
  if (parsed?.reasons.some((r) => r.category === 'devices') && !snapshot.dra) {
    // The scheduler speaks of claims and devices, and none of them was read.
    return {
      ...withNotes,
      verdict: 'incomplete',
      provedOn: [],
      caveats: ['the scheduler reports resource claims it cannot allocate, and no DRA object was read'],
      missing: [DRA_READS],
    };
  }
  return {
    ...withNotes,
    ...unknownHolders(snapshot, eligible, pendingVerdict(analysis, base, oldOnes, surges)),
  };
}

/**
 * "No room even with the old pods gone" holds only when the pods in the way are known
 * not to be ours: with the ReplicaSets partly read (a capped list, a dump missing one a
 * pod names), a holder may be an old pod of this Deployment whose ReplicaSet was not
 * read, and letting it go first would free the room.
 */
function unknownHolders(
  snapshot: WorkloadSnapshot,
  eligible: readonly NodeAssessment[],
  judged: Judged,
): Judged {
  if (judged.verdict !== 'unschedulable' || snapshot.coverage.replicaSets === 'complete') return judged;
  const ours = new Set(snapshot.pods);
  const holders = eligible.flatMap((a) =>
    a.remaining.flatMap((b) => ('holders' in b ? b.holders.map((h) => h.pod) : [])),
  );
  const unsure = [...new Set(holders.filter((p) => !ours.has(p)).map((p) => p.metadata.name ?? ''))];
  if (unsure.length === 0) return judged;
  const ns = workloadObject(snapshot).metadata.namespace ?? '';
  return {
    ...judged,
    verdict: 'incomplete',
    caveats: [...judged.caveats, pendingWords.unknownHoldersCaveat(unsure)],
    missing: [...judged.missing, pendingWords.replicaSetsRead(ns)],
  };
}

/**
 * A shared claim (resourceClaimName) is reused by the new pod where it is allocated: a
 * surge cannot deadlock on it there. Elsewhere the new pod waits until every pod using
 * it is gone (it is then deallocated and allocated anew): when only old pods use it,
 * that is the surge deadlock's to prove (dra/blockers.ts), and the note says so.
 */
function sharedClaimNotes(ctx: AnalysisContext, pod: Pod, oldPods: readonly Pod[]): string[] {
  const oldUids = new Set(oldPods.map((p) => p.metadata.uid ?? ''));
  return (needsOf(ctx, pod)?.shared ?? []).map((shared) => {
    const now =
      shared.users.length > 0
        ? ` (now ${shared.users.slice(0, 3).join(', ')}${shared.users.length > 3 ? ` and ${shared.users.length - 3} more` : ''})`
        : '';
    const oldOnly =
      shared.allocated && shared.userUids.length > 0 && shared.userUids.every((u) => oldUids.has(u));
    return oldOnly
      ? `ResourceClaim ${shared.claim} is shared (resourceClaimName) by the old and the new pods, and only old pods use it. It stays allocated while any pod uses it${now}: the new pod reuses its allocation on a node it is allocated on; on any other node it waits until the old pods release it and the claim is allocated again.`
      : `ResourceClaim ${shared.claim} is shared (resourceClaimName) by the old and the new pods: the new pod reuses its allocation, so letting old pods go first frees no device and a surge cannot deadlock on it. It stays allocated while any pod uses it${now}.`;
  });
}

/**
 * Cordoned nodes that would take the pod now: selected, no other untolerated taint
 * than the cordon's own, and room for it. Uncordoning one is the way out without
 * downtime, when the cordon is no longer needed.
 */
function cordonedWithRoom(analysis: AnalysisContext, pending: PendingAssessment): string[] {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  return pending.ineligible
    .filter(
      ({ reasons }) =>
        reasons.includes('cordoned') &&
        reasons.every((r) => r === 'cordoned' || r.startsWith('taint node.kubernetes.io/unschedulable')),
    )
    .filter(({ node }) => occupancyKnown(snapshot.coverage, node.metadata.name ?? ''))
    .filter(({ node }) => fitsOn(ctx, pending.pod, node))
    .map(({ node }) => node.metadata.name ?? '');
}

/** The note that says so, or nothing. */
export function cordonedNote(ctx: AnalysisContext, pending: PendingAssessment): Evidence[] {
  const nodes = cordonedWithRoom(ctx, pending);
  if (nodes.length === 0) return [];
  const named = nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? ` and ${nodes.length - 3} more` : '');
  return [
    {
      type: 'note',
      text: `Cordoned ${nodes.length === 1 ? 'node' : 'nodes'} ${named} ${nodes.length === 1 ? 'matches' : 'match'} this pod and ${nodes.length === 1 ? 'has' : 'have'} room for it now: ${codeSpan(`kubectl uncordon ${nodes[0]}`)} lets it schedule without downtime, if the cordon is no longer needed.`,
    },
  ];
}

function ineligibility(node: Node, pod: Pod): string[] {
  const reasons: string[] = [];
  if (!selectsNode(node, pod.spec)) reasons.push('nodeSelector/affinity');
  if (!passesCordon(node, pod.spec)) reasons.push('cordoned');
  for (const taint of untoleratedTaints(node, pod.spec)) {
    reasons.push(`taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`);
  }
  return reasons;
}

function attachBlocks(analysis: AnalysisContext, newPods: Pod[], oldPods: ReadonlySet<Pod>): AttachBlock[] {
  const { snapshot } = analysis;
  const ctx = placementContext(analysis);
  const blocks: AttachBlock[] = [];
  for (const pod of newPods) {
    const node = pod.spec.nodeName;
    if (!node || isReady(pod) || isTerminating(pod) || pod.status?.phase !== 'Pending') continue;
    for (const claim of claimNames(pod.spec)) {
      const pvc = snapshot.pvcs.find((p) => p.metadata.name === claim);
      const modes = pvc?.spec.accessModes ?? pvc?.status?.accessModes ?? [];
      if (!modes.includes('ReadWriteOnce') || modes.includes('ReadWriteMany')) continue;
      const holders = [...ctx.occupantsByNode.entries()]
        .filter(([name]) => name !== node)
        .flatMap(([, pods]) => pods)
        .filter((other) => usesClaim(other, pod.metadata.namespace, claim));
      if (holders.length === 0) continue;
      const events = eventsOfPod(snapshot.events, pod).filter((e) => e.reason === 'FailedAttachVolume');
      const releasable = holders.every((h) => oldPods.has(h)) && holders.some((h) => !isTerminating(h));
      blocks.push({ pod, node, claim, holders, releasable, events });
    }
  }
  return blocks;
}
