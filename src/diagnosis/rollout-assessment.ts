/**
 * One shared judgement of a Deployment's pending pods, used by the surge-deadlock,
 * unschedulable and at-risk analyzers and by the strategy plan builders, so they
 * never disagree and the work is done once per snapshot.
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
import type { Evidence } from './finding.js';
import type { KubeEvent, Node, Pod, ReplicaSet } from './k8s.js';
import { isEligible, selectsNode, untoleratedTaints } from './node-match.js';
import {
  resolveStrategy,
  desiredReplicas,
  surgesWithoutUnavailability,
  type ResolvedStrategy,
} from './fenceposts.js';
import { claimNames } from './pod-constraints.js';
import { blockersOn, placementContext, usesClaim } from './placement.js';
import { assessNode, type NodeAssessment } from './holder-release.js';
import { parseSchedulingMessage, type ParsedSchedulingMessage } from './scheduling-message.js';
import type { WorkloadSnapshot } from './snapshot.js';
import {
  classifyReplicaSets,
  eventsOfPod,
  isReady,
  isTerminating,
  isUnscheduled,
  latestSchedulingFailure,
  podsOfReplicaSet,
  type SchedulingFailure,
} from './workload.js';

export type PendingVerdict =
  'surge-deadlock' | 'unschedulable' | 'transient' | 'waiting-for-old-pods' | 'unexplained';

export interface IneligibleNode {
  node: Node;
  /** "nodeSelector/affinity", "taint gpu=true:NoSchedule", "cordoned". */
  reasons: string[];
}

export interface PendingAssessment {
  pod: Pod;
  /** The pod belongs to the ReplicaSet the rollout is creating. */
  isNew: boolean;
  failure?: SchedulingFailure;
  parsed: ParsedSchedulingMessage | null;
  eligible: NodeAssessment[];
  ineligible: IneligibleNode[];
  verdict: PendingVerdict;
}

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
  ];
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
  surges: boolean;
  current?: ReplicaSet;
  old: ReplicaSet[];
  oldPods: ReadonlySet<Pod>;
  newPods: Pod[];
  pending: PendingAssessment[];
  attach: AttachBlock[];
}

const cache = new WeakMap<WorkloadSnapshot, RolloutAssessment>();

/** The shared assessment of the snapshot (computed once, then cached). */
export function assessRollout(snapshot: WorkloadSnapshot): RolloutAssessment {
  const cached = cache.get(snapshot);
  if (cached) return cached;
  const strategy = resolveStrategy(snapshot.deployment);
  const { current, old } = classifyReplicaSets(snapshot);
  const newPods = current ? podsOfReplicaSet(snapshot, current) : [];
  const oldPods = new Set(old.flatMap((rs) => podsOfReplicaSet(snapshot, rs)));
  const newSet = new Set(newPods);
  const surges = surgesWithoutUnavailability(strategy);
  const pending = snapshot.pods
    .filter(isUnscheduled)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''))
    .map((pod) => assessPending(snapshot, pod, newSet.has(pod), oldPods, surges));
  const result: RolloutAssessment = {
    replicas: desiredReplicas(snapshot.deployment),
    strategy,
    surges,
    ...(current ? { current } : {}),
    old,
    oldPods,
    newPods,
    pending,
    attach: attachBlocks(snapshot, newPods, oldPods),
  };
  cache.set(snapshot, result);
  return result;
}

function assessPending(
  snapshot: WorkloadSnapshot,
  pod: Pod,
  isNew: boolean,
  oldPods: ReadonlySet<Pod>,
  surges: boolean,
): PendingAssessment {
  const ctx = placementContext(snapshot);
  const failure = latestSchedulingFailure(snapshot, pod);
  const parsed = failure ? safeParse(failure.message) : null;
  const eligibleNodes: Node[] = [];
  const ineligible: IneligibleNode[] = [];
  for (const node of snapshot.nodes) {
    if (isEligible(node, pod.spec)) eligibleNodes.push(node);
    else ineligible.push({ node, reasons: ineligibility(node, pod) });
  }
  const releasable = (holder: Pod): boolean => isNew && oldPods.has(holder);
  const eligible = eligibleNodes.map((node) => assessNode(ctx, pod, node, releasable));
  const base = { pod, isNew, parsed, eligible, ineligible, ...(failure ? { failure } : {}) };
  return { ...base, verdict: pendingVerdict(eligible, surges) };
}

function pendingVerdict(eligible: NodeAssessment[], surges: boolean): PendingVerdict {
  if (eligible.length === 0) return 'unschedulable';
  if (eligible.some((a) => a.blockers.length === 0)) return 'unexplained';
  const freed = eligible.filter((a) => a.release !== undefined);
  if (freed.length === 0) return 'unschedulable';
  if (freed.some((a) => a.release?.length === 0)) return 'transient';
  return surges ? 'surge-deadlock' : 'waiting-for-old-pods';
}

/**
 * Cordoned nodes that would take the pod now: selected, no other untolerated taint
 * than the cordon's own, and room for it. Uncordoning one is the way out without
 * downtime, when the cordon is no longer needed.
 */
export function cordonedWithRoom(snapshot: WorkloadSnapshot, pending: PendingAssessment): string[] {
  const ctx = placementContext(snapshot);
  return pending.ineligible
    .filter(
      ({ reasons }) =>
        reasons.includes('cordoned') &&
        reasons.every((r) => r === 'cordoned' || r.startsWith('taint node.kubernetes.io/unschedulable')),
    )
    .filter(({ node }) => blockersOn(ctx, pending.pod, node).length === 0)
    .map(({ node }) => node.metadata.name ?? '');
}

/** The note that says so, or nothing. */
export function cordonedNote(snapshot: WorkloadSnapshot, pending: PendingAssessment): Evidence[] {
  const nodes = cordonedWithRoom(snapshot, pending);
  if (nodes.length === 0) return [];
  const named = nodes.slice(0, 3).join(', ') + (nodes.length > 3 ? ` and ${nodes.length - 3} more` : '');
  return [
    {
      type: 'note',
      text: `Cordoned ${nodes.length === 1 ? 'node' : 'nodes'} ${named} ${nodes.length === 1 ? 'matches' : 'match'} this pod and ${nodes.length === 1 ? 'has' : 'have'} room for it now: \`kubectl uncordon ${nodes[0]}\` lets it schedule without downtime, if the cordon is no longer needed.`,
    },
  ];
}

function ineligibility(node: Node, pod: Pod): string[] {
  const reasons: string[] = [];
  if (!selectsNode(node, pod.spec)) reasons.push('nodeSelector/affinity');
  if (node.spec?.unschedulable) reasons.push('cordoned');
  for (const taint of untoleratedTaints(node, pod.spec)) {
    reasons.push(`taint ${taint.key}${taint.value ? `=${taint.value}` : ''}:${taint.effect}`);
  }
  return reasons;
}

/** The parsed scheduler message, or null when the text is not one. */
export function safeParse(message: string): ParsedSchedulingMessage | null {
  try {
    return parseSchedulingMessage(message);
  } catch {
    return null;
  }
}

function attachBlocks(snapshot: WorkloadSnapshot, newPods: Pod[], oldPods: ReadonlySet<Pod>): AttachBlock[] {
  const ctx = placementContext(snapshot);
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
