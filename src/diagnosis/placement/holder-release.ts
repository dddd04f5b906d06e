/**
 * The proof behind a surge-deadlock verdict: on a node, would the pod fit once some
 * of our own pods (the ones a strategy change would let go first) are gone?
 */
import type { Node, Pod } from '../k8s.js';
import { blockersOn, coversNeed, fitsOn, type Blocker, type PlacementContext } from './placement.js';
import { occupancyKnown } from '../snapshot/types.js';
import { isStuckTerminating, isTerminating } from '../base/pods.js';
import { deviceOccupancyGap, deviceVerdict } from '../dra/blockers.js';

export interface NodeAssessment {
  node: Node;
  /** What keeps the pod off the node now. Empty: it fits now. */
  blockers: Blocker[];
  /**
   * Releasable pods that must go before the pod fits (found greedily, few in
   * practice). Empty when the terminating ones going is enough. Undefined when
   * even releasing every releasable holder is not enough.
   */
  release?: Pod[];
  /** Lower-priority pods the scheduler preempts once the released ones are gone. */
  preempts?: Pod[];
  /**
   * Lower-priority pods (none of them releasable) whose going alone makes room: the
   * scheduler's preemption (DefaultPreemption, SelectVictimsOnNode) takes them at its
   * next attempt, nothing released first. Only those that hold what the pod needs, and
   * only proved: every pod on the node read, or they hold all the pod asks for.
   */
  preemptsNow?: Pod[];
  /** What still blocks after every releasable holder is gone: what no strategy change fixes. */
  remaining: Blocker[];
  /**
   * Every pod on the node was read. When not, other workloads may hold more than
   * the snapshot shows: an empty `blockers` is not room, and a release is a proof
   * only when the released pods hold at least everything the pod asks for.
   */
  occupancyKnown: boolean;
  /** The release is proved (always, when occupancy is known). */
  releaseProved: boolean;
  /**
   * DRA: why device occupancy or the pod's device request on this node is not known
   * (claims of other namespaces not read, a template not read). Occupancy is then
   * not known either.
   */
  deviceGap?: string;
}

/**
 * Assesses one node for `incoming`; `releasable` says which pods a strategy change
 * would remove first (old pods of this Deployment during a rollout; every pod of it
 * when predicting the next rollout).
 */
export function assessNode(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  releasable: (pod: Pod) => boolean,
): NodeAssessment {
  const devices = deviceVerdict(ctx.analysis, incoming, node);
  const deviceGap = [deviceOccupancyGap(ctx.analysis, incoming), ...(devices?.unknown ?? [])]
    .filter((g): g is string => Boolean(g))
    .join('; ');
  const known = occupancyKnown(ctx.snapshot.coverage, node.metadata.name ?? '') && !deviceGap;
  const found = assessKnownPods(ctx, incoming, node, releasable);
  const released = found.release ?? [];
  const releaseProved =
    known ||
    (released.length > 0 &&
      coversNeed(ctx, incoming, released) &&
      devicesReleased(ctx, incoming, node, released) &&
      !devices?.unknown.length);
  // Preempting them makes room whatever was not read where they hold all the pod asks for.
  const { preemptsNow, ...rest } = found;
  const preemptProved =
    preemptsNow !== undefined && !deviceGap && (known || coversNeed(ctx, incoming, preemptsNow));
  return {
    ...rest,
    ...(preemptProved ? { preemptsNow } : {}),
    occupancyKnown: known,
    releaseProved,
    ...(deviceGap ? { deviceGap } : {}),
  };
}

/**
 * The devices the released pods' claims free on the node serve every DRA request of
 * `incoming` by themselves: then it fits once they go, whatever unseen claims hold.
 */
function devicesReleased(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  released: readonly Pod[],
): boolean {
  const verdict = deviceVerdict(ctx.analysis, incoming, node, {
    removed: new Set(released),
    onlyFreedByRemoved: true,
  });
  return verdict === undefined || verdict.blockers.length === 0;
}

type Found = Omit<NodeAssessment, 'occupancyKnown' | 'releaseProved'>;

