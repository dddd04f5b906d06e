/**
 * Dynamic Resource Allocation in the simulator (resource.k8s.io/v1):
 *
 * - the resourceclaim controller (pkg/controller/resourceclaim): a claim per pod for
 *   each `resourceClaimTemplateName` entry, generateName `<pod>-<claim>-` (+ 5 chars),
 *   the template's labels and annotations, the pod as controlling owner, listed in the
 *   pod's `status.resourceClaimStatuses` (created again if it goes while the pod waits);
 *   when a pod goes or finishes, it leaves every claim's `reservedFor`, a claim nobody
 *   uses any more is deallocated and loses its finalizer, a claim being deleted goes
 *   then, and a per-pod claim whose pod finished is deleted (one whose pod is gone is
 *   deleted by garbage collection);
 * - the DynamicResources scheduler plugin's Filter and Reserve: exclusive devices
 *   from ResourceSlices, by the request's deviceClassName and the class's and the
 *   request's CEL selectors, evaluated by the simulator's own allocator
 *   (dra-devices.ts, dra-cel.ts; never the product's matching, so a mistake there
 *   shows as a disagreement), "cannot allocate all
 *   claims" or "resourceclaim not available on the node" otherwise; at binding the
 *   allocation, the finalizer and `reservedFor` are written. A DeviceTaintRule adds
 *   its taint to the devices it selects, as if the driver had published it: a
 *   NoSchedule or NoExecute taint keeps claims that do not tolerate it off the device
 *   (claims already allocated keep it);
 * - extended resources backed by DRA (KEP-5004): a container's `nvidia.com/gpu` that
 *   a DeviceClass maps (`extendedResourceName`, or the implicit
 *   `deviceclass.resource.kubernetes.io/<class>`) is served through DRA on a node
 *   whose allocatable has none of it. The scheduler builds the claim's requests per
 *   node (`container-<i>-request-<j>`: the container's index among init and regular
 *   containers, the resource's index among the container's sorted requests), and
 *   only after choosing the node creates the claim (generateName
 *   `<pod>-extended-resources-`, the annotation
 *   `resource.kubernetes.io/extended-resource-claim: "true"`, the pod as controlling
 *   owner), allocates it and records it in the pod's
 *   `status.extendedResourceClaimStatus`. Init containers are served by requests of
 *   their own (upstream lets them reuse a later container's request);
 * - for the kubelet: the devices each container holds through its claims.
 */
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim, ResourceClaimTemplate } from '../../src/diagnosis/k8s-dra.js';
import type { DeviceTaintRuleObject } from '../../src/remediation/device-taint.js';
import type { DeviceRequest } from '../../src/diagnosis/k8s-dra.js';
import {
  alternativesOf,
  classForResource,
  deviceMatches,
  devicesOn,
  heldDevices,
  type ClassShape,
  type RequestShape,
  type SimDevice,
  type SliceShape,
} from './dra-devices.js';
import { matchesNodeSelectorTerms } from './scheduler-filters.js';
import { generatedName, nowRfc3339 } from '../defaults.js';
import { simUid } from '../clock.js';
import { resourceForKind } from '../resources.js';
import { deleteObject, finishDeletion } from '../writes.js';
import { schedulingAmount } from './quantity.js';
import type { SimObject, Store } from '../store.js';
import type { Controller, ControllerContext } from './manager.js';
import { recordEvent } from './events.js';
import { asPod, isPodActive } from './pods.js';

export const CLAIM_FINALIZER = 'resource.kubernetes.io/delete-protection';
export const EXTENDED_CLAIM_ANNOTATION = 'resource.kubernetes.io/extended-resource-claim';
export const POD_CLAIM_ANNOTATION = 'resource.kubernetes.io/pod-claim-name';

/**
 * The generateName of a pod's claim, as the resourceclaim controller builds it:
 * `<pod>-<claim>-`, or past 57 characters both names cut in proportion to their length
 * (and no trailing hyphen), so the API server's 5 random characters keep it within 63.
 */
