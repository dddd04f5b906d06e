/**
 * What pod admission does to a manifest's new pods before any controller or scheduler
 * sees them, in kube-apiserver's order:
 * - API defaulting: a container's limit stands for its missing request (SetDefaults_Pod);
 * - LimitRanger (plugin/pkg/admission/limitranger): each Container item's
 *   `defaultRequest` and `default` fill what a container still lacks (the item itself
 *   defaulted as the API stores it: default from max, defaultRequest from default, then
 *   from min), then the API server's validation refuses a pod whose defaults put a
 *   limit below its request (invalidByDefaults), then `min`, `max` and
 *   `maxLimitRequestRatio` per Container and per Pod refuse a pod outside them;
 * - ResourceQuota (plugin/pkg/admission/resourcequota, pkg/quota/v1/evaluator/core/pods.go
 *   Constraints): a quota whose hard limits name cpu or memory (`cpu`, `requests.cpu`,
 *   `limits.cpu`, the same for memory) refuses a pod any of whose containers (init ones
 *   too) does not set it: `failed quota: <quota>: must specify requests.cpu for: app`.
 * - Priority (plugin/pkg/admission/priority): the class's value and preemption policy
 *   (scheduling/priority-class.ts); a class the cluster does not have refuses the pod.
 * - RuntimeClass (plugin/pkg/admission/runtimeclass): the class's pod overhead, added to
 *   what each pod asks for (scheduling/runtime-class.ts); not known where no pod of the
 *   class was read.
 * Every new pod is refused alike, so the rollout can never finish. Quotas with scopes
 * are left out (which pods they match is not judged here: no claim). Where a quota needs
 * what a container lacks and the LimitRanges were not read, whether a default fills it
 * is not known. Admitted, the template carries the defaults, so the model charges and
 * places what the pods will ask for. Pure.
 */
import { quotaTakesIn } from '../diagnosis/base/quota-scopes.js';
import type { Container, PodSpec, Quantity } from '../diagnosis/k8s.js';
import type { LimitRange } from '../diagnosis/k8s-policy.js';
import type { WorkloadObject, WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { schedulerAmount } from '../diagnosis/base/quantity.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import { withObject } from './candidate.js';
import { admitPriority } from '../diagnosis/scheduling/priority-class.js';
import { admitRuntimeClass } from '../diagnosis/scheduling/runtime-class.js';

export type Admission =
  | { result: 'admitted'; snapshot: WorkloadSnapshot }
  | {
      result: 'refused';
      by: { kind: 'LimitRange' | 'ResourceQuota' | 'PriorityClass'; name: string };
      message: string;
    }
  /** `about`: what was not read, the PriorityClasses or a RuntimeClass's overhead (else the LimitRanges a quota needs). */
  | { result: 'unknown'; why: string; about?: 'priority' | 'runtime-class' | 'references' | 'holds' };

type Amounts = Record<string, Quantity>;
type LimitItem = NonNullable<NonNullable<LimitRange['spec']>['limits']>[number];

/** Quota entries the pod evaluator's Constraints require every container to set. */
const VALIDATION = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];

