/**
 * What an object charges against a ResourceQuota, as kube-apiserver's quota evaluators
 * measure it (kubernetes pkg/quota/v1/evaluator/core/pods.go and the generic object
 * counter of k8s.io/apiserver/pkg/quota/v1/generic):
 * - a pod: `count/pods` always; while not terminal also `pods`, and from the pod's
 *   requests and limits (containers summed, each init container a floor: PodRequests,
 *   PodLimits) `cpu`/`requests.cpu`, `limits.cpu`, the same for memory and
 *   ephemeral-storage, `hugepages-*` and `requests.hugepages-*`, and
 *   `requests.<extended resource>`;
 * - any object: `count/<resource>[.<group>]`, and the legacy names `services`,
 *   `configmaps`, `secrets`, `persistentvolumeclaims`, `replicationcontrollers`,
 *   `resourcequotas`; a claim also `requests.storage`.
 * Quota scopes (Terminating, NotTerminating, BestEffort, NotBestEffort, PriorityClass)
 * select the pods a quota applies to (podMatchesScopeFunc).
 */
import type { ResourceType } from '../resources.js';
import { simNow } from '../clock.js';
import type { SimObject } from '../store.js';
import { addQuantities, countQuantity, parseQuantity, QuantityError, type Quantity } from './quantity.js';

export type ResourceList = Map<string, Quantity>;

type Json = Record<string, unknown>;

const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** Parses a ResourceList; a value that is no quantity is left out (the API server refuses such objects). */
export function resourceList(value: unknown): ResourceList {
  const out: ResourceList = new Map();
  for (const [k, v] of Object.entries(obj(value))) {
    if (typeof v !== 'string' && typeof v !== 'number') continue;
    try {
      out.set(k, parseQuantity(v));
    } catch (err) {
      if (!(err instanceof QuantityError)) throw err;
    }
  }
  return out;
}

/** quota.Add: every key of both, `a`'s format where both have it. */
export function addLists(a: ResourceList, b: ResourceList): ResourceList {
  const out: ResourceList = new Map(a);
  for (const [k, v] of b) {
    const existing = out.get(k);
    out.set(k, existing ? addQuantities(existing, v) : v);
  }
  return out;
}

/** quota.Mask: only the keys named. */
export function maskList(list: ResourceList, names: Iterable<string>): ResourceList {
  const out: ResourceList = new Map();
  for (const n of names) {
    const v = list.get(n);
    if (v) out.set(n, v);
  }
  return out;
}

/** The object-count resource name: `count/pods`, `count/deployments.apps` (generic.ObjectCountQuotaResourceNameFor). */
export function countName(rt: ResourceType): string {
  return rt.group === '' ? `count/${rt.plural}` : `count/${rt.plural}.${rt.group}`;
}

const LEGACY_COUNTS = new Set([
  'services',
  'configmaps',
  'secrets',
  'persistentvolumeclaims',
  'replicationcontrollers',
  'resourcequotas',
]);

interface Container {
  name?: string;
  resources?: { requests?: unknown; limits?: unknown };
}

function containersOf(pod: SimObject, which: 'containers' | 'initContainers'): Container[] {
  const list = obj(pod['spec'])[which];
  return Array.isArray(list) ? (list as Container[]) : [];
}

/** resourcehelper.PodRequests / PodLimits: containers summed, each init container a floor. */
function podTotals(pod: SimObject, field: 'requests' | 'limits'): ResourceList {
  let total: ResourceList = new Map();
  for (const c of containersOf(pod, 'containers'))
    total = addLists(total, resourceList(c.resources?.[field]));
  for (const c of containersOf(pod, 'initContainers')) {
    for (const [k, v] of resourceList(c.resources?.[field])) {
      const current = total.get(k);
      if (!current || v.nano > current.nano) total.set(k, v);
    }
  }
  const overhead = resourceList(obj(pod['spec'])['overhead']);
  return overhead.size > 0 ? addLists(total, overhead) : total;
}

function isExtendedResource(name: string): boolean {
  return name.includes('/') && !name.startsWith('kubernetes.io/') && !name.startsWith('requests.');
}

/** podComputeUsageHelper: what requests and limits charge. */
export function computeUsage(requests: ResourceList, limits: ResourceList): ResourceList {
  const out: ResourceList = new Map([['pods', countQuantity(1)]]);
  for (const r of ['cpu', 'memory', 'ephemeral-storage']) {
    const request = requests.get(r);
    if (request) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    const limit = limits.get(r);
    if (limit) out.set(`limits.${r}`, limit);
  }
  for (const [r, request] of requests) {
    if (r.startsWith('hugepages-')) {
      out.set(r, request);
      out.set(`requests.${r}`, request);
    }
    if (isExtendedResource(r)) out.set(`requests.${r}`, request);
  }
  return out;
}

function terminal(pod: SimObject): boolean {
  const phase = obj(pod['status'])['phase'];
  return phase === 'Succeeded' || phase === 'Failed';
}

/**
 * QuotaV1Pod (pkg/quota/v1/evaluator/core/pods.go): a terminal pod is not charged, nor
 * one whose deletion deadline (deletionTimestamp, itself the request plus the grace
 * period) lies more than deletionGracePeriodSeconds in the past, so a pod stuck
 * terminating on a lost node stops holding quota; one that is merely terminating still does.
 */
