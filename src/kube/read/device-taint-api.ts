/**
 * Whether the cluster serves DeviceTaintRule, and at which version: GA as
 * resource.k8s.io/v1 in 1.37, beta v1beta2 in 1.36 (off by default: only where the
 * administrator enabled the DRADeviceTaintRules feature and the API version). Asked
 * through discovery (the group-version's APIResourceList, readable by every
 * authenticated user through system:discovery), and only when a pod reports a device
 * Unhealthy. A failed discovery leaves the answer unknown (undefined): the
 * taint-device plan is then not offered, never offered blindly.
 */
import type { Pod } from '../../diagnosis/k8s.js';
import { podDevices } from '../../diagnosis/dra/health.js';
import type { DeviceTaintApi } from '../../diagnosis/snapshot/types.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';

interface ApiResourceList {
  resources?: { name?: string }[];
}

/** A pod of the workload reports a device Unhealthy: the only case that needs the answer. */
export function reportsUnhealthyDevice(pods: readonly Pod[]): boolean {
  return pods.some((p) => podDevices(p).some((d) => d.health === 'Unhealthy'));
}

export async function discoverDeviceTaintRules(client: KubeClient): Promise<DeviceTaintApi | undefined> {
  let sawAnswer = false;
  for (const version of ['v1', 'v1beta2'] as const) {
    try {
      const list = await client.call<ApiResourceList>({ verb: 'get', resource: 'resourceapis', version });
      sawAnswer = true;
      if ((list.resources ?? []).some((r) => r.name === 'devicetaintrules')) {
        return `resource.k8s.io/${version}`;
      }
    } catch (error) {
      // 404: this version of the group is not served at all.
      if (error instanceof KubeApiError && error.status === 404) {
        sawAnswer = true;
        continue;
      }
      return undefined;
    }
  }
  return sawAnswer ? 'not-served' : undefined;
}