export function admitTemplate(snapshot: WorkloadSnapshot): Admission {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const template = kind.podTemplate(object);
  const namespace = snapshot.target.namespace;
  const classes = { read: snapshot.priorityClasses, created: snapshot.createdPriorityClasses ?? [] };
  const priority = admitPriority(template.spec, classes, [...snapshot.pods, ...snapshot.otherPods]);
  if (priority.result === 'refused') {
    const refused = snapshot.refusedPriorityClasses?.find((c) => c.name === priority.className);
    return {
      result: 'refused',
      by: { kind: 'PriorityClass', name: priority.className },
      message: refused
        ? `${priority.message} (the change's PriorityClass ${refused.name} is refused: ${refused.why})`
        : priority.message,
    };
  }
  if (priority.result === 'unknown') return { result: 'unknown', why: priority.why, about: 'priority' };
  const runtime = admitRuntimeClass(priority.spec, [...snapshot.pods, ...snapshot.otherPods]);
  if (runtime.result === 'unknown') return { result: 'unknown', why: runtime.why, about: 'runtime-class' };
  // Those read (undefined: not read) and those the checked change applies, in name order.
  const created = snapshot.createdLimitRanges ?? [];
  const createdNames = new Set(created.map((r) => r.metadata.name));
  const ranges = snapshot.limitRanges
    ?.filter((r) => (r.metadata.namespace ?? namespace) === namespace && !createdNames.has(r.metadata.name))
    .concat(created)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  const applying = ranges ?? created;
  const defaulted = withLimitDefaults(runtime.spec, applying);
  const invalid = invalidByDefaults(runtime.spec, defaulted, applying);
  if (invalid) return invalid;
  for (const range of applying) {
    const errors = validatePod(defaulted, range);
    const first = errors[0];
    if (first)
      return {
        result: 'refused',
        by: { kind: 'LimitRange', name: range.metadata.name ?? '' },
        message: errors.length === 1 ? first : `[${errors.join(', ')}]`,
      };
  }
  // The quotas whose scopes take the pod in, as LimitRanger left it (quota-scopes.ts).
  const quotas = (snapshot.resourceQuotas ?? [])
    .filter((q) => (q.metadata.namespace ?? namespace) === namespace && quotaTakesIn(q, defaulted) !== false)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
  for (const quota of quotas) {
    const required = Object.keys(quota.status?.hard ?? quota.spec?.hard ?? {}).filter((r) =>
      VALIDATION.includes(r),
    );
    const missing = mustSpecify(defaulted, required);
    if (!missing) continue;
    const name = quota.metadata.name ?? '';
    if (quotaTakesIn(quota, defaulted) === 'unknown')
      return {
        result: 'unknown',
        why: `ResourceQuota ${name} requires ${missing.replace(/^must specify /, '')} of the pods its scopes take in, and whether they take in the new pods is not known (a scope this version does not read)`,
      };
    if (!ranges)
      return {
        result: 'unknown',
        why: `ResourceQuota ${name} requires ${missing.replace(/^must specify /, '')}, and the namespace's LimitRanges, whose defaults may set it, were not read`,
      };
    return {
      result: 'refused',
      by: { kind: 'ResourceQuota', name },
      message: `failed quota: ${name}: ${missing}`,
    };
  }
  if (defaulted === template.spec || !('template' in object.spec)) return { result: 'admitted', snapshot };
  const patched = {
    ...object,
    spec: { ...object.spec, template: { ...template, spec: defaulted } },
  } as WorkloadObject;
  return { result: 'admitted', snapshot: withObject(snapshot, patched) };
}

/** A Container item as the API stores it (SetDefaults_LimitRangeItem). */
function containerDefaults(item: LimitItem): { limits: Amounts; requests: Amounts } {
  const limits: Amounts = { ...item.max, ...item.default };
  const requests: Amounts = { ...item.min, ...limits, ...item.defaultRequest };
  return { limits, requests };
}

/** The spec as LimitRanger leaves it: each container's missing requests and limits from the Container items. */
function withLimitDefaults(spec: PodSpec, ranges: readonly LimitRange[]): PodSpec {
  const limits: Amounts = {};
  const requests: Amounts = {};
  for (const range of ranges)
    for (const item of range.spec?.limits ?? []) {
      if (item.type !== 'Container') continue;
      const d = containerDefaults(item);
      Object.assign(limits, d.limits);
      Object.assign(requests, d.requests);
    }
  if (Object.keys(limits).length === 0 && Object.keys(requests).length === 0) return spec;
  const fill = (c: Container): Container => {
    const own = {
      limits: { ...c.resources?.limits },
      requests: { ...c.resources?.limits, ...c.resources?.requests },
    };
    for (const [k, v] of Object.entries(limits)) own.limits[k] ??= v;
    for (const [k, v] of Object.entries(requests)) own.requests[k] ??= v;
    return { ...c, resources: { ...c.resources, limits: own.limits, requests: own.requests } };
  };
  return {
    ...spec,
    containers: spec.containers.map(fill),
    ...(spec.initContainers ? { initContainers: spec.initContainers.map(fill) } : {}),
  };
}

