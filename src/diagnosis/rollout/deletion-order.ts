/**
 * Which pod a ReplicaSet deletes when it is scaled down by one. The ReplicaSet
 * controller sorts its active pods (upstream pkg/controller/controller_utils.go,
 * `ActivePodsWithRanks.Less`, used by the replicaset controller's getPodsToDelete):
 *
 *   1. not bound to a node before bound;
 *   2. phase Pending before Unknown before Running;
 *   3. not Ready before Ready;
 *   4. lower `controller.kubernetes.io/pod-deletion-cost` before higher;
 *   5. then pods doubled up on a node, a shorter Ready time, more restarts, newer.
 *
 * So a deletion-cost mark decides only among the pods alike in 1 to 3: a Pending or
 * not-Ready old pod goes before any marked Ready one. Pure.
 */
import type { Pod } from '../k8s.js';
import { isReady, isTerminal, isTerminating } from '../base/pods.js';

export const DELETION_COST = 'controller.kubernetes.io/pod-deletion-cost';
/** The lowest cost the API accepts (int32): the mark that makes a pod the first of its tier to go. */
export const FIRST_TO_GO = -2147483648;

const PHASE_ORDER: Record<string, number> = { Pending: 0, Unknown: 1, Running: 2 };

/** Rules 1 to 3 as one number: lower goes first, whatever the deletion cost. */
export function deletionTier(pod: Pod): number {
  const bound = pod.spec.nodeName ? 1 : 0;
  const phase = PHASE_ORDER[pod.status?.phase ?? ''] ?? 0;
  return bound * 6 + phase * 2 + (isReady(pod) ? 1 : 0);
}

/** The pod's deletion cost as the controller reads it (absent or not an integer: 0). */
export function deletionCost(pod: Pod): number {
  const value = Number(pod.metadata.annotations?.[DELETION_COST] ?? '0');
  return Number.isInteger(value) ? value : 0;
}

/** Why a pod of that tier goes first, in words. */
function tierWords(pod: Pod): string {
  if (!pod.spec.nodeName) return 'is not scheduled';
  if (pod.status?.phase === 'Pending') return 'is Pending';
  if (pod.status?.phase === 'Unknown') return 'is in phase Unknown';
  return 'is not Ready';
}

/**
 * The pod a step marks and releases, or why none can be: among the live pods of the
 * old ReplicaSet, the controller takes one of the lowest tier, and the mark picks which.
 * `blocks` says whether a pod's release lets the Pending new pod schedule.
 */
type ReleaseChoice = { ok: true; pod: Pod } | { ok: false; first: Pod; reason: string } | undefined;

export function chooseRelease(pods: readonly Pod[], blocks: (pod: Pod) => boolean): ReleaseChoice {
  const live = pods.filter((p) => !isTerminating(p) && !isTerminal(p));
  if (live.length === 0) return undefined;
  const lowest = Math.min(...live.map(deletionTier));
  const tier = live
    .filter((p) => deletionTier(p) === lowest)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  // Pods of the tier already at the lowest cost (an earlier step's mark, or another's):
  // the controller takes one of them, whichever the later rules pick.
  const floor = tier.filter((p) => deletionCost(p) <= FIRST_TO_GO);
  if (floor.length > 0) {
    const rival = floor.find((p) => !blocks(p));
    if (rival)
      return {
        ok: false,
        first: rival,
        reason: `old pod ${rival.metadata.name ?? ''} carries the lowest ${DELETION_COST} (${FIRST_TO_GO}) and holds nothing the new pod needs, so a mark cannot make a blocking pod the one that goes`,
      };
    return floor[0] ? { ok: true, pod: floor[0] } : undefined;
  }
  const pod = tier.find(blocks);
  const first = tier[0];
  if (!first) return undefined;
  if (!pod) {
    return {
      ok: false,
      first,
      reason: `old pod ${first.metadata.name ?? ''} ${tierWords(first)}: the ReplicaSet controller deletes it before any pod marked with ${DELETION_COST}, and it holds nothing the new pod needs`,
    };
  }
  return { ok: true, pod };
}