export function podClaimGenerateName(pod: string, claim: string): string {
  const base = `${pod}-${claim}-`;
  const max = 57;
  if (base.length <= max) return base;
  return `${pod.slice(0, Math.floor((pod.length * max) / base.length))}-${claim.slice(0, Math.floor((claim.length * max) / base.length))}`;
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
  const claims = new Set<string>();

  const syncCreate = (key: string): void => {
    const podObj = store.getByKey('Pod', key);
    if (!podObj) return;
    const pod = asPod(podObj);
    if (!isPodActive(pod)) return;
    const statuses = (pod.status?.resourceClaimStatuses ?? []).map((s) => ({ ...s }));
    let changed = false;
    for (const entry of pod.spec.resourceClaims ?? []) {
      if (!entry.resourceClaimTemplateName) continue;
      const recorded = statuses.find((s) => s.name === entry.name);
      // Recorded and still there: done. Recorded but gone (deleted while the pod waits): again.
      if (
        recorded?.resourceClaimName &&
        store.get('ResourceClaim', pod.metadata.namespace, recorded.resourceClaimName)
      )
        continue;
      const template = store.get(
        'ResourceClaimTemplate',
        pod.metadata.namespace,
        entry.resourceClaimTemplateName,
      ) as (SimObject & ResourceClaimTemplate) | undefined;
      if (!template) {
        // The pod waits before scheduling until the template exists; the controller says why.
        const t = entry.resourceClaimTemplateName;
        recordEvent(store, {
          involved: podObj,
          type: 'Warning',
          reason: 'FailedResourceClaimCreation',
          message: `PodResourceClaim ${entry.name}: resource claim template "${t}": resourceclaimtemplate.resource.k8s.io "${t}" not found`,
          component: 'resource_claim',
        });
        continue;
      }
      // The template's labels and annotations go on the claim, with the pod-claim annotation.
      const generateName = podClaimGenerateName(pod.metadata.name ?? '', entry.name);
      const name = generatedName(generateName);
      const labels = template.spec.metadata?.labels;
      const claim = {
        apiVersion: 'resource.k8s.io/v1',
        kind: 'ResourceClaim',
        metadata: {
          name,
          generateName,
          namespace: pod.metadata.namespace,
          uid: simUid(),
          creationTimestamp: nowRfc3339(),
          ...(labels ? { labels: { ...labels } } : {}),
          annotations: { ...template.spec.metadata?.annotations, [POD_CLAIM_ANNOTATION]: entry.name },
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
      if (recorded) recorded.resourceClaimName = name;
      else statuses.push({ name: entry.name, resourceClaimName: name });
      changed = true;
    }
    if (changed) {
      const copy = structuredClone(store.getByKey('Pod', key) ?? podObj);
      const p = asPod(copy);
      p.status = { ...p.status, resourceClaimStatuses: statuses };
      store.put(copy);
    }
  };

  /**
   * syncClaim: drops `reservedFor` entries of pods that are gone or finished; a claim
   * nobody uses any more (or one being deleted that nobody uses) is deallocated and
   * loses the finalizer, and goes when it is being deleted; a per-pod claim whose pod
   * finished is deleted.
   */
  const syncClaim = (key: string): void => {
    const o = store.getByKey('ResourceClaim', key);
    if (!o) return;
    const claim = claimOf(o);
    const users = claim.status?.reservedFor ?? [];
    const valid = users.filter((u) => {
      const pod = store.get('Pod', o.metadata.namespace, u.name);
      return pod !== undefined && pod.metadata.uid === u.uid && !isPodDone(asPod(pod));
    });
    const finalizer = (claim.metadata.finalizers ?? []).includes(CLAIM_FINALIZER);
    const deallocate =
      valid.length === 0 &&
      (valid.length < users.length || (finalizer && !!claim.metadata.deletionTimestamp));
    if (valid.length < users.length || deallocate) {
      const copy = structuredClone(o);
      const c = claimOf(copy);
      const status: NonNullable<ResourceClaim['status']> = { ...c.status };
      if (valid.length > 0) status.reservedFor = valid;
      else delete status.reservedFor;
      if (deallocate) {
        delete status.allocation;
        c.metadata.finalizers = (c.metadata.finalizers ?? []).filter((f) => f !== CLAIM_FINALIZER);
        if (c.metadata.finalizers.length === 0) delete c.metadata.finalizers;
      }
      if (Object.keys(status).length > 0) c.status = status;
      else delete c.status;
      finishDeletion(store, store.put(copy));
    }
    if (valid.length > 0) return;
    // Not reserved: a claim generated for a pod that will not run again is deleted.
    const owner = o.metadata.ownerReferences?.find(
      (r) => r.controller && r.kind === 'Pod' && r.apiVersion === 'v1',
    );
    const current = store.getByKey('ResourceClaim', key);
    if (!owner || !current || current.metadata.deletionTimestamp) return;
    const pod = store.get('Pod', o.metadata.namespace, owner.name);
    if (pod && (pod.metadata.uid !== owner.uid || isPodDone(asPod(pod))) && CLAIM_RT)
      deleteObject(store, CLAIM_RT, o.metadata.namespace, o.metadata.name);
  };

  const keyOf = (o: SimObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name}`;

  return {
    name: 'resourceclaim',
    observe(event) {
      if (event.kind === 'ResourceClaimTemplate' && event.type !== 'DELETED') {
        // Pods waiting for this template get their claims now.
        const ns = event.object.metadata.namespace;
        for (const o of store.list('Pod', ns)) {
          if (
            (asPod(o).spec.resourceClaims ?? []).some(
              (c) => c.resourceClaimTemplateName === event.object.metadata.name,
            )
          )
            create.add(keyOf(o));
        }
        return;
      }
      if (event.kind === 'ResourceClaim') {
        const o = event.object;
        if (event.type === 'DELETED') {
          // A pod waiting for this claim gets a new one.
          const owner = o.metadata.ownerReferences?.find((r) => r.controller && r.kind === 'Pod');
          if (owner) create.add(`${o.metadata.namespace ?? ''}/${owner.name}`);
        } else if (o.metadata.deletionTimestamp) claims.add(keyOf(o));
        return;
      }
      if (event.kind !== 'Pod') return;
      const pod = asPod(event.object);
      const key = `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
      // A pod leaves its claims when it is gone or finished, not while it terminates.
      if (event.type === 'DELETED' || isPodDone(pod)) {
        for (const o of store.list('ResourceClaim', pod.metadata.namespace)) {
          if ((claimOf(o).status?.reservedFor ?? []).some((u) => u.uid === pod.metadata.uid))
            claims.add(keyOf(o));
          if (o.metadata.ownerReferences?.some((r) => r.uid === pod.metadata.uid)) claims.add(keyOf(o));
        }
        return;
      }
      if ((pod.spec.resourceClaims ?? []).some((c) => c.resourceClaimTemplateName)) create.add(key);
    },
    sync() {
      for (const key of [...create]) {
        create.delete(key);
        syncCreate(key);
      }
      for (const key of [...claims]) {
        claims.delete(key);
        syncClaim(key);
      }
      return create.size > 0 || claims.size > 0;
    },
  };
}