/**
 * The API server validates the pod as LimitRanger left it, before any LimitRange bound
 * (ValidateResourceRequirements): a request above its limit is invalid, and for a
 * resource that cannot be overcommitted (extended resources, hugepages) any request but
 * the limit. A default limit below the request a container sets (a LimitRange `default`
 * of 500m beside `requests.cpu: 1`) makes every new pod invalid though the template itself
 * is valid; the refusal names the LimitRange whose default did it. A template already
 * invalid is refused at the apply, not here.
 */
function invalidByDefaults(
  spec: PodSpec,
  defaulted: PodSpec,
  ranges: readonly LimitRange[],
): Extract<Admission, { result: 'refused' }> | undefined {
  if (defaulted === spec) return undefined;
  const before = new Set(requestLimitErrors(spec).map((e) => e.message));
  const caused = requestLimitErrors(defaulted).filter((e) => !before.has(e.message));
  const first = caused[0];
  if (!first) return undefined;
  const own = [...spec.containers, ...(spec.initContainers ?? [])].find((c) => c.name === first.container);
  const field = own?.resources?.limits?.[first.resource] === undefined ? 'limits' : 'requests';
  const source = [...ranges]
    .reverse()
    .find((r) =>
      (r.spec?.limits ?? []).some(
        (item) => item.type === 'Container' && containerDefaults(item)[field][first.resource] !== undefined,
      ),
    );
  const messages = caused.map((e) => e.message);
  return {
    result: 'refused',
    by: { kind: 'LimitRange', name: source?.metadata.name ?? '' },
    message: `Pod is invalid: ${messages.length === 1 ? messages[0] : `[${messages.join(', ')}]`}`,
  };
}

/** Overcommit is allowed for native resources but hugepages (v1helper.IsOvercommitAllowed). */
function overcommitAllowed(resource: string): boolean {
  const native = !resource.includes('/') || resource.includes('kubernetes.io/');
  return native && !resource.startsWith('hugepages-');
}

/** Each container's request its limit refuses, worded as pod validation words it. */
function requestLimitErrors(spec: PodSpec): { container: string; resource: string; message: string }[] {
  const errors: { container: string; resource: string; message: string }[] = [];
  const lists: [string, Container[]][] = [
    ['containers', spec.containers],
    ['initContainers', spec.initContainers ?? []],
  ];
  for (const [path, containers] of lists)
    containers.forEach((c, i) => {
      const limits = c.resources?.limits ?? {};
      for (const [r, q] of Object.entries(requestsOf(c)).sort(([a], [b]) => a.localeCompare(b))) {
        const limit = limits[r];
        if (limit === undefined) continue;
        const [request, most] = [amount(r, q), amount(r, limit)];
        const rule =
          !overcommitAllowed(r) && request !== most
            ? 'equal to'
            : request > most
              ? 'less than or equal to'
              : '';
        if (rule)
          errors.push({
            container: c.name,
            resource: r,
            message: `spec.${path}[${i}].resources.requests: Invalid value: "${String(q)}": must be ${rule} ${r} limit of ${String(limit)}`,
          });
      }
    });
  return errors;
}

/** A container's requests as the API defaults them: its limit for a request it lacks. */
function requestsOf(c: Container): Amounts {
  return { ...c.resources?.limits, ...c.resources?.requests };
}

