/**
 * What devices a pod asks for through DRA:
 * - a claim per pod from a ResourceClaimTemplate (`resourceClaimTemplateName`): the
 *   claim the resourceclaim controller created (`status.resourceClaimStatuses`), else
 *   the template's spec;
 * - a shared claim (`resourceClaimName`): old and new pods use the same claim, so once
 *   allocated it needs no further device (only its node);
 * - extended resources backed by DRA: a DeviceClass with `extendedResourceName` (or
 *   the implicit `deviceclass.resource.kubernetes.io/<class>`) serves a container's
 *   request on nodes without a device plugin for it. The scheduler creates that claim
 *   only after choosing a node, so a Pending pod has none: the count comes from the pod.
 */
import type {
  DeviceClass,
  DeviceRequest,
  ExactDeviceRequest,
  ResourceClaim,
  ResourceClaimSpec,
} from '../k8s-dra.js';
import type { NodeSelectorTerm, Pod } from '../k8s.js';
import { schedulerAmount } from '../base/quantity.js';
import type { DraObjects } from '../snapshot/types.js';

/** One alternative of a request: `exactly`, or one `firstAvailable` subrequest. */
export interface Alternative extends ExactDeviceRequest {
  /** "gpu", or "gpu/a100" for a subrequest. */
  request: string;
}

export interface DeviceNeed {
  /** "claim gpu (vision/tracker-7c9d-gpu-x7kqz)", "extended resource nvidia.com/gpu". */
  label: string;
  /** Alternatives in order of preference; the pod fits when one of them fits. */
  alternatives: Alternative[];
  /** For extended resources backed by DRA: the resource, which a device plugin serves instead where allocatable. */
  extendedResource?: string;
}

interface SharedClaim {
  /** The pod's claim name and the ResourceClaim's. */
  name: string;
  claim: string;
  /** Read and allocated: the node(s) it is pinned to. */
  allocatedTo?: NodeSelectorTerm[];
  allocated: boolean;
  /** Pods using it now (reservedFor): names, and uids. */
  users: string[];
  userUids: string[];
  /**
   * Its requests: what it needs when allocated anew (once no pod uses it, it is
   * deallocated, and the next pod's scheduling allocates it where that pod goes).
   */
  needs: DeviceNeed[];
}

/** A per-pod claim the pod's status names that the API server no longer has. */
export interface MissingClaim {
  /** The pod's claim name (spec.resourceClaims[].name). */
  name: string;
  /** The ResourceClaim named in status.resourceClaimStatuses. */
  claim: string;
  template: string;
}

export interface PodDeviceNeeds {
  needs: DeviceNeed[];
  /**
   * Per-pod claims deleted after they were created (claims of the namespace read): the
   * scheduler rejects the pod before it looks at any node, so the template says nothing
   * about where it would fit.
   */
  missing: MissingClaim[];
  shared: SharedClaim[];
  /** Per-pod claims already allocated (the pod was placed once): the nodes they pin. */
  pinned: { claim: string; terms: NodeSelectorTerm[] }[];
  /** Why some request is not known (a claim or template not read). */
  unknown: string[];
}

const IMPLICIT_PREFIX = 'deviceclass.resource.kubernetes.io/';

function requestAlternatives(request: DeviceRequest): Alternative[] {
  if (request.exactly) return [{ ...request.exactly, request: request.name }];
  return (request.firstAvailable ?? []).map((sub) => ({ ...sub, request: `${request.name}/${sub.name}` }));
}

function specNeeds(label: string, spec: ResourceClaimSpec): DeviceNeed[] {
  return (spec.devices?.requests ?? []).map((request) => ({
    label: `${label}, request ${request.name}`,
    alternatives: requestAlternatives(request),
  }));
}

/** The class serving extended resource `resource`, if any. */
export function classForExtendedResource(
  classes: readonly DeviceClass[],
  resource: string,
): DeviceClass | undefined {
  if (resource.startsWith(IMPLICIT_PREFIX)) {
    const name = resource.slice(IMPLICIT_PREFIX.length);
    return classes.find((c) => c.metadata.name === name);
  }
  return classes.find((c) => c.spec.extendedResourceName === resource);
}

