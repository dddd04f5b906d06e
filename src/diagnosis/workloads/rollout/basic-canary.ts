/**
 * The replica counts an Argo Rollout's basic canary (no traffic routing) asks for next,
 * ported from argoproj/argo-rollouts utils/replicaset/canary.go
 * CalculateReplicaCountsForBasicCanary with its helpers (approximateWeightedCanaryStableReplicaCounts,
 * calculateScaleDownReplicaCount, adjustReplicaWithinLimits, GetReplicasForScaleDown) and
 * the weight it aims at (GetCanaryReplicasOrWeight, GetCurrentSetWeight; setCanaryScale
 * and dynamicStableScale need traffic routing, so a basic canary never uses them).
 *
 * What a diagnosis needs from it: whether the controller, at the counts it observes now,
 * scales the stable ReplicaSet down. With maxSurge above 0 the target often keeps every
 * stable pod (replicas 4, setWeight 20: canary 1, stable 4), and then a canary pod that
 * waits for what the stable pods hold waits forever, whatever maxUnavailable says.
 * Pure.
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { ReplicaSet } from '../../k8s-workloads.js';
import { desiredReplicas, resolveStrategy } from './rollout-strategy.js';

/** weightutil.MaxTrafficWeight without traffic routing. */
const MAX_WEIGHT = 100;

export interface CanaryCounts {
  canary: number;
  stable: number;
}

const specOf = (rs: ReplicaSet | undefined): number => rs?.spec.replicas ?? 1;
const availableOf = (rs: ReplicaSet | undefined): number => rs?.status?.availableReplicas ?? 0;

/** GetCurrentSetWeight: the last setWeight at or before the current step; 100 past the steps, 0 aborted. */
export function currentSetWeight(rollout: ArgoRollout): number {
  const status = rollout.status ?? {};
  if (status.abort) return 0;
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  const index = status.currentStepIndex ?? 0;
  if (steps.length === 0 || index >= steps.length) return MAX_WEIGHT;
  for (let i = index; i >= 0; i -= 1) {
    const weight = steps[i]?.setWeight;
    if (typeof weight === 'number') return weight;
  }
  return 0;
}

/** GetCanaryReplicasOrWeight for a basic canary: 100 once promoted (or with no stable yet). */
function desiredWeight(rollout: ArgoRollout): number {
  const status = rollout.status ?? {};
  if (status.promoteFull || !status.stableRS || status.currentPodHash === status.stableRS) return MAX_WEIGHT;
  return currentSetWeight(rollout);
}

/** floorCeilingTied: ceiling and floor equally far from the weight (then the larger canary wins). */
function tied(weight: number, total: number): boolean {
  const exact = total * (weight / MAX_WEIGHT);
  return exact - Math.trunc(exact) === 0.5;
}

function weightDelta(weight: number, canary: number, total: number): number {
  return Math.abs((canary * MAX_WEIGHT) / total - weight);
}

/** approximateWeightedCanaryStableReplicaCounts: totals of spec.replicas, or one more when surge allows. */
export function weightedCounts(replicas: number, weight: number, maxSurge: number): CanaryCounts {
  if (replicas === 0) return { canary: 0, stable: 0 };
  const ceil = Math.ceil((replicas * weight) / MAX_WEIGHT);
  const floor = Math.floor((replicas * weight) / MAX_WEIGHT);
  const zeroAllowed = weight === MAX_WEIGHT || weight === 0 || (replicas === 1 && maxSurge === 0);
  const options: { canary: number; total: number }[] = [];
  if (ceil < replicas || zeroAllowed) options.push({ canary: ceil, total: replicas });
  if (!tied(weight, replicas) && (floor !== 0 || zeroAllowed))
    options.push({ canary: floor, total: replicas });
  if (maxSurge > 0) {
    options.push({ canary: ceil, total: replicas + 1 });
    if (!tied(weight, replicas + 1) && (floor !== 0 || zeroAllowed))
      options.push({ canary: floor, total: replicas + 1 });
  }
  const [first, ...rest] = options;
  if (!first) return { canary: 0, stable: replicas };
  let best = first;
  for (const option of rest) {
    if (weightDelta(weight, option.canary, option.total) < weightDelta(weight, best.canary, best.total))
      best = option;
  }
  return { canary: best.canary, stable: best.total - best.canary };
}

