/**
 * Device health as the kubelet reports it in `allocatedResourcesStatus` of container
 * statuses (Healthy, Unhealthy, Unknown; DRA drivers and device plugins that support
 * it). Absent or Unknown is not healthy: it is unknown. A crash loop is blamed on a
 * device only where that device reports Unhealthy; a device reporting Unknown on
 * every node says nothing about any of them.
 */
import type { Pod, ResourceClaim } from '../k8s.js';

export type DeviceHealthState = 'Healthy' | 'Unhealthy' | 'Unknown';

export interface PodDevice {
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

export interface DeviceHealthVerdict {
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
export interface DeviceRef {
  driver: string;
  pool: string;
  device: string;
}

/** A reported device tied to its claim and, where that can be settled, its driver, pool and device. */
export interface ResolvedDevice extends PodDevice {
  /** Undefined when the report cannot be tied to one device (a CDI id and several allocated devices). */
  ref?: DeviceRef;
  /** The pod's claim entry (`spec.resourceClaims[].name`) and request from `claim:<name>[/<request>]`. */
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
 * Ties one reported device to its claim and its driver/pool/device. The kubelet names
 * a DRA entry `claim:<pod claim>[/<request>]` and the device by its first CDI id, or
 * `<driver>/<pool>/<device>` when the driver gives none; the claim's allocation
 * results settle which device a CDI id is, when the request has exactly one.
 */
export function resolveDevice(pod: Pod, d: PodDevice, claims: readonly ResourceClaim[] = []): ResolvedDevice {
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
  const results = (object?.status?.allocation?.devices?.results ?? []).filter(
    (r) => !request || r.request === request || r.request.startsWith(`${request}/`),
  );
  const parsed = parseResourceId(d.device);
  if (object) {
    const exact = parsed && results.find((r) => deviceKey(r) === deviceKey(parsed));
    const only = results.length === 1 ? results[0] : undefined;
    const hit = exact ?? (parsed ? undefined : only);
    return hit ? { ...base, ref: { driver: hit.driver, pool: hit.pool, device: hit.device } } : base;
  }
  // The claim was not read: a driver/pool/device id still names the device.
  return parsed ? { ...base, ref: parsed } : base;
}

/** Every device a pod reports, resolved against the claims. */
export function resolvedDevices(pod: Pod, claims: readonly ResourceClaim[] = []): ResolvedDevice[] {
  return podDevices(pod).map((d) => resolveDevice(pod, d, claims));
}
