/** A pod's state, as the controllers and the scheduler judge it. */
import type { Pod } from '../k8s.js';

/** A pod that is gone or going: terminal phase or deletion requested. */
export function isTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/** How long past its deletion deadline a terminating pod may take before it counts as stuck. */
const STUCK_AFTER_MS = 60_000;

/**
 * A terminating pod still there well after its deadline (`deletionTimestamp` is the
 * deletion request plus the grace period): a finalizer nobody removes, or a kubelet
 * that cannot confirm. It will not go away by itself, so what it holds is not about
 * to be freed.
 */
export function isStuckTerminating(pod: Pod, now: string): boolean {
  const deadline = Date.parse(pod.metadata.deletionTimestamp ?? '');
  const at = Date.parse(now);
  return Number.isFinite(deadline) && Number.isFinite(at) && at - deadline > STUCK_AFTER_MS;
}

/** Succeeded/Failed pods hold nothing; the scheduler drops them from its cache. */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Bound to a node and still holding what it asked for. */
export function holdsResources(pod: Pod): boolean {
  return Boolean(pod.spec.nodeName) && !isTerminal(pod);
}

/** Pending and not bound to any node. */
export function isUnscheduled(pod: Pod): boolean {
  return !pod.spec.nodeName && !isTerminal(pod) && !isTerminating(pod);
}

/** The pod's Ready condition is True. */
export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/**
 * The pod's state as `kubectl get pods` shows it: "Terminating" once deletion is
 * requested (its phase may still read Running), else its phase.
 */
export function shownPhase(pod: Pod): string | undefined {
  return isTerminating(pod) && !isTerminal(pod) ? 'Terminating' : pod.status?.phase;
}