/** Upstream isPodDone: a terminal phase, or deleted before it was scheduled. */
function isPodDone(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return (
    phase === 'Succeeded' || phase === 'Failed' || (!!pod.metadata.deletionTimestamp && !pod.spec.nodeName)
  );
}

const CLAIM_RT = resourceForKind('ResourceClaim');

/**
 * A pod's claim was not created yet or is being deleted: the scheduler does not try it
 * (PreEnqueue, no event).
 */
export function heldForClaims(store: Store, pod: Pod): boolean {
  return podClaims(store, pod).some((c) => !c.claim || !!c.claim.metadata.deletionTimestamp);
}

type Result = { request: string; driver: string; pool: string; device: string };

interface Allocation {
  claim: SimObject;
  results?: Result[];
}

/** The claim for extended resources backed by DRA, prepared for one node (created at binding). */
export interface ExtendedAllocation {
  requests: DeviceRequest[];
  mappings: { containerName: string; resourceName: string; requestName: string }[];
  results: Result[];
}

/** What the pod gets on a node: its claims' allocations and the extended-resource claim, if any. */
export interface NodeAllocation {
  allocations: Allocation[];
  extended?: ExtendedAllocation;
}

/**
 * The pod's extended resources that a DeviceClass maps (PreFilter: whether DRA is
 * involved at all); on a node, only those whose allocatable is none are DRA's.
 */
export function draBackedResources(store: Store, pod: Pod): Set<string> {
  const classes = store.list('DeviceClass') as unknown as ClassShape[];
  const backed = new Set<string>();
  if (classes.length === 0) return backed;
  for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
    for (const resource of Object.keys(c.resources?.requests ?? {})) {
      if (resource.includes('/') && classForResource(classes, resource)) backed.add(resource);
    }
  }
  return backed;
}

