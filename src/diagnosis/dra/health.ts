/**
 * Device health as the kubelet reports it in `allocatedResourcesStatus` of container
 * statuses (Healthy, Unhealthy, Unknown; DRA drivers and device plugins that support
 * it). Absent or Unknown is not healthy: it is unknown. A crash loop is blamed on a
 * device only where that device reports Unhealthy; a device reporting Unknown on
 * every node says nothing about any of them.
 */
import type { Pod } from '../k8s.js';

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
