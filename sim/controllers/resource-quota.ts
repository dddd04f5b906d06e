/**
 * The resourcequota controller (kubernetes pkg/controller/resourcequota,
 * syncResourceQuota): `status.hard` is the spec's hard, `status.used` the usage of
 * every object the quota matches, one entry per hard resource ("0" when nothing is
 * charged), recomputed when a quota or a charged object in its namespace changes
 * (admission charges new objects at once: sim/admission/resource-quota.ts).
 */
import { ZERO, formatQuantity } from '../admission/quantity.js';
import {
  addLists,
  maskList,
  matchingResources,
  objectUsage,
  quotaMatches,
  resourceList,
  type ResourceList,
} from '../admission/quota-usage.js';
import type { SimObject, Store } from '../store.js';
import { typeForKind } from '../stored-kinds.js';
import type { Controller, ControllerContext } from './manager.js';
import { simNow } from '../clock.js';

/** The resourcequota controller's full resync period (kube-controller-manager's default). */
const RESYNC_SECONDS = 300;

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

/** The usage of everything in the quota's namespace that it matches, masked to its hard resources. */
export function quotaUsage(store: Store, quota: SimObject): ResourceList {
  const hard = resourceList(obj(quota['spec'])['hard']);
  const namespace = quota.metadata.namespace;
  let used: ResourceList = new Map();
  for (const kind of store.kinds()) {
    const rt = typeForKind(store, kind);
    // Only kinds the quota charges are read (pods for compute, each counted kind).
    if (!rt?.namespaced || matchingResources(rt, hard.keys()).length === 0) continue;
    for (const o of store.list(kind, namespace)) {
      if (!quotaMatches(rt, quota, o, hard.keys())) continue;
      used = addLists(used, maskList(objectUsage(rt, o), hard.keys()));
    }
  }
  for (const r of hard.keys()) if (!used.has(r)) used.set(r, ZERO);
  return used;
}

function statusOf(store: Store, quota: SimObject): Json {
  const used = quotaUsage(store, quota);
  return {
    ...obj(quota['status']),
    hard: { ...obj(obj(quota['spec'])['hard']) },
    used: Object.fromEntries([...used].map(([k, v]) => [k, formatQuantity(v)])),
  };
}

/** Creates the resourcequota controller. */
export function resourceQuotaController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const dirty = new Set<string>();
  const expiring = new Set<string>();
  const markNamespace = (ns: string): void => {
    for (const q of store.list('ResourceQuota', ns)) dirty.add(`${ns}/${q.metadata.name}`);
  };
  /**
   * A terminating pod stops being charged once its deadline plus grace has passed, but
   * nothing about the pod changes then: the controller sees it at its next full resync
   * (--resource-quota-sync-period, 5 minutes by default), taken here at its latest.
   */
  const recountWhenExpired = (o: SimObject): void => {
    const meta = o.metadata as { deletionTimestamp?: string; deletionGracePeriodSeconds?: number };
    const uid = o.metadata.uid ?? '';
    if (meta.deletionTimestamp === undefined || meta.deletionGracePeriodSeconds === undefined) return;
    if (expiring.has(uid)) return;
    expiring.add(uid);
    const expiry = Date.parse(meta.deletionTimestamp) + meta.deletionGracePeriodSeconds * 1000;
    ctx.after(Math.max(0, (expiry - simNow()) / 1000) + RESYNC_SECONDS, () => {
      expiring.delete(uid);
      if (o.metadata.namespace !== undefined) markNamespace(o.metadata.namespace);
    });
  };
  return {
    name: 'resourcequota',
    observe(event) {
      const ns = event.object.metadata.namespace;
      if (ns === undefined) return;
      if (event.kind === 'Pod' && event.type !== 'DELETED') recountWhenExpired(event.object);
      if (event.kind === 'ResourceQuota') {
        if (event.type !== 'DELETED') dirty.add(`${ns}/${event.object.metadata.name}`);
        return;
      }
      markNamespace(ns);
    },
    sync() {
      const keys = [...dirty];
      dirty.clear();
      for (const key of keys) {
        const quota = store.getByKey('ResourceQuota', key);
        if (!quota) continue;
        const status = statusOf(store, quota);
        if (JSON.stringify(status) !== JSON.stringify(quota['status']))
          store.put({ ...structuredClone(quota), status });
      }
      return dirty.size > 0;
    },
  };
}
