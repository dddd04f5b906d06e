/**
 * A canary with `trafficRouting`, transcribed from argoproj/argo-rollouts
 * utils/replicaset/canary.go (CalculateReplicaCountsForTrafficRoutedCanary, UseSetCanaryScale)
 * and rollout/canary.go (reconcileNewReplicaSet's delayed scale-down on abort):
 * - the router, not the replica counts, splits the traffic: the stable ReplicaSet keeps
 *   every replica (no dynamicStableScale), and the canary gets ceil(replicas × weight / 100)
 *   of the current setWeight, or what the latest setCanaryScale step says (replicas, a
 *   weight, or matchTrafficWeight);
 * - an aborted update's canary keeps its pods for abortScaleDownDelaySeconds (30 by
 *   default) once the stable is fully available, then goes to 0.
 * Limits: no traffic router is simulated, so no weight is verified and
 * status.canary.weights is not written; dynamicStableScale is not honoured.
 */
import { currentStep, desiredWeight, replicasOf, stepsOf } from './canary-math.js';
import { delayedAbortSize, type RolloutContext } from './context.js';
import type { Rollout, RS } from './types.js';

interface CanaryScale {
  replicas?: number;
  weight?: number;
  matchTrafficWeight?: boolean;
}

export function isTrafficRouted(ro: Rollout): boolean {
  return (
    ro.spec.strategy?.canary?.trafficRouting !== undefined && ro.spec.strategy.canary.trafficRouting !== null
  );
}

/** UseSetCanaryScale: the latest setCanaryScale step up to the current one (none once aborted). */
function canaryScale(ro: Rollout): CanaryScale | undefined {
  if (ro.status?.abort) return undefined;
  const { index } = currentStep(ro);
  if (index === undefined) return undefined;
  const steps = stepsOf(ro);
  for (let i = Math.min(index, steps.length - 1); i >= 0; i -= 1) {
    const scale = steps[i]?.setCanaryScale as CanaryScale | undefined;
    if (scale) return scale.matchTrafficWeight ? undefined : scale;
  }
  return undefined;
}

/** CalculateReplicaCountsForTrafficRoutedCanary: [canary, stable]. */
export function trafficRoutedCounts(ro: Rollout): [number, number] {
  const replicas = replicasOf(ro);
  const scale = canaryScale(ro);
  const weight = scale?.replicas !== undefined ? undefined : (scale?.weight ?? desiredWeight(ro));
  const canary = scale?.replicas ?? Math.ceil((replicas * (weight ?? 0)) / 100);
  return [canary, replicas];
}

/** The aborted canary's size while its scale-down is delayed; undefined when it goes now. */
export function abortedCanarySize(ctx: RolloutContext, rs: RS): number | undefined {
  if ((rs.spec.replicas ?? 0) === 0) return undefined;
  const canary = ctx.ro.spec.strategy?.canary as { abortScaleDownDelaySeconds?: number } | undefined;
  return delayedAbortSize(ctx, rs, canary?.abortScaleDownDelaySeconds ?? 30);
}
