/**
 * Dynamic Resource Allocation in the simulator (resource.k8s.io/v1):
 *
 * - the resourceclaim controller: a claim per pod for each `resourceClaimTemplateName`
 *   entry, named `<pod>-<claim>-<5 chars>` with the pod as controlling owner and
 *   listed in the pod's `status.resourceClaimStatuses`; when a pod goes, it leaves
 *   every claim's `reservedFor`, a claim nobody uses any more is deallocated, and a
 *   per-pod claim is deleted with its pod (garbage collection);
 * - the DynamicResources scheduler plugin's Filter and Reserve: exclusive devices
 *   from ResourceSlices, by the request's deviceClassName and the selectors that
 *   can be evaluated (the same matching as the diagnosis), "cannot allocate all
 *   claims" or "resourceclaim not available on the node" otherwise; at binding the
 *   allocation, the finalizer and `reservedFor` are written. A DeviceTaintRule adds
 *   its taint to the devices it selects, as if the driver had published it: a
 *   NoSchedule or NoExecute taint keeps claims that do not tolerate it off the device
 *   (claims already allocated keep it);
 * - for the kubelet: the devices each container holds through its claims.
 */
import { randomInt } from 'node:crypto';
import type {
  DeviceClass,
  Node,
  Pod,
  ResourceClaim,
  ResourceClaimTemplate,
  ResourceSlice,
} from '../../src/diagnosis/k8s.js';
import {
  allocatedDevices,
  devicesOnNode,
  matchDevice,
  type NodeDevice,
} from '../../src/diagnosis/dra/devices.js';
import type { DeviceTaintRuleObject } from '../../src/remediation/device-taint.js';
import { requestAlternatives } from '../../src/diagnosis/dra/needs.js';
import { matchesTerms } from '../../src/diagnosis/placement/node-match.js';
import { nowRfc3339 } from '../defaults.js';
import type { SimObject, Store } from '../store.js';
import type { Controller, ControllerContext } from './manager.js';
import { asPod, isPodActive } from './pods.js';

const SUFFIX = 'bcdfghjklmnpqrstvwxz2456789';
export const CLAIM_FINALIZER = 'resource.kubernetes.io/delete-protection';

function suffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++) s += SUFFIX[randomInt(SUFFIX.length)] ?? 'x';
  return s;
}

const claimOf = (o: SimObject): ResourceClaim => o as unknown as ResourceClaim;

/** The pod's claims by pod-claim name: the claim object, or undefined when not created (yet). */
export function podClaims(store: Store, pod: Pod): { name: string; claim?: SimObject }[] {
  const created = new Map(
    (pod.status?.resourceClaimStatuses ?? []).map((s) => [s.name, s.resourceClaimName]),
  );
  return (pod.spec.resourceClaims ?? []).map((entry) => {
    const name = entry.resourceClaimName ?? created.get(entry.name);
    const claim = name ? store.get('ResourceClaim', pod.metadata.namespace, name) : undefined;
    return { name: entry.name, ...(claim ? { claim } : {}) };
  });
}

