/**
 * Whether a ResourceQuota's scopes take a pod in, as kube-apiserver's pod evaluator
 * matches them (pkg/quota/v1/evaluator/core/pods.go, podMatchesScopeFunc): every scope
 * of `spec.scopes` and every expression of `spec.scopeSelector` must match.
 * - Terminating / NotTerminating: the pod sets `activeDeadlineSeconds` (>= 0), or not;
 * - BestEffort / NotBestEffort: no container (init containers included) sets a request
 *   or a limit, or some does (the pod's QoS class);
 * - PriorityClass: `priorityClassName` against the expression (In, NotIn, Exists,
 *   DoesNotExist);
 * - CrossNamespacePodAffinity: a pod (anti-)affinity term names namespaces or a
 *   namespace selector.
 * A scope this version does not know: 'unknown'.
 */
import type { PodAffinityTerm, PodSpec, Quantity } from '../k8s.js';
import { schedulerAmount } from './quantity.js';
import type { ResourceQuota } from '../k8s-policy.js';

type Expression = NonNullable<NonNullable<ResourceQuota['spec']>['scopeSelector']>['matchExpressions'];

/** The quota names scopes: it charges only the pods they take in. */
export function isScoped(quota: ResourceQuota): boolean {
  return (quota.spec?.scopes ?? []).length > 0 || quota.spec?.scopeSelector !== undefined;
}

/** The quota named `name` in `namespace` as read, where it names scopes; undefined otherwise. */
export function scopedQuota(
  quotas: readonly ResourceQuota[] | undefined,
  name: string,
  namespace: string,
): ResourceQuota | undefined {
  const read = quotas?.find(
    (q) => q.metadata.name === name && (q.metadata.namespace ?? namespace) === namespace,
  );
  return read && isScoped(read) ? read : undefined;
}

export function quotaTakesIn(quota: ResourceQuota, spec: PodSpec): boolean | 'unknown' {
  const scopes = (quota.spec?.scopes ?? []).map((scope) => ({ scope, operator: 'Exists', values: [] }));
  const expressions = (quota.spec?.scopeSelector?.matchExpressions ?? ([] as NonNullable<Expression>)).map(
    (e) => ({
      scope: e.scopeName ?? '',
      operator: e.operator ?? '',
      values: e.values ?? [],
    }),
  );
  let unknown = false;
  for (const { scope, operator, values } of [...scopes, ...expressions]) {
    const matched = matches(scope, operator, values, spec);
    if (matched === false) return false;
    if (matched === 'unknown') unknown = true;
  }
  return unknown ? 'unknown' : true;
}

function matches(
  scope: string,
  operator: string,
  values: readonly string[],
  spec: PodSpec,
): boolean | 'unknown' {
  if (scope === 'PriorityClass') return classMatches(operator, values, spec.priorityClassName ?? '');
  const has = scopeHolds(scope, spec);
  if (has === 'unknown') return 'unknown';
  // A scope named in `scopes`, or by a selector's Exists; DoesNotExist is the opposite.
  if (operator === 'Exists') return has;
  if (operator === 'DoesNotExist') return !has;
  return 'unknown';
}

function scopeHolds(scope: string, spec: PodSpec): boolean | 'unknown' {
  switch (scope) {
    case 'Terminating':
      return spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds >= 0;
    case 'NotTerminating':
      return spec.activeDeadlineSeconds === undefined || spec.activeDeadlineSeconds < 0;
    case 'BestEffort':
      return bestEffort(spec);
    case 'NotBestEffort':
      return !bestEffort(spec);
    case 'CrossNamespacePodAffinity':
      return crossNamespace(spec);
    default:
      return 'unknown';
  }
}

function classMatches(operator: string, values: readonly string[], name: string): boolean | 'unknown' {
  switch (operator) {
    case 'In':
      return values.includes(name);
    case 'NotIn':
      return !values.includes(name);
    case 'Exists':
      return name !== '';
    case 'DoesNotExist':
      return name === '';
    default:
      return 'unknown';
  }
}

/**
 * The pod's QoS class is BestEffort (qos.go ComputePodQOS): no container, init containers
 * included, requests or limits cpu or memory above zero. Other resources (a GPU) do not
 * count.
 */
function bestEffort(spec: PodSpec): boolean {
  const sets = (amounts: Record<string, Quantity> | undefined): boolean =>
    (['cpu', 'memory'] as const).some((r) => {
      const value = amounts?.[r];
      return value !== undefined && schedulerAmount(r, value) > 0;
    });
  return [...spec.containers, ...(spec.initContainers ?? [])].every(
    (c) => !sets(c.resources?.requests) && !sets(c.resources?.limits),
  );
}

function crossNamespace(spec: PodSpec): boolean {
  const affinity = spec.affinity;
  const preferred = (terms: readonly unknown[] | undefined): PodAffinityTerm[] =>
    (terms ?? []).flatMap((t) => {
      const term = (t as { podAffinityTerm?: PodAffinityTerm }).podAffinityTerm;
      return term ? [term] : [];
    });
  const terms = [
    ...(affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...preferred(affinity?.podAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
    ...(affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []),
    ...preferred(affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution),
  ];
  return terms.some((t) => (t.namespaces ?? []).length > 0 || t.namespaceSelector !== undefined);
}
