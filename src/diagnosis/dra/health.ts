/**
 * Device health as the kubelet reports it in `allocatedResourcesStatus` of container
 * statuses (Healthy, Unhealthy, Unknown; DRA drivers and device plugins that support
 * it). Absent or Unknown is not healthy: it is unknown. A crash loop is blamed on a
 * device only where that device reports Unhealthy; a device reporting Unknown on
 * every node says nothing about any of them.
 */
import type { Pod } from '../k8s.js';
import type { ResourceClaim } from '../k8s-dra.js';

type DeviceHealthState = 'Healthy' | 'Unhealthy' | 'Unknown';

interface PodDevice {
  pod: string;
  node?: string;
  container: string;
  /** "claim:gpu/gpu" or "nvidia.com/gpu". */
  resource: string;
  /** "gpu.nvidia.com/gpu-node-1/gpu-0" for DRA, the device id for device plugins. */
  device: string;
  health: DeviceHealthState;
}

/** Every device the pod's containers report, with its health (Unknown when not said). */
export function podDevices(pod: Pod): PodDevice[] {
  const out: PodDevice[] = [];
  for (const status of [
    ...(pod.status?.containerStatuses ?? []),
    ...(pod.status?.initContainerStatuses ?? []),
  ]) {
    for (const resource of status.allocatedResourcesStatus ?? []) {
      for (const device of resource.resources ?? []) {
        const health =
          device.health === 'Healthy' || device.health === 'Unhealthy' ? device.health : 'Unknown';
        out.push({
          pod: pod.metadata.name ?? '',
          ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
          container: status.name,
          resource: resource.name,
          device: device.resourceID,
          health,
        });
      }
    }
  }
  return out;
}

interface DeviceHealthVerdict {
  /** Nodes with a device reported Unhealthy by a pod there, and those devices. */
  unhealthy: Map<string, PodDevice[]>;
  /** Nodes whose devices report no health (absent or Unknown): never taken as healthy. */
  unknownOn: string[];
  /** Nodes whose every reported device is Healthy. */
  healthyOn: string[];
}