/** The extended-resource claim's requests and mappings for the resources `node` serves through DRA. */
function extendedRequests(
  pod: Pod,
  node: Node,
  backed: ReadonlySet<string>,
  classes: readonly ClassShape[],
): Omit<ExtendedAllocation, 'results'> {
  const allocatable = node.status?.allocatable ?? {};
  const onDra = [...backed].filter((r) => schedulingAmount(r, allocatable[r]) === 0).sort();
  const containers = [...(pod.spec.initContainers ?? []), ...pod.spec.containers];
  const requests: DeviceRequest[] = [];
  const mappings: ExtendedAllocation['mappings'] = [];
  for (const resource of onDra) {
    const className = classForResource(classes, resource)?.metadata.name ?? '';
    containers.forEach((container, index) => {
      const asked = container.resources?.requests ?? {};
      const count = schedulingAmount(resource, asked[resource]);
      if (count <= 0) return;
      const name = `container-${index}-request-${Object.keys(asked).sort().indexOf(resource)}`;
      requests.push({ name, exactly: { deviceClassName: className, allocationMode: 'ExactCount', count } });
      mappings.push({ containerName: container.name, resourceName: resource, requestName: name });
    });
  }
  requests.sort((a, b) => a.name.localeCompare(b.name));
  return { requests, mappings };
}

/**
 * The DynamicResources Filter for one node: undefined when every claim of the pod can
 * be served there (with the allocation to write at binding), else the reason.
 */