/** One setWeight (or traffic-routed setCanaryScale) step still ahead (or current), with the counts it holds at once. */
export interface StepCounts extends CanaryCounts {
  /** The step's index in spec.strategy.canary.steps. */
  index: number;
  /** The weight the step sets (a setCanaryScale step: the last setWeight before it, GetCurrentSetWeight). */
  weight: number;
  /** The step as its manifest says it: `setWeight 75`, `setCanaryScale replicas 3`. */
  action: string;
  /** The counts with maxSurge 0 (spec.replicas in all): what a strategy change would ask. */
  withoutSurge: CanaryCounts;
  /** A traffic-routed canary's promotion past its last step (dynamicStableScale), not a setWeight step. */
  promotion?: true;
}

/**
 * The canary and stable counts of each setWeight step from the current one on (below
 * 100), and of a traffic-routed canary's setCanaryScale steps: the controller moves past
 * a step only at those counts
 * (AtDesiredReplicaCountsForCanary: the canary available, the stable created unless
 * dynamicStableScale), so both run at once. None once aborted, promoted in full, with no stable yet, or past the steps:
 * then only the end state counts.
 */
export function stepsAhead(rollout: ArgoRollout): StepCounts[] {
  const status = rollout.status ?? {};
  if (status.abort || status.promoteFull || !status.stableRS || status.currentPodHash === status.stableRS)
    return [];
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  const replicas = desiredReplicas(rollout);
  const strategy = resolveStrategy(rollout);
  const maxSurge = strategy.maxSurge?.value ?? 0;
  const routed = strategy.argo === 'trafficRouted';
  const dynamic = routed && rollout.spec.strategy?.canary?.dynamicStableScale === true;
  // The router's canary weight when a step starts: what it holds now, then each step's
  // once its canary is available (reconcileTrafficRouting).
  let routerWeight = status.canary?.weights?.canary?.weight ?? 0;
  let setWeight = setWeightBefore(steps, status.currentStepIndex ?? 0);
  const ahead: StepCounts[] = [];
  const start = status.currentStepIndex ?? 0;
  for (let index = start; index < steps.length; index += 1) {
    const weight = steps[index]?.setWeight;
    if (typeof weight === 'number') setWeight = weight;
    // completedCurrentCanaryStep waits for AtDesiredReplicaCountsForCanary at a
    // setCanaryScale step too (traffic routing only: a basic canary ignores it), at the
    // weight of the last setWeight before it.
    const scale = routed ? scaleAction(steps[index]?.setCanaryScale) : undefined;
    if (typeof weight === 'number' && weight < MAX_WEIGHT) {
      if (routed) {
        const counts = trafficRoutedCounts(rollout, replicas, index, weight, routerWeight);
        ahead.push({ index, weight, action: `setWeight ${weight}`, ...counts, withoutSurge: counts });
        routerWeight = weight;
      } else {
        ahead.push({
          index,
          weight,
          action: `setWeight ${weight}`,
          ...weightedCounts(replicas, weight, maxSurge),
          withoutSurge: weightedCounts(replicas, weight, 0),
        });
      }
    } else if (scale && setWeight < MAX_WEIGHT) {
      const counts = trafficRoutedCounts(rollout, replicas, index, setWeight, routerWeight);
      ahead.push({ index, weight: setWeight, action: scale, ...counts, withoutSurge: counts });
    }
  }
  // The promotion after the last step: the canary goes to every replica while, with
  // dynamicStableScale, the stable keeps the last weight's share until the canary is
  // available (the router moves to 100 only then). Without it the end state (both
  // revisions whole) is final-state.ts's proof.
  if (dynamic) {
    const canary = replicas;
    const stable = trafficWeightToReplicas(replicas, MAX_WEIGHT - routerWeight);
    const counts = { canary, stable };
    ahead.push({
      index: steps.length,
      weight: MAX_WEIGHT,
      action: 'promotion',
      promotion: true,
      ...counts,
      withoutSurge: counts,
    });
  }
  return ahead;
}