export function chargedPod(pod: SimObject, now = simNow()): boolean {
  if (terminal(pod)) return false;
  const meta = pod.metadata as { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
  if (meta.deletionTimestamp === undefined || meta.deletionGracePeriodSeconds === undefined) return true;
  return now <= Date.parse(meta.deletionTimestamp) + meta.deletionGracePeriodSeconds * 1000;
}

/** PodUsageFunc: `count/pods`, plus the compute usage of a pod QuotaV1Pod charges. */
export function podUsage(pod: SimObject): ResourceList {
  const base: ResourceList = new Map([['count/pods', countQuantity(1)]]);
  if (!chargedPod(pod)) return base;
  return addLists(base, computeUsage(podTotals(pod, 'requests'), podTotals(pod, 'limits')));
}

/** What any object charges: its count (and for pods and claims, their resources). */
export function objectUsage(rt: ResourceType, o: SimObject): ResourceList {
  if (rt.kind === 'Pod' && rt.group === '') return podUsage(o);
  const out: ResourceList = new Map([[countName(rt), countQuantity(1)]]);
  if (rt.group === '' && LEGACY_COUNTS.has(rt.plural)) out.set(rt.plural, countQuantity(1));
  if (rt.kind === 'PersistentVolumeClaim') {
    const storage = resourceList(obj(obj(obj(o['spec'])['resources'])['requests'])).get('storage');
    if (storage) out.set('requests.storage', storage);
  }
  return out;
}

/** The resource names the pod evaluator handles among `hard` (MatchingResources). */
export function matchingResources(rt: ResourceType, hard: Iterable<string>): string[] {
  const names = [...hard];
  if (rt.kind !== 'Pod' || rt.group !== '') {
    const own = [countName(rt), ...(rt.group === '' && LEGACY_COUNTS.has(rt.plural) ? [rt.plural] : [])];
    if (rt.kind === 'PersistentVolumeClaim') own.push('requests.storage');
    return names.filter((n) => own.includes(n));
  }
  const pod = [
    'count/pods',
    'cpu',
    'memory',
    'ephemeral-storage',
    'requests.cpu',
    'requests.memory',
    'requests.ephemeral-storage',
    'limits.cpu',
    'limits.memory',
    'limits.ephemeral-storage',
    'pods',
  ];
  return names.filter(
    (n) =>
      pod.includes(n) ||
      n.startsWith('hugepages-') ||
      n.startsWith('requests.hugepages-') ||
      (n.startsWith('requests.') && n.includes('/')),
  );
}

interface ScopeRequirement {
  scopeName?: string;
  operator?: string;
  values?: string[];
}

function qosBestEffort(pod: SimObject): boolean {
  return [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')].every((c) => {
    const names = [
      ...resourceList(c.resources?.requests).keys(),
      ...resourceList(c.resources?.limits).keys(),
    ];
    return !names.some((n) => n === 'cpu' || n === 'memory');
  });
}

function podMatchesScope(pod: SimObject, scope: ScopeRequirement): boolean {
  const spec = obj(pod['spec']);
  const deadline = spec['activeDeadlineSeconds'];
  const terminating = typeof deadline === 'number' && deadline >= 0;
  switch (scope.scopeName) {
    case 'Terminating':
      return terminating;
    case 'NotTerminating':
      return !terminating;
    case 'BestEffort':
      return qosBestEffort(pod);
    case 'NotBestEffort':
      return !qosBestEffort(pod);
    case 'PriorityClass': {
      const pc = typeof spec['priorityClassName'] === 'string' ? spec['priorityClassName'] : '';
      const values = scope.values ?? [];
      if (scope.operator === 'Exists') return pc !== '';
      if (scope.operator === 'DoesNotExist') return pc === '';
      if (scope.operator === 'In') return pc !== '' && values.includes(pc);
      if (scope.operator === 'NotIn') return pc === '' || !values.includes(pc);
      return false;
    }
    default:
      return false;
  }
}

/** The quota's scopes and scopeSelector, as requirements (generic.Matches reads both). */
function scopesOf(quota: SimObject): ScopeRequirement[] {
  const spec = obj(quota['spec']);
  const scopes = Array.isArray(spec['scopes']) ? (spec['scopes'] as string[]) : [];
  const selector = obj(spec['scopeSelector'])['matchExpressions'];
  return [
    ...scopes.map((scopeName) => ({ scopeName, operator: 'Exists' })),
    ...(Array.isArray(selector) ? (selector as ScopeRequirement[]) : []),
  ];
}

/**
 * generic.Matches: the quota names a resource this object charges and, for pods, every
 * scope selects it (objects of other kinds match no scoped quota).
 */
export function quotaMatches(
  rt: ResourceType,
  quota: SimObject,
  o: SimObject,
  hard: Iterable<string>,
): boolean {
  if (matchingResources(rt, hard).length === 0) return false;
  const scopes = scopesOf(quota);
  if (scopes.length === 0) return true;
  if (rt.kind !== 'Pod') return false;
  return scopes.every((s) => podMatchesScope(o, s));
}

/** Constraints: a quota on cpu or memory needs every container to ask for it ("must specify …"). */
export function podConstraints(pod: SimObject, required: readonly string[]): string | undefined {
  const validation = ['cpu', 'memory', 'requests.cpu', 'requests.memory', 'limits.cpu', 'limits.memory'];
  const needed = required.filter((r) => validation.includes(r));
  if (needed.length === 0) return undefined;
  const missing = new Map<string, Set<string>>();
  for (const c of [...containersOf(pod, 'containers'), ...containersOf(pod, 'initContainers')]) {
    const usage = computeUsage(resourceList(c.resources?.requests), resourceList(c.resources?.limits));
    for (const r of needed) {
      if (usage.has(r)) continue;
      const names = missing.get(r) ?? new Set<string>();
      names.add(c.name ?? '');
      missing.set(r, names);
    }
  }
  if (missing.size === 0) return undefined;
  const parts = [...missing.keys()]
    .sort()
    .map((r) => `${r} for: ${[...(missing.get(r) ?? [])].sort().join(',')}`);
  return `must specify ${parts.join('; ')}`;
}
