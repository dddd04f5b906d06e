/**
 * The LimitRanger admission plugin for pods (kubernetes
 * plugin/pkg/admission/limitranger/admission.go):
 * - mutating: a container without a request or limit for a resource gets the
 *   LimitRange's `defaultRequest` / `default` (type Container), and the pod the
 *   annotation `kubernetes.io/limit-ranger: LimitRanger plugin set: cpu, memory request
 *   for container app; cpu limit for container app` (mergePodResourceRequirements);
 * - validating: `min`, `max` and `maxLimitRequestRatio` per Container (init containers
 *   too) and per Pod (containers summed, each init container a floor), worded as
 *   minConstraint, maxConstraint and limitRequestRatioConstraint word them
 *   (`maximum cpu usage per Container is 2, but limit is 4.`); several errors of one
 *   LimitRange as `[a, b]` (utilerrors.NewAggregate), the first failing LimitRange
 *   refusing the pod as a 403 (`pods "x" is forbidden: …`).
 */
import { forbiddenBy } from './forbidden.js';
import { compareQuantities, formatQuantity, type Quantity } from './quantity.js';
import { resourceList, type ResourceList } from './quota-usage.js';
import type { ResourceType } from '../resources.js';
import type { SimObject, Store } from '../store.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

export const LIMIT_RANGER_ANNOTATION = 'kubernetes.io/limit-ranger';

interface LimitItem {
  type?: string;
  min?: unknown;
  max?: unknown;
  default?: unknown;
  defaultRequest?: unknown;
  maxLimitRequestRatio?: unknown;
}

function itemsOf(lr: SimObject): LimitItem[] {
  const limits = obj(lr['spec'])['limits'];
  return Array.isArray(limits) ? (limits as LimitItem[]) : [];
}

interface ContainerShape {
  name?: string;
  resources?: { requests?: Json; limits?: Json };
}

function containers(pod: SimObject, which: 'containers' | 'initContainers'): ContainerShape[] {
  const list = obj(pod['spec'])[which];
  return Array.isArray(list) ? (list as ContainerShape[]) : [];
}

/** defaultContainerResourceRequirements + mergePodResourceRequirements, in place. */
function applyDefaults(pod: SimObject, lr: SimObject): void {
  const requests: Json = {};
  const limits: Json = {};
  for (const item of itemsOf(lr)) {
    if (item.type !== 'Container') continue;
    Object.assign(requests, obj(item.defaultRequest));
    Object.assign(limits, obj(item.default));
  }
  const notes: string[] = [];
  for (const c of containers(pod, 'containers')) {
    const resources = (c.resources ??= {});
    const setLimits: string[] = [];
    const setRequests: string[] = [];
    resources.limits ??= {};
    resources.requests ??= {};
    for (const [k, v] of Object.entries(limits)) {
      if (resources.limits[k] === undefined) {
        resources.limits[k] = v;
        setLimits.push(k);
      }
    }
    for (const [k, v] of Object.entries(requests)) {
      if (resources.requests[k] === undefined) {
        resources.requests[k] = v;
        setRequests.push(k);
      }
    }
    if (setRequests.length > 0)
      notes.push(`${setRequests.sort().join(', ')} request for container ${c.name ?? ''}`);
    if (setLimits.length > 0)
      notes.push(`${setLimits.sort().join(', ')} limit for container ${c.name ?? ''}`);
  }
  if (notes.length > 0) {
    pod.metadata.annotations = {
      ...(pod.metadata.annotations ?? {}),
      [LIMIT_RANGER_ANNOTATION]: `LimitRanger plugin set: ${notes.join('; ')}`,
    };
  }
}

function minConstraint(
  kind: string,
  r: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const request = req.get(r);
  const limit = lim.get(r);
  const e = formatQuantity(enforced);
  if (!request) return `minimum ${r} usage per ${kind} is ${e}.  No request is specified.`;
  if (compareQuantities(request, enforced) < 0)
    return `minimum ${r} usage per ${kind} is ${e}, but request is ${formatQuantity(request)}.`;
  if (limit && compareQuantities(limit, enforced) < 0)
    return `minimum ${r} usage per ${kind} is ${e}, but limit is ${formatQuantity(limit)}.`;
  return undefined;
}

