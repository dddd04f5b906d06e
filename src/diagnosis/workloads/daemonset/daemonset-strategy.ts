/**
 * A DaemonSet's update strategy as its controller applies it
 * (pkg/controller/daemon/util/daemonset_util.go, UnavailableCount and SurgeCount):
 * spec.updateStrategy RollingUpdate (the API default) with maxSurge (default 0) and
 * maxUnavailable (default 1), both percentages of desiredNumberScheduled rounded up;
 * when both resolve to 0, maxUnavailable counts as 1. OnDelete replaces a pod only
 * when someone deletes it. Validation allows maxSurge > 0 only with maxUnavailable 0.
 */
import type { DaemonSet } from '../../k8s-workloads.js';
import type { ResolvedStrategy, ResolvedValue, ValueSource } from '../../resolved-strategy.js';
import { scaleIntOrPercent } from '../../base/fenceposts.js';

const DEFAULT_MAX_SURGE = 0;
const DEFAULT_MAX_UNAVAILABLE = 1;

/** Nodes that should run the pod (status.desiredNumberScheduled; 0 when no status was read). */
export function desiredPods(daemonSet: DaemonSet): number {
  return daemonSet.status?.desiredNumberScheduled ?? 0;
}

function source(live: number | string | undefined, fallback: number): ValueSource {
  if (live === undefined) return 'default';
  return String(live) === String(fallback) ? 'unknown' : 'explicit';
}

function resolved(live: number | string | undefined, fallback: number, value: number): ResolvedValue {
  return { raw: live ?? fallback, value, source: source(live, fallback) };
}

/**
 * @example resolveStrategy(nodeAgent) // {type:'RollingUpdate', maxSurge:{raw:1,value:1,...}, maxUnavailable:{raw:0,value:0,...}, per:'node'}
 */
export function resolveStrategy(daemonSet: DaemonSet): ResolvedStrategy {
  const strategy = daemonSet.spec.updateStrategy;
  if (strategy?.type === 'OnDelete')
    return { type: 'OnDelete', maxSurge: null, maxUnavailable: null, per: 'node' };
  const rolling = strategy?.rollingUpdate;
  // No status read (a hand-written dump): the node count is unknown, not 0. Against at
  // least one node a positive percentage still rounds up to a surge, which is what matters.
  const desired = Math.max(1, desiredPods(daemonSet));
  const surge = scaleIntOrPercent(rolling?.maxSurge ?? DEFAULT_MAX_SURGE, desired, true);
  let unavailable = scaleIntOrPercent(rolling?.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE, desired, true);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return {
    type: 'RollingUpdate',
    maxSurge: resolved(rolling?.maxSurge, DEFAULT_MAX_SURGE, surge),
    maxUnavailable: resolved(rolling?.maxUnavailable, DEFAULT_MAX_UNAVAILABLE, unavailable),
    per: 'node',
  };
}