/** Extended resources the pod's containers ask for that a DeviceClass backs. */
export function draBackedResources(pod: Pod, classes: readonly DeviceClass[]): Map<string, number> {
  const amounts = new Map<string, number>();
  for (const container of [...pod.spec.containers, ...(pod.spec.initContainers ?? [])]) {
    const asked = { ...container.resources?.limits, ...container.resources?.requests };
    for (const [resource, quantity] of Object.entries(asked)) {
      if (!resource.includes('/') || !classForExtendedResource(classes, resource)) continue;
      let amount: number;
      try {
        amount = schedulerAmount(resource, quantity);
      } catch {
        continue;
      }
      if (amount > 0) amounts.set(resource, (amounts.get(resource) ?? 0) + amount);
    }
  }
  return amounts;
}

function claimOf(dra: DraObjects, namespace: string | undefined, name: string): ResourceClaim | undefined {
  return dra.claims.find(
    (c) => c.metadata.name === name && (c.metadata.namespace ?? namespace) === namespace,
  );
}

/**
 * The pod's device needs (see the module comment). `claimsRead`: the claims of the
 * pod's namespace were read, so a claim not among them does not exist.
 */
export function podDeviceNeeds(pod: Pod, dra: DraObjects, claimsRead = false): PodDeviceNeeds {
  const ns = pod.metadata.namespace;
  const result: PodDeviceNeeds = { needs: [], missing: [], shared: [], pinned: [], unknown: [] };
  const created = new Map(
    (pod.status?.resourceClaimStatuses ?? []).map((s) => [s.name, s.resourceClaimName] as const),
  );
  for (const entry of pod.spec.resourceClaims ?? []) {
    if (entry.resourceClaimName) {
      const claim = claimOf(dra, ns, entry.resourceClaimName);
      if (!claim) {
        result.unknown.push(`ResourceClaim ${entry.resourceClaimName} was not read`);
        continue;
      }
      const allocation = claim.status?.allocation;
      const needs = specNeeds(`shared claim ${entry.resourceClaimName}`, claim.spec);
      result.shared.push({
        name: entry.name,
        claim: entry.resourceClaimName,
        allocated: allocation !== undefined,
        ...(allocation?.nodeSelector ? { allocatedTo: allocation.nodeSelector.nodeSelectorTerms } : {}),
        users: (claim.status?.reservedFor ?? []).map((r) => r.name),
        userUids: (claim.status?.reservedFor ?? []).map((r) => r.uid),
        needs,
      });
      if (!allocation) result.needs.push(...needs);
      continue;
    }
    if (!entry.resourceClaimTemplateName) continue;
    // Listed without a claim name: generating a claim was not necessary, the entry is ignored.
    if (created.has(entry.name) && !created.get(entry.name)) continue;
    const claimName = created.get(entry.name);
    const claim = claimName ? claimOf(dra, ns, claimName) : undefined;
    if (claim?.status?.allocation) {
      const terms = claim.status.allocation.nodeSelector?.nodeSelectorTerms;
      if (terms) result.pinned.push({ claim: claimName ?? '', terms });
      continue;
    }
    if (claim) {
      result.needs.push(...specNeeds(`claim ${entry.name} (${claimName ?? ''})`, claim.spec));
      continue;
    }
    if (claimName && claimsRead) {
      result.missing.push({ name: entry.name, claim: claimName, template: entry.resourceClaimTemplateName });
      continue;
    }
    const template = dra.templates.find(
      (t) => t.metadata.name === entry.resourceClaimTemplateName && (t.metadata.namespace ?? ns) === ns,
    );
    if (!template) {
      result.unknown.push(`ResourceClaimTemplate ${entry.resourceClaimTemplateName} was not read`);
      continue;
    }
    result.needs.push(
      ...specNeeds(`claim ${entry.name} (template ${template.metadata.name ?? ''})`, template.spec.spec),
    );
  }
  for (const [resource, count] of draBackedResources(pod, dra.classes)) {
    const cls = classForExtendedResource(dra.classes, resource);
    if (!cls) continue;
    result.needs.push({
      label: `extended resource ${resource}`,
      extendedResource: resource,
      alternatives: [
        { request: resource, deviceClassName: cls.metadata.name ?? '', allocationMode: 'ExactCount', count },
      ],
    });
  }
  return result;
}