function maxConstraint(
  kind: string,
  r: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const request = req.get(r);
  const limit = lim.get(r);
  const e = formatQuantity(enforced);
  if (!limit) return `maximum ${r} usage per ${kind} is ${e}.  No limit is specified.`;
  if (compareQuantities(limit, enforced) > 0)
    return `maximum ${r} usage per ${kind} is ${e}, but limit is ${formatQuantity(limit)}.`;
  if (request && compareQuantities(request, enforced) > 0)
    return `maximum ${r} usage per ${kind} is ${e}, but request is ${formatQuantity(request)}.`;
  return undefined;
}

function ratioConstraint(
  kind: string,
  r: string,
  enforced: Quantity,
  req: ResourceList,
  lim: ResourceList,
): string | undefined {
  const request = req.get(r);
  const limit = lim.get(r);
  const e = formatQuantity(enforced);
  if (!request || request.nano === 0n)
    return `${r} max limit to request ratio per ${kind} is ${e}, but no request is specified or request is 0.`;
  if (!limit || limit.nano === 0n)
    return `${r} max limit to request ratio per ${kind} is ${e}, but no limit is specified or limit is 0.`;
  const ratio = Number(limit.nano) / Number(request.nano);
  if (ratio * 1e9 > Number(enforced.nano))
    return `${r} max limit to request ratio per ${kind} is ${e}, but provided ratio is ${ratio.toFixed(6)}.`;
  return undefined;
}

function check(item: LimitItem, kind: string, req: ResourceList, lim: ResourceList): string[] {
  const errors: string[] = [];
  const each = (list: unknown, fn: typeof minConstraint): void => {
    const bounds = resourceList(list);
    for (const r of [...bounds.keys()].sort()) {
      const error = fn(kind, r, bounds.get(r) as Quantity, req, lim);
      if (error) errors.push(error);
    }
  };
  each(item.min, minConstraint);
  each(item.max, maxConstraint);
  each(item.maxLimitRequestRatio, ratioConstraint);
  return errors;
}

/** sum(): keys every container has, added up in DecimalSI (cpu in milli units) as the plugin does. */
function podSum(lists: ResourceList[]): ResourceList {
  const out: ResourceList = new Map();
  const keys = new Set(lists.flatMap((l) => [...l.keys()]));
  for (const k of keys) {
    if (!lists.every((l) => l.has(k))) continue;
    const nano = lists.reduce((n, l) => n + (l.get(k)?.nano ?? 0n), 0n);
    out.set(k, { nano, format: 'DecimalSI' });
  }
  return out;
}

function podTotals(pod: SimObject, field: 'requests' | 'limits'): ResourceList {
  const total = podSum(containers(pod, 'containers').map((c) => resourceList(c.resources?.[field])));
  for (const c of containers(pod, 'initContainers')) {
    for (const [k, v] of resourceList(c.resources?.[field])) {
      const current = total.get(k);
      if (!current || compareQuantities(v, current) > 0) total.set(k, v);
    }
  }
  return total;
}

/** PodValidateLimitFunc for one LimitRange: the errors, in the plugin's order. */
function validatePod(pod: SimObject, lr: SimObject): string[] {
  const errors: string[] = [];
  for (const item of itemsOf(lr)) {
    if (item.type === 'Container') {
      for (const c of [...containers(pod, 'containers'), ...containers(pod, 'initContainers')]) {
        errors.push(
          ...check(item, 'Container', resourceList(c.resources?.requests), resourceList(c.resources?.limits)),
        );
      }
    }
    if (item.type === 'Pod')
      errors.push(...check(item, 'Pod', podTotals(pod, 'requests'), podTotals(pod, 'limits')));
  }
  return errors;
}

/** Admit (defaults) then Validate a pod against the namespace's LimitRanges; throws the 403. */
function rangesFor(store: Store, pod: SimObject): SimObject[] {
  return store
    .list('LimitRange', pod.metadata.namespace)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
}

/** LimitRanger's mutating half: each LimitRange's defaults, in name order (the first to set one wins). */
export function defaultLimitRanges(store: Store, rt: ResourceType, pod: SimObject): void {
  if (rt.kind !== 'Pod' || rt.group !== '') return;
  for (const lr of rangesFor(store, pod)) applyDefaults(pod, lr);
}

/** LimitRanger's validating half, after the pod's own validation: min, max and ratio. */
export function boundLimitRanges(store: Store, rt: ResourceType, pod: SimObject): void {
  if (rt.kind !== 'Pod' || rt.group !== '') return;
  for (const lr of rangesFor(store, pod)) {
    const errors = validatePod(pod, lr);
    if (errors.length > 0)
      throw forbiddenBy(rt, pod, errors.length === 1 ? (errors[0] ?? '') : `[${errors.join(', ')}]`);
  }
}