/** The resourceclaim controller. */
export function resourceClaimController(ctx: ControllerContext): Controller {
  const { store } = ctx;
  const create = new Set<string>();
  const release = new Map<string, { uid: string; namespace: string }>();

  const syncCreate = (key: string): void => {
    const podObj = store.getByKey('Pod', key);
    if (!podObj) return;
    const pod = asPod(podObj);
    if (!isPodActive(pod)) return;
    const statuses = [...(pod.status?.resourceClaimStatuses ?? [])];
    let changed = false;
    for (const entry of pod.spec.resourceClaims ?? []) {
      if (!entry.resourceClaimTemplateName || statuses.some((s) => s.name === entry.name)) continue;
      const template = store.get(
        'ResourceClaimTemplate',
        pod.metadata.namespace,
        entry.resourceClaimTemplateName,
      ) as (SimObject & ResourceClaimTemplate) | undefined;
      if (!template) continue; // the pod waits before scheduling until the template exists
      const name = `${pod.metadata.name ?? ''}-${entry.name}-${suffix()}`;
      const claim = {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata: {
          name,
          namespace: pod.metadata.namespace,
          uid: crypto.randomUUID(),
          creationTimestamp: nowRfc3339(),
          annotations: { 'resource.kubernetes.io/pod-claim-name': entry.name },
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'Pod',
              name: pod.metadata.name ?? '',
              uid: pod.metadata.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: structuredClone(template.spec.spec),
      };
      store.put(claim as unknown as SimObject);
      statuses.push({ name: entry.name, resourceClaimName: name });
      changed = true;
    }
    if (changed) {
      const copy = structuredClone(store.getByKey('Pod', key) ?? podObj);
      const p = asPod(copy);
      p.status = { ...p.status, resourceClaimStatuses: statuses };
      store.put(copy);
    }
  };

  const syncRelease = (podUid: string, namespace: string): void => {
    for (const o of store.list('ResourceClaim', namespace)) {
      const claim = claimOf(o);
      const users = claim.status?.reservedFor ?? [];
      if (!users.some((u) => u.uid === podUid)) continue;
      const copy = structuredClone(o);
      const c = claimOf(copy);
      const left = users.filter((u) => u.uid !== podUid);
      if (left.length > 0) c.status = { ...c.status, reservedFor: left };
      else {
        // Nobody uses it any more: deallocate.
        delete c.status;
        c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CLAIM_FINALIZER);
        if (c.metadata.finalizers.length === 0) delete c.metadata.finalizers;
      }
      store.put(copy);
    }
  };

  return {
    name: 'resourceclaim',
    observe(event) {
      if (event.kind !== 'Pod') return;
      const pod = asPod(event.object);
      const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
      // A pod leaves its claims when it is gone or finished, not while it terminates.
      const phase = pod.status?.phase;
      if (event.type === 'DELETED' || phase === 'Succeeded' || phase === 'Failed') {
        if (pod.metadata.uid)
          release.set(pod.metadata.uid, { uid: pod.metadata.uid, namespace: pod.metadata.namespace ?? '' });
        return;
      }
      if ((pod.spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName)) create.add(key);
    },
    sync() {
      for (const key of [...create]) {
        create.delete(key);
        syncCreate(key);
      }
      for (const [uid, { namespace }] of [...release]) {
        release.delete(uid);
        syncRelease(uid, namespace);
      }
      return create.size > 0 || release.size > 0;
    },
  };
}

/** A pod's claim was not created yet: the scheduler does not try it (no event). */
export function heldForClaims(store: Store, pod: Pod): boolean {
  return podClaims(store, pod).some((c) => !c.claim);
}

interface Allocation {
  claim: SimObject;
  results?: { request: string; driver: string; pool: string; device: string }[];
}

/**
 * The DynamicResources Filter for one node: undefined when every claim of the pod can
 * be served there (with the allocation to write at binding), else the reason.
 */
export function draFilter(
  store: Store,
  pod: Pod,
  node: Node,
): { reason: string } | { allocations: Allocation[] } {
  const slices = store.list('ResourceSlice') as unknown as ResourceSlice[];
  const classes = store.list('DeviceClass') as unknown as DeviceClass[];
  const held = allocatedDevices(store.list('ResourceClaim') as unknown as ResourceClaim[]);
  const rules = store.list('DeviceTaintRule') as unknown as DeviceTaintRuleObject[];
  const devices = devicesOnNode(slices, node).devices.map((d) => withRuleTaints(d, rules));
  const taken = new Set<string>();
  const allocations: Allocation[] = [];
  for (const { claim: claimObj } of podClaims(store, pod)) {
    if (!claimObj) return { reason: 'cannot allocate all claims' };
    const claim = claimOf(claimObj);
    const allocation = claim.status?.allocation;
    if (allocation) {
      const terms = allocation.nodeSelector?.nodeSelectorTerms;
      if (terms && !matchesTerms(node, terms)) return { reason: 'resourceclaim not available on the node' };
      allocations.push({ claim: claimObj });
      continue;
    }
    const results: NonNullable<Allocation['results']> = [];
    for (const request of claim.spec.devices?.requests ?? []) {
      let served = false;
      for (const alternative of requestAlternatives(request)) {
        const free = devices.filter(
          (d) =>
            !held.has(d.key) &&
            !taken.has(d.key) &&
            matchDevice(alternative, classes, true, d).result === 'match',
        );
        const count = alternative.allocationMode === 'All' ? free.length : (alternative.count ?? 1);
        if (free.length === 0 || free.length < count) continue;
        for (const d of free.slice(0, count)) {
          taken.add(d.key);
          results.push({ request: alternative.request, driver: d.driver, pool: d.pool, device: d.name });
        }
        served = true;
        break;
      }
      if (!served) return { reason: 'cannot allocate all claims' };
    }
    allocations.push({ claim: claimObj, results });
  }
  return { allocations };
}

