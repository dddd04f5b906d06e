/** Pod status helpers shared by controllers. */
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { SimObject } from '../store.js';
import { simNow } from '../clock.js';

/** The pod as a typed view (no copy). */
export function asPod(o: SimObject): Pod {
  return o as unknown as Pod;
}

/** Ready condition is True. */
export function isPodReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

/** Ready for at least minReadySeconds (scaled) at `now`. */
export function isPodAvailable(
  pod: Pod,
  minReadySeconds: number,
  timeScale: number,
  now = simNow(),
): boolean {
  const ready = pod.status?.conditions?.find((c) => c.type === 'Ready' && c.status === 'True');
  if (!ready) return false;
  if (minReadySeconds <= 0) return true;
  const since = ready.lastTransitionTime ? Date.parse(ready.lastTransitionTime) : 0;
  return now - since >= (minReadySeconds * 1000) / timeScale;
}

/** Not finished and not being deleted. */
export function isPodActive(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase !== 'Succeeded' && phase !== 'Failed' && !pod.metadata.deletionTimestamp;
}

/** The uid of the controlling owner, if any. */
export function controllerUid(o: SimObject): string | undefined {
  return o.metadata.ownerReferences?.find((r) => r.controller)?.uid;
}

/** Bound and not finished: what the scheduler's NodeInfo counts, terminating pods included. */
export function holdsNode(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return Boolean(pod.spec.nodeName) && phase !== 'Succeeded' && phase !== 'Failed';
}