function assessKnownPods(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  releasable: (pod: Pod) => boolean,
): Found {
  const blockers = blockersOn(ctx, incoming, node);
  if (blockers.length === 0) return { node, blockers, release: [], remaining: [] };
  // Devices held only by claims that the resourceclaim controller or the garbage
  // collector is freeing (their pod is gone) come free by themselves, like the room of
  // a terminating pod.
  if (
    blockers.every((b) => b.kind === 'devices') &&
    deviceVerdict(ctx.analysis, incoming, node, { freeing: true })?.blockers.length === 0
  ) {
    return { node, blockers, release: [], remaining: [] };
  }
  // A pod stuck terminating (past its deadline) frees nothing by itself, and no
  // strategy change can let it go: it stays a blocker.
  const stuck = (pod: Pod): boolean => isStuckTerminating(pod, ctx.snapshot.capturedAt);
  const candidates = uniquePods(blockers.flatMap((b) => b.holders.map((h) => h.pod))).filter(
    (pod) => releasable(pod) && !stuck(pod),
  );
  if (candidates.length === 0) {
    // Nothing of ours to release: pods of lower priority alone may make the room.
    const victims = preemptable(ctx, incoming, node, new Set());
    const holders = new Set(blockers.flatMap((b) => b.holders.map((h) => h.pod)));
    const now = victims.length > 0 && blockersOn(ctx, incoming, node, new Set(victims)).length === 0;
    const named = victims.filter((p) => holders.has(p));
    return {
      node,
      blockers,
      remaining: blockers,
      ...(now ? { preemptsNow: named.length > 0 ? named : victims } : {}),
    };
  }
  let remaining = blockersOn(ctx, incoming, node, new Set(candidates));
  if (remaining.length > 0) {
    // Once our old pods are gone, the scheduler's preemption takes what pods of lower
    // priority hold (SelectVictimsOnNode); it found no victim only while they stayed.
    const victims = preemptable(ctx, incoming, node, new Set(candidates));
    if (victims.length === 0) return { node, blockers, remaining };
    remaining = blockersOn(ctx, incoming, node, new Set([...candidates, ...victims]));
    if (remaining.length > 0) return { node, blockers, remaining };
    return {
      node,
      blockers,
      release: candidates.filter((p) => !isTerminating(p) && !ctx.leaving.has(p)),
      remaining,
      preempts: victims,
    };
  }
  // Terminating pods, and pods the controller removes by itself, free their room unasked.
  const goes = (pod: Pod): boolean => isTerminating(pod) || ctx.leaving.has(pod);
  const only = candidates[0];
  if (candidates.length === 1 && only)
    return { node, blockers, release: goes(only) ? [] : [only], remaining };

  const removed = new Set(candidates.filter(goes));
  if (removed.size > 0 && fitsOn(ctx, incoming, node, removed)) {
    return { node, blockers, release: [], remaining };
  }
  // Greedy: first the pods that hold something in the most blockers.
  const score = (pod: Pod): number => blockers.filter((b) => b.holders.some((h) => h.pod === pod)).length;
  const live = candidates.filter((p) => !goes(p)).sort((a, b) => score(b) - score(a));
  const release: Pod[] = [];
  for (const pod of live) {
    removed.add(pod);
    release.push(pod);
    if (fitsOn(ctx, incoming, node, removed)) break;
  }
  return { node, blockers, release, remaining };
}

/** Pods on the node of lower priority than `incoming`, which its preemption may take. */
function preemptable(ctx: PlacementContext, incoming: Pod, node: Node, gone: ReadonlySet<Pod>): Pod[] {
  if (incoming.spec.preemptionPolicy === 'Never') return [];
  const priority = incoming.spec.priority ?? 0;
  return (ctx.occupantsByNode.get(node.metadata.name ?? '') ?? []).filter(
    (p) => !gone.has(p) && !isTerminating(p) && (p.spec.priority ?? 0) < priority,
  );
}

function uniquePods(pods: Pod[]): Pod[] {
  return [...new Set(pods)];
}
