/**
 * A Deployment's strategy as its controller applies it (base/fenceposts.ts), and where
 * each value came from, decided in this order:
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
import type { Deployment } from '../../k8s-workloads.js';
import type { ResolvedStrategy, ValueSource } from '../../resolved-strategy.js';
import { DEFAULT_MAX_SURGE, DEFAULT_MAX_UNAVAILABLE, resolveFenceposts } from '../../base/fenceposts.js';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

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