export function draFilter(
  store: Store,
  pod: Pod,
  node: Node,
  backed: ReadonlySet<string> = new Set(),
): { reason: string } | NodeAllocation {
  const classes = store.list('DeviceClass') as unknown as ClassShape[];
  const held = heldDevices(store.list('ResourceClaim') as unknown as ResourceClaim[]);
  const rules = store.list('DeviceTaintRule') as unknown as DeviceTaintRuleObject[];
  const devices = devicesOn(store.list('ResourceSlice') as unknown as SliceShape[], node).map((d) =>
    withRuleTaints(d, rules),
  );
  const taken = new Set<string>();
  const allocations: Allocation[] = [];
  for (const { claim: claimObj } of podClaims(store, pod)) {
    if (!claimObj) return { reason: 'cannot allocate all claims' };
    const claim = claimOf(claimObj);
    const allocation = claim.status?.allocation;
    if (allocation) {
      const terms = allocation.nodeSelector?.nodeSelectorTerms;
      if (terms && !matchesNodeSelectorTerms(node, terms))
        return { reason: 'resourceclaim not available on the node' };
      allocations.push({ claim: claimObj });
      continue;
    }
    const results = allocate(claim.spec.devices?.requests ?? []);
    if (!results) return { reason: 'cannot allocate all claims' };
    allocations.push({ claim: claimObj, results });
  }
  if (backed.size === 0) return { allocations };
  const { requests, mappings } = extendedRequests(pod, node, backed, classes);
  // Every extended resource is a device plugin's on this node: NodeResourcesFit judged it.
  if (requests.length === 0) return { allocations };
  const results = allocate(requests);
  if (!results) return { reason: 'cannot allocate all claims' };
  return { allocations, extended: { requests, mappings, results } };

  /** Free matching devices for every request, or undefined when one cannot be served. */
  function allocate(requests: readonly DeviceRequest[]): Result[] | undefined {
    const results: Result[] = [];
    for (const request of requests) {
      let served = false;
      for (const alternative of alternativesOf(request as RequestShape)) {
        const free = devices.filter(
          (d) => !held.has(d.key) && !taken.has(d.key) && deviceMatches(alternative, classes, d),
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
      if (!served) return undefined;
    }
    return results;
  }
}

/** The allocation a claim gets on `node`. */
function allocationOn(node: Node, results: Result[]): NonNullable<ResourceClaim['status']>['allocation'] {
  return {
    devices: { results },
    nodeSelector: {
      nodeSelectorTerms: [
        { matchFields: [{ key: 'metadata.name', operator: 'In', values: [node.metadata.name ?? ''] }] },
      ],
    },
    allocationTimestamp: nowRfc3339(),
  };
}

/**
 * PreBind for extended resources backed by DRA: creates the claim allocated and
 * reserved for the pod, and records it in the pod's status.
 */
function createExtendedClaim(store: Store, pod: Pod, node: Node, extended: ExtendedAllocation): void {
  const podName = pod.metadata.name ?? '';
  const claim = {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaim',
    metadata: {
      name: generatedName(`${podName}-extended-resources-`),
      generateName: `${podName}-extended-resources-`,
      namespace: pod.metadata.namespace,
      uid: simUid(),
      creationTimestamp: nowRfc3339(),
      annotations: { [EXTENDED_CLAIM_ANNOTATION]: 'true' },
      ownerReferences: [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          name: podName,
          uid: pod.metadata.uid ?? '',
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
      finalizers: [CLAIM_FINALIZER],
    },
    spec: { devices: { requests: extended.requests } },
    status: {
      allocation: allocationOn(node, extended.results),
      reservedFor: [{ resource: 'pods', name: podName, uid: pod.metadata.uid ?? '' }],
    },
  };
  store.put(claim as unknown as SimObject);
  const current = store.get('Pod', pod.metadata.namespace, podName);
  if (!current) return;
  const copy = structuredClone(current);
  const p = asPod(copy);
  p.status = {
    ...p.status,
    extendedResourceClaimStatus: {
      resourceClaimName: claim.metadata.name,
      requestMappings: extended.mappings,
    },
  };
  store.put(copy);
}

/**
 * The device with the taints of the DeviceTaintRules that select it (driver, pool and
 * device, each only when set; an empty selector selects every device, none selects none).
 */
export function withRuleTaints(d: SimDevice, rules: readonly DeviceTaintRuleObject[]): SimDevice {
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
 * `claim:<pod claim>[/<request>]` name and each allocated `<driver>/<pool>/<device>`
 * (narrowed to the entry's request, or, with `wholeClaim`, every device of the claim).
 */
export function containerDevices(
  store: Store,
  pod: Pod,
  container: string,
  wholeClaim = false,
): { name: string; devices: string[] }[] {
  const spec = pod.spec.containers.find((c) => c.name === container);
  const claims = podClaims(store, pod);
  return (spec?.resources?.claims ?? []).map((ref) => {
    const obj = claims.find((c) => c.name === ref.name)?.claim;
    const results = obj ? (claimOf(obj).status?.allocation?.devices?.results ?? []) : [];
    const served = (request: string): boolean =>
      wholeClaim || !ref.request || request === ref.request || request.startsWith(`${ref.request}/`);
    return {
      name: ref.request ? `claim:${ref.name}/${ref.request}` : `claim:${ref.name}`,
      devices: [
        ...new Set(results.filter((r) => served(r.request)).map((r) => `${r.driver}/${r.pool}/${r.device}`)),
      ],
    };
  });
}

/**
 * The entries the kubelet writes in a container's allocatedResourcesStatus, one per
 * claim reference (`claim:<name>[/<request>]`), each listing every device allocated
 * to the claim: UpdateAllocatedResourcesStatus (pkg/kubelet/cm/dra/manager.go) walks
 * the claim's prepared devices without narrowing them to the entry's request (later
 * kubelets narrow only where the driver names each device's requests, which this
 * driver does not).
 */
export function reportedClaimDevices(
  store: Store,
  pod: Pod,
  container: string,
): { name: string; devices: string[] }[] {
  return containerDevices(store, pod, container, true);
}

/** Reserve and PreBind: writes the allocations and reserves the claims for the pod. */
export function reserveClaims(store: Store, pod: Pod, node: Node, chosen: NodeAllocation): void {
  if (chosen.extended) createExtendedClaim(store, pod, node, chosen.extended);
  for (const allocation of chosen.allocations) {
    const copy = structuredClone(
      store.get('ResourceClaim', allocation.claim.metadata.namespace, allocation.claim.metadata.name) ??
        allocation.claim,
    );
    const claim = claimOf(copy);
    if (allocation.results) {
      claim.metadata.finalizers = [...new Set([...(claim.metadata.finalizers ?? []), CLAIM_FINALIZER])];
      claim.status = { ...claim.status, allocation: allocationOn(node, allocation.results) };
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