/** The evaluator's Constraints: "must specify …", or undefined when every container sets what the quota needs. */
function mustSpecify(spec: PodSpec, required: readonly string[]): string | undefined {
  if (required.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
    const usage = new Set<string>();
    for (const r of Object.keys(requestsOf(c))) usage.add(r).add(`requests.${r}`);
    for (const r of Object.keys(c.resources?.limits ?? {})) usage.add(`limits.${r}`);
    for (const r of required) {
      if (usage.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(c.name);
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}

function amount(resource: string, q: Quantity): number {
  try {
    return schedulerAmount(resource, q);
  } catch {
    return Number.NaN;
  }
}

/** PodValidateLimitFunc for one LimitRange, worded as the plugin words its errors. */
function validatePod(spec: PodSpec, range: LimitRange): string[] {
  const errors: string[] = [];
  for (const item of range.spec?.limits ?? []) {
    if (item.type === 'Container')
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])])
        errors.push(...bounds(item, 'Container', requestsOf(c), c.resources?.limits ?? {}));
    if (item.type === 'Pod')
      errors.push(...bounds(item, 'Pod', podTotal(spec, 'requests'), podTotal(spec, 'limits')));
  }
  return errors;
}

/** Per Pod: containers summed where every one sets the resource, each init container a floor. */
function podTotal(spec: PodSpec, field: 'requests' | 'limits'): Record<string, number> {
  const of = (c: Container): Amounts => (field === 'requests' ? requestsOf(c) : (c.resources?.limits ?? {}));
  const lists = spec.containers.map(of);
  const total: Record<string, number> = {};
  for (const k of new Set(lists.flatMap((l) => Object.keys(l)))) {
    if (!lists.every((l) => l[k] !== undefined)) continue;
    total[k] = lists.reduce((sum, l) => sum + amount(k, l[k] ?? 0), 0);
  }
  for (const c of spec.initContainers ?? [])
    for (const [k, v] of Object.entries(of(c))) total[k] = Math.max(total[k] ?? 0, amount(k, v));
  return total;
}

function bounds(
  item: LimitItem,
  kind: 'Container' | 'Pod',
  requests: Amounts | Record<string, number>,
  limits: Amounts | Record<string, number>,
): string[] {
  const errors: string[] = [];
  const get = (list: Amounts | Record<string, number>, r: string): number | undefined => {
    const v = list[r];
    return v === undefined ? undefined : typeof v === 'number' ? v : amount(r, v);
  };
  const show = (list: Amounts | Record<string, number>, r: string): string => String(list[r]);
  for (const [r, q] of Object.entries(item.min ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const min = amount(r, q);
    const request = get(requests, r);
    const limit = get(limits, r);
    if (request === undefined)
      errors.push(`minimum ${r} usage per ${kind} is ${q}.  No request is specified.`);
    else if (request < min)
      errors.push(`minimum ${r} usage per ${kind} is ${q}, but request is ${show(requests, r)}.`);
    else if (limit !== undefined && limit < min)
      errors.push(`minimum ${r} usage per ${kind} is ${q}, but limit is ${show(limits, r)}.`);
  }
  for (const [r, q] of Object.entries(item.max ?? {}).sort(([a], [b]) => a.localeCompare(b))) {
    const max = amount(r, q);
    const request = get(requests, r);
    const limit = get(limits, r);
    if (limit === undefined) errors.push(`maximum ${r} usage per ${kind} is ${q}.  No limit is specified.`);
    else if (limit > max)
      errors.push(`maximum ${r} usage per ${kind} is ${q}, but limit is ${show(limits, r)}.`);
    else if (request !== undefined && request > max)
      errors.push(`maximum ${r} usage per ${kind} is ${q}, but request is ${show(requests, r)}.`);
  }
  for (const [r, q] of Object.entries(item.maxLimitRequestRatio ?? {}).sort(([a], [b]) =>
    a.localeCompare(b),
  )) {
    const ratio = Number(q);
    const request = get(requests, r);
    const limit = get(limits, r);
    if (!request)
      errors.push(
        `${r} max limit to request ratio per ${kind} is ${q}, but no request is specified or request is 0.`,
      );
    else if (!limit)
      errors.push(
        `${r} max limit to request ratio per ${kind} is ${q}, but no limit is specified or limit is 0.`,
      );
    else if (Number.isFinite(ratio) && limit / request > ratio)
      errors.push(
        `${r} max limit to request ratio per ${kind} is ${q}, but provided ratio is ${(limit / request).toFixed(6)}.`,
      );
  }
  return errors;
}
