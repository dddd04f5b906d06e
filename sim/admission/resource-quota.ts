/**
 * The ResourceQuota admission plugin on create (kubernetes
 * plugin/pkg/admission/resourcequota/controller.go, quotaEvaluator.checkRequest): for
 * every quota of the namespace that matches the object, in name order,
 * - a quota on cpu or memory refuses a pod whose containers do not all ask for it:
 *   `failed quota: <quota>: must specify …`;
 * - a quota whose status does not yet account for one of its hard resources refuses:
 *   `status unknown for quota: <quota>`;
 * - a request that would take usage past hard refuses, naming only the exceeded
 *   resources, each list sorted and printed `name=quantity` joined by `,`:
 *   `exceeded quota: <quota>, requested: <r>=<n>, used: <r>=<n>, limited: <r>=<n>`.
 * Refusals are 403s worded `pods "<name>" is forbidden: <reason>` (admission.NewForbidden).
 * An admitted object's usage is charged to each matching quota's status.used at once,
 * as the plugin writes it (a dry run is checked, not charged); the quota controller
 * (controllers/resource-quota.ts) recomputes usage when objects go.
 */
import { forbiddenBy } from './forbidden.js';
import { compareQuantities, formatQuantity, prettyPrint, ZERO } from './quantity.js';
import {
  addLists,
  maskList,
  objectUsage,
  podConstraints,
  quotaMatches,
  resourceList,
  type ResourceList,
} from './quota-usage.js';
import type { ResourceType } from '../resources.js';
import type { SimObject, Store } from '../store.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** Checks `o` against the namespace's quotas; charges it unless `dryRun`. Throws the 403. */
export function admitQuota(store: Store, rt: ResourceType, o: SimObject, dryRun: boolean): void {
  const namespace = o.metadata.namespace;
  if (!rt.namespaced || namespace === undefined) return;
  const quotas = store
    .list('ResourceQuota', namespace)
    .sort((a, b) => a.metadata.name.localeCompare(b.metadata.name));
  if (quotas.length === 0) return;
  const usage = objectUsage(rt, o);
  const charged: { quota: SimObject; used: ResourceList }[] = [];
  for (const quota of quotas) {
    const status = obj(quota['status']);
    const hard = resourceList(status['hard']);
    if (!quotaMatches(rt, quota, o, hard.keys())) continue;
    const name = quota.metadata.name;
    if (rt.kind === 'Pod') {
      const missing = podConstraints(o, [...hard.keys()]);
      if (missing) throw forbiddenBy(rt, o, `failed quota: ${name}: ${missing}`);
    }
    const used = resourceList(status['used']);
    if ([...hard.keys()].some((r) => !used.has(r)))
      throw forbiddenBy(rt, o, `status unknown for quota: ${name}`);
    const requested = maskList(usage, hard.keys());
    if (requested.size === 0) continue;
    const next = addLists(used, requested);
    const exceeded = [...requested.keys()].filter(
      (r) => compareQuantities(next.get(r) ?? ZERO, hard.get(r) ?? ZERO) > 0,
    );
    if (exceeded.length > 0) {
      throw forbiddenBy(
        rt,
        o,
        `exceeded quota: ${name}, requested: ${prettyPrint(maskList(requested, exceeded))}, used: ${prettyPrint(maskList(used, exceeded))}, limited: ${prettyPrint(maskList(hard, exceeded))}`,
      );
    }
    charged.push({ quota, used: next });
  }
  if (dryRun) return;
  for (const { quota, used } of charged) writeUsed(store, quota, used);
}

/** Writes status.used (every entry, canonical form), keeping the rest of the quota. */
export function writeUsed(store: Store, quota: SimObject, used: ResourceList): void {
  const current = store.get('ResourceQuota', quota.metadata.namespace, quota.metadata.name) ?? quota;
  const copy = structuredClone(current);
  const status = obj(copy['status']);
  status['used'] = Object.fromEntries([...used].map(([k, v]) => [k, formatQuantity(v)]));
  copy['status'] = status;
  store.put(copy);
}
