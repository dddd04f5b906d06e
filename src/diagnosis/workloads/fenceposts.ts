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
 * Where a value came from (`source`), decided in this order:
 * 1. the field (or the whole strategy / rollingUpdate object) is absent from the
 *    object → 'default' (a hand-written manifest, before API defaulting);
 * 2. the value is anything but "25%" → 'explicit' (it cannot be the default);
 * 3. the `kubectl.kubernetes.io/last-applied-configuration` annotation parses →
 *    'explicit' when it sets the field, else 'default';
 * 4. `metadata.managedFields`: an Apply entry (server-side apply) owning the field →
 *    'explicit': an applier owns only what its configuration sets, never what the
 *    server defaulted. No entry owning it → 'default'. Owned by Update entries only →
 *    no proof either way: an Update manager (kubectl create or replace, client-side
 *    apply, Helm, controllers) owns every field of the object it wrote as stored,
 *    defaulted fields included (kubectl-create owns f:strategy,
 *    f:progressDeadlineSeconds and f:revisionHistoryLimit of a manifest that set none);
 * 5. no proof → 'unknown': the value equals the default, and whether someone set
 *    it or the API server filled it in is not recorded.
 */
import { z } from 'zod';
import type { Deployment } from '../k8s.js';
import type { ResolvedStrategy, ValueSource } from '../strategy.js';

export type { ResolvedStrategy, ResolvedValue, ValueSource } from '../strategy.js';

export const DEFAULT_MAX_SURGE = '25%';
export const DEFAULT_MAX_UNAVAILABLE = '25%';
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

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

/** spec.replicas with the API default (1). */
export function desiredReplicas(deployment: Deployment): number {
  return deployment.spec.replicas ?? 1;
}

/**
 * The Deployment's strategy as the controller will apply it, with where each value
 * came from (see the module comment for the 'explicit'/'default' rule).
 *
 * @example resolveStrategy(gpuTracker) // {type:'RollingUpdate', maxSurge:{raw:'25%',value:1,...}, maxUnavailable:{raw:'25%',value:0,...}}
 */
export function resolveStrategy(deployment: Deployment): ResolvedStrategy {
  const strategy = deployment.spec.strategy;
  if (strategy?.type === 'Recreate') return { type: 'Recreate', maxSurge: null, maxUnavailable: null };
  const rolling = strategy?.rollingUpdate;
  const surgeRaw = rolling?.maxSurge ?? DEFAULT_MAX_SURGE;
  const unavailableRaw = rolling?.maxUnavailable ?? DEFAULT_MAX_UNAVAILABLE;
  const { surge, unavailable } = resolveFenceposts(surgeRaw, unavailableRaw, desiredReplicas(deployment));
  return {
    type: 'RollingUpdate',
    maxSurge: {
      raw: surgeRaw,
      value: surge,
      source: valueSource(deployment, 'maxSurge', rolling?.maxSurge, DEFAULT_MAX_SURGE),
    },
    maxUnavailable: {
      raw: unavailableRaw,
      value: unavailable,
      source: valueSource(deployment, 'maxUnavailable', rolling?.maxUnavailable, DEFAULT_MAX_UNAVAILABLE),
    },
  };
}

/** The strategy surges into a deadlock shape: new pods first, no old pod may go first. */
export function surgesWithoutUnavailability(strategy: ResolvedStrategy): boolean {
  return (
    strategy.type === 'RollingUpdate' &&
    (strategy.maxSurge?.value ?? 0) >= 1 &&
    (strategy.maxUnavailable?.value ?? 0) === 0
  );
}

type Field = 'maxSurge' | 'maxUnavailable';

function valueSource(
  deployment: Deployment,
  field: Field,
  live: number | string | undefined,
  defaultValue: string,
): ValueSource {
  if (live === undefined) return 'default';
  if (live !== defaultValue) return 'explicit';
  const fromLastApplied = lastAppliedSets(deployment, field);
  if (fromLastApplied !== undefined) return fromLastApplied ? 'explicit' : 'default';
  return managedFieldsSource(deployment, field) ?? 'unknown';
}

const lastAppliedSchema = z.object({
  spec: z
    .object({
      strategy: z
        .object({ rollingUpdate: z.record(z.string(), z.unknown()).nullish() })
        .passthrough()
        .nullish(),
    })
    .passthrough()
    .nullish(),
});

/** true/false when the annotation is readable, undefined when absent or unparsable. */
function lastAppliedSets(deployment: Deployment, field: Field): boolean | undefined {
  const text = deployment.metadata.annotations?.[LAST_APPLIED];
  if (!text) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return undefined;
  }
  const parsed = lastAppliedSchema.safeParse(json);
  if (!parsed.success) return undefined;
  const rolling = parsed.data.spec?.strategy?.rollingUpdate;
  return rolling != null && Object.hasOwn(rolling, field) && rolling[field] !== null;
}

const managedFieldsSchema = z.array(
  z.object({
    manager: z.string().optional(),
    operation: z.string().optional(),
    fieldsV1: z.record(z.string(), z.unknown()).optional(),
  }),
);

/**
 * From managedFields (rule 4 of the module comment): 'explicit' when an Apply entry
 * owns spec.strategy.rollingUpdate.<field>, 'default' when no entry does, undefined
 * when only Update entries do (they own defaulted fields too) or without managedFields.
 */
function managedFieldsSource(deployment: Deployment, field: Field): ValueSource | undefined {
  const raw: unknown = (deployment.metadata as { managedFields?: unknown }).managedFields;
  if (raw === undefined) return undefined;
  const parsed = managedFieldsSchema.safeParse(raw);
  if (!parsed.success || parsed.data.length === 0) return undefined;
  const path = ['f:spec', 'f:strategy', 'f:rollingUpdate', `f:${field}`];
  const owners = parsed.data.filter((entry) => {
    let node: unknown = entry.fieldsV1;
    for (const key of path) {
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return false;
      node = (node as Record<string, unknown>)[key];
    }
    return true;
  });
  if (owners.length === 0) return 'default';
  return owners.some((entry) => entry.operation === 'Apply') ? 'explicit' : undefined;
}