/** GetCurrentSetWeight at step `index`: the last setWeight before it (0 if none). */
function setWeightBefore(steps: readonly { setWeight?: unknown }[], index: number): number {
  for (let i = Math.min(index, steps.length) - 1; i >= 0; i -= 1) {
    const weight = steps[i]?.setWeight;
    if (typeof weight === 'number') return weight;
  }
  return 0;
}

/** A setCanaryScale step that sets counts, as its manifest says it (matchTrafficWeight sets none of its own). */
function scaleAction(scale: unknown): string | undefined {
  if (typeof scale !== 'object' || scale === null) return undefined;
  const { replicas, weight } = scale as { replicas?: unknown; weight?: unknown };
  if (typeof replicas === 'number') return `setCanaryScale replicas ${replicas}`;
  if (typeof weight === 'number') return `setCanaryScale weight ${weight}`;
  return undefined;
}

/** trafficWeightToReplicas: ceil(replicas × weight / 100). */
function trafficWeightToReplicas(replicas: number, weight: number): number {
  return Math.ceil((replicas * weight) / MAX_WEIGHT);
}

/**
 * UseSetCanaryScale at step `index`: the last setCanaryScale at or before it, unless a
 * matchTrafficWeight one ends it.
 */
function setCanaryScaleAt(
  rollout: ArgoRollout,
  index: number,
): { replicas?: number; weight?: number } | undefined {
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  for (let i = Math.min(index, steps.length - 1); i >= 0; i -= 1) {
    const scale = steps[i]?.setCanaryScale as
      { replicas?: number; weight?: number; matchTrafficWeight?: boolean } | undefined;
    if (!scale) continue;
    return scale.matchTrafficWeight ? undefined : scale;
  }
  return undefined;
}

/**
 * CalculateReplicaCountsForTrafficRoutedCanary at a setWeight step: the canary is
 * setCanaryScale's count, or ceil(replicas × weight); the stable keeps spec.replicas, or
 * with dynamicStableScale the share the router still sends it (`routerWeight`: the stable
 * shrinks only after the router moved, and the step does not wait for it to grow).
 * The surge does not enter: no strategy change moves these counts.
 */
function trafficRoutedCounts(
  rollout: ArgoRollout,
  replicas: number,
  index: number,
  weight: number,
  routerWeight: number,
): CanaryCounts {
  const scale = setCanaryScaleAt(rollout, index);
  // GetCanaryReplicasOrWeight: explicit replicas come with weight 0 (the stable keeps all).
  const desired = scale?.replicas !== undefined ? 0 : (scale?.weight ?? weight);
  const canary = scale?.replicas ?? trafficWeightToReplicas(replicas, desired);
  if (rollout.spec.strategy?.canary?.dynamicStableScale !== true) return { canary, stable: replicas };
  // With dynamicStableScale the stable's count is the larger of the desired weight's share
  // and the router's (it shrinks no further before the router moves). The step waits for
  // the canary only (AtDesiredReplicaCountsForCanary checks the stable ReplicaSet only
  // without it), but reconcileCanaryReplicaSets scales the stable ReplicaSet first and
  // the canary only on a later pass: a setCanaryScale replicas step (weight 0) asks for
  // every stable pod back, and those pods are created, admitted and scheduled before the
  // canary's, so they hold the room and the quota the canary then lacks.
  const stable = Math.max(
    trafficWeightToReplicas(replicas, MAX_WEIGHT - desired),
    trafficWeightToReplicas(replicas, MAX_WEIGHT - routerWeight),
  );
  return { canary, stable };
}

/** GetReplicasForScaleDown. */
function replicasForScaleDown(rs: ReplicaSet | undefined, ignoreAvailability: boolean): number {
  if (!rs) return 0;
  if (specOf(rs) < availableOf(rs)) return specOf(rs);
  return ignoreAvailability ? specOf(rs) : availableOf(rs);
}

/** calculateScaleDownReplicaCount. */
function scaleDownTo(drain: ReplicaSet | undefined, desired: number, by: number, count: number): number {
  return drain && specOf(drain) > desired ? Math.max(desired, specOf(drain) - by) : count;
}

