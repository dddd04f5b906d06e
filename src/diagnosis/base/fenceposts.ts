/**
 * Rolling-update fenceposts resolved exactly as the Deployment controller does it
 * (k8s.io/kubernetes pkg/controller/deployment/util.ResolveFenceposts):
 *
 * - maxSurge percentages round UP, maxUnavailable percentages round DOWN, both
 *   against spec.replicas (`float64(value) * float64(total) / 100`, then ceil/floor);
 * - an absent value counts as 0 in that function, but the API server defaults both
 *   to "25%", so an absent field here means "25%";
 * - if both resolve to 0, maxUnavailable becomes 1.
 *
 * Where each value came from is the kind's to say (deployment/deployment-strategy.ts).
 */
import type { ResolvedStrategy } from '../resolved-strategy.js';

export const DEFAULT_MAX_SURGE = '25%';
export const DEFAULT_MAX_UNAVAILABLE = '25%';

/**
 * Scales an int-or-percent against `total` like intstr.GetScaledValueFromIntOrPercent.
 * Throws on a string that is not a percentage (the API server rejects those).
 *
 * @example scaleIntOrPercent('25%', 1, true) // 1
 */
export function scaleIntOrPercent(value: number | string, total: number, roundUp: boolean): number {
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new Error(`invalid int-or-percent ${value}: not an integer`);
    return value;
  }
  const match = /^([+-]?\d+)%$/.exec(value.trim());
  if (!match?.[1]) throw new Error(`invalid int-or-percent "${value}": a string must be a percentage`);
  const percent = Number.parseInt(match[1], 10);
  // Same operation order as Go: float64(value) * float64(total) / 100.
  const scaled = (percent * total) / 100;
  return roundUp ? Math.ceil(scaled) : Math.floor(scaled);
}

/** ResolveFenceposts: [surge, unavailable] for the given raw values and replicas. */
export function resolveFenceposts(
  maxSurge: number | string,
  maxUnavailable: number | string,
  replicas: number,
): { surge: number; unavailable: number } {
  const surge = scaleIntOrPercent(maxSurge, replicas, true);
  let unavailable = scaleIntOrPercent(maxUnavailable, replicas, false);
  if (surge === 0 && unavailable === 0) unavailable = 1;
  return { surge, unavailable };
}

/** The strategy surges into a deadlock shape: new pods first, no old pod may go first. */
export function surgesWithoutUnavailability(strategy: ResolvedStrategy): boolean {
  return (
    strategy.type === 'RollingUpdate' &&
    (strategy.maxSurge?.value ?? 0) >= 1 &&
    (strategy.maxUnavailable?.value ?? 0) === 0
  );
}