/**
 * The device with the taints of the DeviceTaintRules that select it (driver, pool and
 * device, each only when set; an empty selector selects every device, none selects none).
 */
export function withRuleTaints(d: NodeDevice, rules: readonly DeviceTaintRuleObject[]): NodeDevice {
  const taints = rules
    .filter((r) => {
      const sel = r.spec?.deviceSelector;
      if (!sel || !r.spec.taint) return false;
      return (
        (sel.driver === undefined || sel.driver === d.driver) &&
        (sel.pool === undefined || sel.pool === d.pool) &&
        (sel.device === undefined || sel.device === d.name)
      );
    })
    .map((r) => ({
      key: r.spec.taint.key,
      ...(r.spec.taint.value ? { value: r.spec.taint.value } : {}),
      effect: r.spec.taint.effect,
    }));
  if (taints.length === 0) return d;
  const device = structuredClone(d.device);
  if (device.basic) device.basic.taints = [...(device.basic.taints ?? []), ...taints];
  else device.taints = [...(device.taints ?? []), ...taints];
  return { ...d, device };
}

/**
 * The devices a container holds, per entry of `resources.claims`: the kubelet's
 * `claim:<pod claim>[/<request>]` name and each allocated `<driver>/<pool>/<device>`.
 */
export function containerDevices(
  store: Store,
  pod: Pod,
  container: string,
): { name: string; devices: string[] }[] {
  const spec = pod.spec.containers.find((c) => c.name === container);
  const claims = podClaims(store, pod);
  return (spec?.resources?.claims ?? []).map((ref) => {
    const obj = claims.find((c) => c.name === ref.name)?.claim;
    const results = obj ? (claimOf(obj).status?.allocation?.devices?.results ?? []) : [];
    return {
      name: ref.request ? `claim:${ref.name}/${ref.request}` : `claim:${ref.name}`,
      devices: results
        .filter((r) => !ref.request || r.request === ref.request || r.request.startsWith(`${ref.request}/`))
        .map((r) => `${r.driver}/${r.pool}/${r.device}`),
    };
  });
}

/** Reserve and PreBind: writes the allocations and reserves the claims for the pod. */
export function reserveClaims(store: Store, pod: Pod, node: Node, allocations: readonly Allocation[]): void {
  for (const allocation of allocations) {
    const copy = structuredClone(
      store.get('ResourceClaim', allocation.claim.metadata.namespace, allocation.claim.metadata.name) ??
        allocation.claim,
    );
    const claim = claimOf(copy);
    if (allocation.results) {
      claim.metadata.finalizers = [...new Set([...(claim.metadata.finalizers ?? []), CLAIM_FINALIZER])];
      claim.status = {
        ...claim.status,
        allocation: {
          devices: { results: allocation.results },
          nodeSelector: {
            nodeSelectorTerms: [
              { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name ?? ''] }] },
            ],
          },
          allocationTimestamp: nowRfc3339(),
        },
      };
    }
    const users = claim.status?.reservedFor ?? [];
    if (!users.some((u) => u.uid === pod.metadata.uid)) {
      claim.status = {
        ...claim.status,
        reservedFor: [
          ...users,
          { resource: 'pods', name: pod.metadata.name ?? '', uid: pod.metadata.uid ?? '' },
        ],
      };
    }
    store.put(copy);
  }
}
