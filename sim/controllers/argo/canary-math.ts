/**
 * The basic canary's arithmetic, transcribed from argoproj/argo-rollouts
 * utils/replicaset/canary.go and utils/replicaset/replicaset.go (no traffic routing: the
 * weight is approximated by replica counts):
 * - fenceposts (resolveFenceposts, MaxSurge, MaxUnavailable): defaults "25" for both,
 *   a string always read as a percentage (intstr.GetValueFromIntOrPercent, the
 *   deprecated form that ignores a missing "%"), surge rounded up, unavailable down,
 *   both zero making unavailable 1, unavailable at most the replicas; blue-green has
 *   no surge and its own maxUnavailable;
 * - the current step and weight (GetCurrentCanaryStep, GetCurrentSetWeight: 0 once
 *   aborted, 100 past the last step or with no stable yet);
 * - CalculateReplicaCountsForBasicCanary with approximateWeightedCanaryStableReplicaCounts.
 */
import type { CanaryStep, Rollout, RS } from './types.js';

const MAX_WEIGHT = 100;

function intOrPercent(
  value: number | string | undefined,
  fallback: string,
  total: number,
  roundUp: boolean,
): number {
  const v = value ?? fallback;
  if (typeof v === 'number') return v;
  const n = Number(v.replace(/%/g, ''));
  if (!Number.isFinite(n)) return 0;
  const exact = (n * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}

export function replicasOf(ro: Rollout): number {
  return ro.spec.replicas ?? 1;
}

/** [maxSurge, maxUnavailable] for the canary (resolveFenceposts). */
export function canaryFenceposts(ro: Rollout): [number, number] {
  const replicas = replicasOf(ro);
  const canary = ro.spec.strategy?.canary;
  const surge = intOrPercent(canary?.maxSurge, '25', replicas, true);
  let unavailable = intOrPercent(canary?.maxUnavailable, '25', replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return [surge, Math.min(unavailable, replicas)];
}

/** MaxUnavailable for either strategy (blue-green: its own maxUnavailable, no fencepost adjustment). */
export function maxUnavailable(ro: Rollout): number {
  const replicas = replicasOf(ro);
  if (replicas === 0) return 0;
  if (ro.spec.strategy?.canary) return canaryFenceposts(ro)[1];
  return Math.min(intOrPercent(ro.spec.strategy?.blueGreen?.maxUnavailable, '25', replicas, false), replicas);
}

export function stepsOf(ro: Rollout): CanaryStep[] {
  return ro.spec.strategy?.canary?.steps ?? [];
}

/** GetCurrentCanaryStep: the step at status.currentStepIndex (0 when unset), none past the last. */
export function currentStep(ro: Rollout): { step?: CanaryStep; index?: number } {
  const steps = stepsOf(ro);
  if (!ro.spec.strategy?.canary || steps.length === 0) return {};
  const index = ro.status?.currentStepIndex ?? 0;
  return index < steps.length ? { step: steps[index], index } : { index };
}

/** GetCanaryReplicasOrWeight / GetCurrentSetWeight for a basic canary. */
export function desiredWeight(ro: Rollout): number {
  const s = ro.status ?? {};
  if (s.promoteFull || !s.stableRS || s.currentPodHash === s.stableRS) return MAX_WEIGHT;
  if (s.abort) return 0;
  const { step, index } = currentStep(ro);
  if (!step || index === undefined) return MAX_WEIGHT;
  const steps = stepsOf(ro);
  for (let i = index; i >= 0; i -= 1) {
    const w = steps[i]?.setWeight;
    if (w !== undefined) return w;
  }
  return 0;
}

/** floorCeilingTied: replicas × weight lands exactly half way between two counts. */
function tied(weight: number, replicas: number): boolean {
  const product = (replicas * weight) / MAX_WEIGHT;
  return product - Math.trunc(product) === 0.5;
}

function delta(weight: number, canary: number, total: number): number {
  return Math.abs((canary * MAX_WEIGHT) / total - weight);
}

/** approximateWeightedCanaryStableReplicaCounts: [canary, stable] closest to the weight. */
export function approximateCounts(replicas: number, weight: number, maxSurge: number): [number, number] {
  if (replicas === 0) return [0, 0];
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
  const first = options[0];
  if (!first) return [0, replicas];
  let best = first;
  for (const o of options.slice(1))
    if (delta(weight, o.canary, o.total) < delta(weight, best.canary, best.total)) best = o;
  return [best.canary, best.total - best.canary];
}

const specReplicas = (rs: RS | undefined): number => rs?.spec.replicas ?? 0;
const available = (rs: RS | undefined): number => rs?.status?.availableReplicas ?? 0;

/** GetReplicasForScaleDown: spec when ignoring availability or when spec is below available. */
function forScaleDown(rs: RS | undefined, ignoreAvailability: boolean): number {
  if (!rs) return 0;
  if (specReplicas(rs) < available(rs) || ignoreAvailability) return specReplicas(rs);
  return available(rs);
}

/** calculateScaleDownReplicaCount. */
function drainTo(drain: RS | undefined, desired: number, scaleDown: number, current: number): number {
  return drain && specReplicas(drain) > desired
    ? Math.max(desired, specReplicas(drain) - scaleDown)
    : current;
}

/** adjustReplicaWithinLimits: keeps the pair within maxSurge without going below min available. */
function adjust(
  drain: RS | undefined,
  adjustRS: RS | undefined,
  drainCount: number,
  adjustCount: number,
  maxAllowed: number,
  minAvailable: number,
): [number, number] {
  let over = Math.max(0, adjustCount + drainCount - maxAllowed);
  let total = drain ? Math.min(available(drain), drainCount) : 0;
  let a = adjustCount;
  let d = drainCount;
  if (adjustRS) {
    a -= over;
    total += Math.min(available(adjustRS), a);
    const extra = Math.max(0, available(adjustRS) - a);
    a += Math.min(extra, Math.max(0, minAvailable - total));
    over = Math.max(0, a + d - maxAllowed);
    d -= over;
  }
  return [d, a];
}

/** CheckStableRSExists: a stable ReplicaSet that is not the new one. */
export function stableExists(newRS: RS | undefined, stableRS: RS | undefined): boolean {
  if (!stableRS) return false;
  return !newRS || newRS.metadata.name !== stableRS.metadata.name;
}

/** CalculateReplicaCountsForBasicCanary: [new, stable] replica counts for this reconcile. */
export function basicCanaryCounts(
  ro: Rollout,
  newRS: RS | undefined,
  stableRS: RS | undefined,
  others: readonly RS[],
): [number, number] {
  const replicas = replicasOf(ro);
  const [maxSurge] = canaryFenceposts(ro);
  let [desiredNew, desiredStable] = approximateCounts(replicas, desiredWeight(ro), maxSurge);
  let newCount = specReplicas(newRS);
  let stableCount = 0;
  const scaleStable = stableExists(newRS, stableRS);
  if (scaleStable) stableCount = specReplicas(stableRS);
  else {
    desiredNew = replicas;
    desiredStable = 0;
  }
  const maxAllowed = replicas + maxSurge;
  const all = [...others, newRS, ...(scaleStable ? [stableRS] : [])];
  let scaleUp = maxAllowed - all.reduce((n, rs) => n + specReplicas(rs), 0);
  if (scaleStable && specReplicas(stableRS) < desiredStable && scaleUp > 0) {
    if (specReplicas(stableRS) + scaleUp < desiredStable) {
      stableCount = specReplicas(stableRS) + scaleUp;
      scaleUp = 0;
    } else {
      stableCount = desiredStable;
      scaleUp -= desiredStable - specReplicas(stableRS);
    }
  }
  if (newRS && specReplicas(newRS) < desiredNew && scaleUp > 0) {
    newCount = Math.min(specReplicas(newRS) + scaleUp, desiredNew);
  }
  if (others.reduce((n, rs) => n + specReplicas(rs), 0) > 0) return [newCount, stableCount];
  const minAvailable = replicas - maxUnavailable(ro);
  const increasing = !newRS || desiredNew >= specReplicas(newRS);
  const toScaleDown = forScaleDown(newRS, !increasing) + forScaleDown(stableRS, increasing);
  if (toScaleDown <= minAvailable) return [newCount, stableCount];
  const scaleDown = toScaleDown - minAvailable;
  if (!increasing) {
    newCount = drainTo(newRS, desiredNew, scaleDown, newCount);
    [newCount, stableCount] = adjust(newRS, stableRS, newCount, stableCount, maxAllowed, minAvailable);
  } else if (scaleStable) {
    stableCount = drainTo(stableRS, desiredStable, scaleDown, stableCount);
    [stableCount, newCount] = adjust(stableRS, newRS, stableCount, newCount, maxAllowed, minAvailable);
  }
  return [newCount, stableCount];
}

/** CanaryStepString, as events quote a completed step. */
export function stepString(step: CanaryStep): string {
  if (step.setWeight !== undefined) return `setWeight: ${step.setWeight}`;
  if (step.pause)
    return step.pause.duration !== undefined ? `pause: ${String(step.pause.duration)}` : 'pause';
  if (step.experiment) return 'experiment';
  if (step.analysis) return 'analysis';
  if (step.plugin) return `plugin: ${step.plugin.name ?? ''}`;
  if (step.setHeaderRoute) return `setHeaderRoute: ${step.setHeaderRoute.name ?? ''}`;
  if (step.setMirrorRoute) return `setMirrorRoute: ${step.setMirrorRoute.name ?? ''}`;
  return 'invalid';
}

/** RolloutPause.DurationSeconds: an integer, a number string, or a Go duration ("30s", "1m", "1h30m"); -1 if invalid. */
export function pauseSeconds(duration: number | string): number {
  if (typeof duration === 'number') return duration;
  if (/^\d+$/.test(duration)) return Number(duration);
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 0.001 };
  const parts = [...duration.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== duration) return -1;
  return Math.trunc(parts.reduce((n, p) => n + Number(p[1]) * (unit[p[2] ?? 's'] ?? 1), 0));
}
