/**
 * A StatefulSet's update strategy (pkg/apis/apps/v1 defaults; stateful_set_control.go
 * updateStatefulSet): RollingUpdate (the default) replaces pods from the highest
 * ordinal down to `partition` (default 0), deleting each old pod before its replacement
 * exists, at most maxUnavailable at a time where the MaxUnavailableStatefulSet gate is
 * on (else one); OnDelete replaces a pod only when someone deletes it. There is no
 * surge: the new pod takes the old one's name, identity and claims.
 */
import type { StatefulSet } from '../../k8s-workloads.js';
import type { ResolvedStrategy } from '../../resolved-strategy.js';
import { scaleIntOrPercent } from '../../base/fenceposts.js';

export function desiredReplicas(statefulSet: StatefulSet): number {
  return statefulSet.spec.replicas ?? 1;
}

/** Pods below this ordinal keep the current revision on purpose. */
export function partitionOf(statefulSet: StatefulSet): number {
  return statefulSet.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
}

/** OrderedReady (the default): the controller acts on one pod at a time and stops at an unhealthy one. */
export function ordered(statefulSet: StatefulSet): boolean {
  return (statefulSet.spec.podManagementPolicy ?? 'OrderedReady') === 'OrderedReady';
}

export function resolveStrategy(statefulSet: StatefulSet): ResolvedStrategy {
  const strategy = statefulSet.spec.updateStrategy;
  if (strategy?.type === 'OnDelete') return { type: 'OnDelete', maxSurge: null, maxUnavailable: null };
  const raw = strategy?.rollingUpdate?.maxUnavailable;
  const value =
    raw === undefined ? 1 : Math.max(1, scaleIntOrPercent(raw, desiredReplicas(statefulSet), true));
  return {
    type: 'RollingUpdate',
    maxSurge: null,
    maxUnavailable: { raw: raw ?? 1, value, source: raw === undefined ? 'default' : 'explicit' },
    ...(partitionOf(statefulSet) > 0 ? { partition: partitionOf(statefulSet) } : {}),
  };
}