/** adjustReplicaWithinLimits: [drain count, adjust count] within maxSurge and maxUnavailable. */
function withinLimits(
  drain: ReplicaSet | undefined,
  adjust: ReplicaSet | undefined,
  drainCount: number,
  adjustCount: number,
  maxAllowed: number,
  minAvailable: number,
): [number, number] {
  if (!adjust) return [drainCount, adjustCount];
  let over = Math.max(0, adjustCount + drainCount - maxAllowed);
  let available = drain ? Math.min(availableOf(drain), drainCount) : 0;
  let adjusted = adjustCount - over;
  available += Math.min(availableOf(adjust), adjusted);
  const lost = Math.max(0, availableOf(adjust) - adjusted);
  const short = Math.max(0, minAvailable - available);
  adjusted += Math.min(lost, short);
  over = Math.max(0, adjusted + drainCount - maxAllowed);
  return [drainCount - over, adjusted];
}

/**
 * CalculateReplicaCountsForBasicCanary: the canary and stable ReplicaSets' next replica
 * counts. `others` are the Rollout's ReplicaSets that are neither.
 */
export function basicCanaryCounts(
  rollout: ArgoRollout,
  newRS: ReplicaSet | undefined,
  stableRS: ReplicaSet | undefined,
  others: readonly ReplicaSet[],
): CanaryCounts {
  const replicas = desiredReplicas(rollout);
  const strategy = resolveStrategy(rollout);
  const maxSurge = strategy.maxSurge?.value ?? 0;
  const maxUnavailable = strategy.maxUnavailable?.value ?? 0;
  let { canary: desiredNew, stable: desiredStable } = weightedCounts(
    replicas,
    desiredWeight(rollout),
    maxSurge,
  );
  let newCount = newRS ? specOf(newRS) : 0;
  // CheckStableRSExists: a stable ReplicaSet that is not the new one.
  const scaleStable = stableRS !== undefined && stableRS !== newRS;
  let stableCount = 0;
  if (scaleStable) stableCount = specOf(stableRS);
  else {
    desiredNew = replicas;
    desiredStable = 0;
  }
  const maxAllowed = replicas + maxSurge;
  const all = [...others, ...(newRS ? [newRS] : []), ...(scaleStable && stableRS ? [stableRS] : [])];
  let scaleUp = maxAllowed - all.reduce((sum, rs) => sum + (rs.spec.replicas ?? 0), 0);
  if (scaleStable && stableRS && specOf(stableRS) < desiredStable && scaleUp > 0) {
    if (specOf(stableRS) + scaleUp < desiredStable) {
      stableCount = specOf(stableRS) + scaleUp;
      scaleUp = 0;
    } else {
      stableCount = desiredStable;
      scaleUp -= desiredStable - specOf(stableRS);
    }
  }
  if (newRS && specOf(newRS) < desiredNew && scaleUp > 0) {
    newCount = Math.min(specOf(newRS) + scaleUp, desiredNew);
  }
  // Older ReplicaSets with replicas are scaled down first (scaleDownOldReplicaSetsForCanary).
  if (others.reduce((sum, rs) => sum + (rs.spec.replicas ?? 0), 0) > 0)
    return { canary: newCount, stable: stableCount };
  const minAvailable = replicas - maxUnavailable;
  const increasing = newRS === undefined || desiredNew >= specOf(newRS);
  const toScaleDown = replicasForScaleDown(newRS, !increasing) + replicasForScaleDown(stableRS, increasing);
  if (toScaleDown <= minAvailable) return { canary: newCount, stable: stableCount };
  const by = toScaleDown - minAvailable;
  if (!increasing) {
    newCount = scaleDownTo(newRS, desiredNew, by, newCount);
    [newCount, stableCount] = withinLimits(newRS, stableRS, newCount, stableCount, maxAllowed, minAvailable);
  } else if (scaleStable) {
    stableCount = scaleDownTo(stableRS, desiredStable, by, stableCount);
    [stableCount, newCount] = withinLimits(stableRS, newRS, stableCount, newCount, maxAllowed, minAvailable);
  }
  return { canary: newCount, stable: stableCount };
}