/** Device health per node from the pods' own reports. */
export function deviceHealthByNode(pods: readonly Pod[]): DeviceHealthVerdict {
  const byNode = new Map<string, PodDevice[]>();
  for (const pod of pods) {
    if (!pod.spec.nodeName) continue;
    const devices = podDevices(pod);
    byNode.set(pod.spec.nodeName, [...(byNode.get(pod.spec.nodeName) ?? []), ...devices]);
  }
  const unhealthy = new Map<string, PodDevice[]>();
  const unknownOn: string[] = [];
  const healthyOn: string[] = [];
  for (const [node, devices] of [...byNode.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const bad = devices.filter((d) => d.health === 'Unhealthy');
    if (bad.length > 0) unhealthy.set(node, bad);
    else if (devices.length === 0 || devices.some((d) => d.health === 'Unknown')) unknownOn.push(node);
    else healthyOn.push(node);
  }
  return { unhealthy, unknownOn, healthyOn };
}

/**
 * The device to blame for crashes on `node`: reported Unhealthy there by a crashing
 * pod, while the same template runs elsewhere on devices that are not reported
 * Unhealthy. Undefined otherwise (Unknown health everywhere blames nothing).
 */
export function unhealthyDeviceOn(node: string, crashing: readonly Pod[]): PodDevice | undefined {
  return crashing
    .filter((p) => p.spec.nodeName === node)
    .flatMap(podDevices)
    .find((d) => d.health === 'Unhealthy');
}

/** A DRA device by its coordinates in the ResourceSlices: what a DeviceTaintRule selects. */
interface DeviceRef {
  driver: string;
  pool: string;
  device: string;
}

/** A reported device tied to its claim and, where that can be settled, its driver, pool and device. */
export interface ResolvedDevice extends PodDevice {
  /**
   * Undefined when the report cannot be tied to one device: a CDI id while the claim
   * has several allocated devices (or was not read), or an id the claim does not hold.
   */
  ref?: DeviceRef;
  /**
   * The pod's claim entry (`spec.resourceClaims[].name`) and request from
   * `claim:<name>[/<request>]`: the entry the kubelet listed the device under, not
   * necessarily the request the device was allocated for (see resolveDevice).
   */
  podClaim?: string;
  request?: string;
  /** The ResourceClaim object holding the device, when the snapshot has it. */
  claim?: { name: string; namespace: string; uid: string };
  /** Named by `resourceClaimName`: one claim for every pod using it (it keeps its device while any remains). */
  shared: boolean;
}

/** "gpu.nvidia.com/gpu-node-1/gpu-0": driver (no '/'), pool (may hold '/'), device (no '/'). */
export function parseResourceId(id: string): DeviceRef | undefined {
  if (id.includes('=')) return undefined; // a CDI device id (vendor.com/class=name)
  const parts = id.split('/');
  if (parts.length < 3 || parts.some((p) => p === '')) return undefined;
  return { driver: parts[0] ?? '', pool: parts.slice(1, -1).join('/'), device: parts.at(-1) ?? '' };
}

export function deviceKey(ref: DeviceRef): string {
  return `${ref.driver}/${ref.pool}/${ref.device}`;
}

/**
 * Ties one reported device to its claim and, only where that is unambiguous, to its
 * driver/pool/device. The kubelet (pkg/kubelet/cm/dra, UpdateAllocatedResourcesStatus)
 * names a DRA entry `claim:<pod claim>[/<request>]` and lists under it every device
 * prepared for the claim: releases up to 1.36 do not narrow the list to the entry's
 * request, and later ones narrow it only where the driver told the kubelet which
 * request each device serves. Each device is named by its first CDI id, or
 * `<driver>/<pool>/<device>` when the driver gives none. So:
 * - a driver/pool/device id names the device itself (and, with the claim read, must
 *   be one of the claim's allocated devices, of any request);
 * - a CDI id names a device only when the claim has exactly one allocated device:
 *   the API carries no CDI ids (neither the allocation results nor
 *   status.devices, AllocatedDeviceStatus, hold them), so with several devices
 *   (a GPU and a NIC of two requests) a CDI id under `claim:x/gpu` may be the NIC.
 * Anything else leaves the device unknown (`ref` unset): it is reported as is and no
 * plan acts on a guess.
 */
function resolveDevice(pod: Pod, d: PodDevice, claims: readonly ResourceClaim[] = []): ResolvedDevice {
  const m = /^claim:([^/]+)(?:\/(.+))?$/.exec(d.resource);
  if (!m) return { ...d, shared: false };
  const podClaim = m[1] ?? '';
  const request = m[2];
  const entry = pod.spec.resourceClaims?.find((c) => c.name === podClaim);
  const shared = entry?.resourceClaimName !== undefined;
  const claimName =
    pod.status?.resourceClaimStatuses?.find((s) => s.name === podClaim)?.resourceClaimName ??
    entry?.resourceClaimName;
  const namespace = pod.metadata.namespace ?? '';
  const object = claims.find((c) => c.metadata.name === claimName && c.metadata.namespace === namespace);
  const base: ResolvedDevice = {
    ...d,
    podClaim,
    ...(request ? { request } : {}),
    shared,
    ...(object
      ? { claim: { name: claimName ?? '', namespace, uid: object.metadata.uid ?? '' } }
      : claimName
        ? { claim: { name: claimName, namespace, uid: '' } }
        : {}),
  };
  const parsed = parseResourceId(d.device);
  if (!object) {
    // The claim was not read: a driver/pool/device id still names the device; a CDI id names nothing.
    return parsed ? { ...base, ref: parsed } : base;
  }
  // Every device of the claim, whatever request it was allocated for (one per device: shares count once).
  const allocated = new Map<string, DeviceRef>();
  for (const r of object.status?.allocation?.devices?.results ?? []) {
    allocated.set(deviceKey(r), { driver: r.driver, pool: r.pool, device: r.device });
  }
  if (parsed) {
    const hit = allocated.get(deviceKey(parsed));
    return hit ? { ...base, ref: hit } : base;
  }
  const only = allocated.size === 1 ? [...allocated.values()][0] : undefined;
  return only ? { ...base, ref: only } : base;
}

/** Every device a pod reports, resolved against the claims. */
export function resolvedDevices(pod: Pod, claims: readonly ResourceClaim[] = []): ResolvedDevice[] {
  return podDevices(pod).map((d) => resolveDevice(pod, d, claims));
}

/**
 * A container's extended resource served by DRA (KEP-5004: a DeviceClass with
 * `extendedResourceName`, the pod asking `nvidia.com/gpu: 1`, the scheduler's claim in
 * `status.extendedResourceClaimStatus`) for which the kubelet reports no health.
 */
interface UnreportedExtendedResource {
  pod: string;
  node?: string;
  container: string;
  /** The extended resource name, "nvidia.com/gpu". */
  resource: string;
  /** The scheduler-created claim and the request serving this container's resource. */
  claim: string;
  request: string;
  /** The device the claim allocated for that request, only when it is exactly one. */
  ref?: DeviceRef;
}

/**
 * The DRA-backed extended resources of a pod whose health the kubelet does not report.
 * Upstream's kubelet reports allocatedResourcesStatus for DRA devices only for the
 * claims a container names in `resources.claims` (pkg/kubelet/cm/dra/manager.go,
 * UpdateAllocatedResourcesStatus skips a container without them), and the device
 * manager only for devices a device plugin allocated: a device reached through
 * `extendedResourceClaimStatus` gets no entry at all (kubernetes/kubernetes#139939; 1.37
 * only lets the API accept such names, #139941; kubelet reporting is #140060). So each
 * request mapping is health not reported, unknown and never healthy. Should a container
 * nevertheless list an entry named after the resource or the claim, the mapping is left
 * out and that entry is read like any other: nothing here ties a report to a device.
 */
export function unreportedExtendedResources(
  pod: Pod,
  claims: readonly ResourceClaim[] = [],
): UnreportedExtendedResource[] {
  const ext = pod.status?.extendedResourceClaimStatus;
  if (!ext?.resourceClaimName) return [];
  const namespace = pod.metadata.namespace ?? '';
  const object = claims.find(
    (c) => c.metadata.name === ext.resourceClaimName && c.metadata.namespace === namespace,
  );
  const statuses = [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])];
  const out: UnreportedExtendedResource[] = [];
  for (const m of ext.requestMappings ?? []) {
    const names = (statuses.find((s) => s.name === m.containerName)?.allocatedResourcesStatus ?? []).map(
      (r) => r.name,
    );
    const reported = names.some(
      (n) =>
        n === m.resourceName ||
        n === `claim:${ext.resourceClaimName}` ||
        n.startsWith(`claim:${ext.resourceClaimName}/`),
    );
    if (reported) continue;
    const held = new Map<string, DeviceRef>();
    for (const r of object?.status?.allocation?.devices?.results ?? []) {
      if (r.request === m.requestName)
        held.set(deviceKey(r), { driver: r.driver, pool: r.pool, device: r.device });
    }
    const ref = held.size === 1 ? [...held.values()][0] : undefined;
    out.push({
      pod: pod.metadata.name ?? '',
      ...(pod.spec.nodeName ? { node: pod.spec.nodeName } : {}),
      container: m.containerName,
      resource: m.resourceName,
      claim: ext.resourceClaimName,
      request: m.requestName,
      ...(ref ? { ref } : {}),
    });
  }
  return out;
}
