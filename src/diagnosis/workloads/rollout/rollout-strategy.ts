/**
 * An Argo Rollout's strategy resolved to numbers (argoproj/argo-rollouts
 * utils/replicaset/replicaset.go MaxSurge, MaxUnavailable, resolveFenceposts;
 * utils/defaults/defaults.go): the basic canary (no traffic routing) scales the canary
 * and stable ReplicaSets within maxSurge and maxUnavailable, both "25" by default and a
 * string always read as a percentage (intstr's deprecated form that ignores a missing
 * "%"): surge rounds up, unavailable down, both 0 makes unavailable 1, unavailable is
 * at most the replicas (utils/replicaset/canary.go CalculateReplicaCountsForBasicCanary
 * scales the stable ReplicaSet down only past replicas − maxUnavailable available
 * pods; workloads/rollout/basic-canary.ts ports the whole count). Blue-green scales
 * the preview ReplicaSet up to previewReplicaCount (all replicas when unset) beside
 * the active one, which keeps every pod until promotion
 * (rollout/bluegreen.go): a surge of that many with nothing unavailable. A canary with
 * trafficRouting keeps the stable ReplicaSet at spec.replicas and adds the canary's
 * pods (canary.go CalculateReplicaCountsForTrafficRoutedCanary), whatever maxSurge
 * says. Pure.
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { ResolvedStrategy, ResolvedValue } from '../../resolved-strategy.js';

export function desiredReplicas(rollout: ArgoRollout): number {
  return rollout.spec.replicas ?? 1;
}

function resolve(
  raw: number | string | undefined,
  fallback: string,
  total: number,
  up: boolean,
): ResolvedValue {
  const value = raw ?? fallback;
  if (typeof value === 'number') return { raw: value, value, source: 'explicit' };
  const percent = Number(value.replace(/%/g, ''));
  const exact = Number.isFinite(percent) ? (percent * total) / 100 : 0;
  return {
    raw: raw === undefined ? `${fallback}%` : value,
    value: up ? Math.ceil(exact) : Math.floor(exact),
    source: raw === undefined ? 'default' : 'explicit',
  };
}

export function resolveStrategy(rollout: ArgoRollout): ResolvedStrategy {
  const replicas = desiredReplicas(rollout);
  const blueGreen = rollout.spec.strategy?.blueGreen;
  if (blueGreen && !rollout.spec.strategy?.canary) {
    const preview = blueGreen.previewReplicaCount;
    return {
      type: 'RollingUpdate',
      argo: 'blueGreen',
      stableKept: true,
      maxSurge: {
        raw: preview ?? replicas,
        value: preview ?? replicas,
        source: preview === undefined ? 'default' : 'explicit',
      },
      maxUnavailable: { raw: 0, value: 0, source: 'default' },
    };
  }
  const canary = rollout.spec.strategy?.canary;
  if (canary?.trafficRouting !== undefined) {
    // CalculateReplicaCountsForTrafficRoutedCanary: the stable ReplicaSet stays at spec.replicas
    // (without dynamicStableScale); the canary's pods come on top of it.
    return {
      type: 'RollingUpdate',
      argo: 'trafficRouted',
      ...(canary.dynamicStableScale === true ? {} : { stableKept: true as const }),
      maxSurge: { raw: replicas, value: replicas, source: 'default' },
      maxUnavailable: { raw: 0, value: 0, source: 'default' },
    };
  }
  const maxSurge = resolve(canary?.maxSurge, '25', replicas, true);
  const maxUnavailable = resolve(canary?.maxUnavailable, '25', replicas, false);
  if (maxSurge.value === 0 && maxUnavailable.value === 0) maxUnavailable.value = 1;
  maxUnavailable.value = Math.min(maxUnavailable.value, replicas);
  return { type: 'RollingUpdate', argo: 'canary', maxSurge, maxUnavailable };
}
