/**
 * Device health from allocatedResourcesStatus (issue 14 item 4): Unhealthy on one
 * node is evidence, absent or Unknown is not health, and Unknown everywhere blames
 * no node.
 */
import { describe, expect, it } from 'vitest';
import {
  deviceHealthByNode,
  podDevices,
  unhealthyDeviceOn,
  unreportedExtendedResources,
} from '../../src/diagnosis/dra/health.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import { claim, DRIVER } from '../support/dra-builders.js';
import { makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const rs = makeReplicaSet(makeDeployment('tracker', { namespace: 'vision', replicas: 3 }), '6d4cf56db6', {
  revision: 1,
  replicas: 3,
});

function podOn(suffix: string, node: string, health: string | undefined): Pod {
  const pod = makePod(rs, suffix, node, { phase: 'Running' });
  const status = pod.status?.containerStatuses?.[0];
  if (status && health !== 'absent') {
    status.allocatedResourcesStatus = [
      {
        name: 'claim:tracker-6d4cf56db6-' + suffix + '-gpu-m4zk7/gpu',
        resources: [{ resourceID: `gpu.nvidia.com/${node}/gpu-0`, ...(health ? { health } : {}) }],
      },
    ];
  }
  return pod;
}

describe('device health', () => {
  it('reads each device with its health; a missing health is Unknown', () => {
    const [device] = podDevices(podOn('x2kqp', 'gpu-node-1', undefined));
    expect(device).toMatchObject({
      node: 'gpu-node-1',
      container: 'tracker',
      device: 'gpu.nvidia.com/gpu-node-1/gpu-0',
      health: 'Unknown',
    });
  });

  it('an Unhealthy device on one node is the one to blame; healthy ones elsewhere are said so', () => {
    const pods = [
      podOn('x2kqp', 'gpu-node-1', 'Unhealthy'),
      podOn('b7rtn', 'gpu-node-2', 'Healthy'),
      podOn('mm4zc', 'gpu-node-3', 'Healthy'),
    ];
    const verdict = deviceHealthByNode(pods);
    expect([...verdict.unhealthy.keys()]).toEqual(['gpu-node-1']);
    expect(verdict.healthyOn).toEqual(['gpu-node-2', 'gpu-node-3']);
    expect(unhealthyDeviceOn('gpu-node-1', pods)?.device).toBe('gpu.nvidia.com/gpu-node-1/gpu-0');
  });

  it('look-alike: Unknown health everywhere blames no node and calls none healthy', () => {
    const pods = [
      podOn('x2kqp', 'gpu-node-1', 'Unknown'),
      podOn('b7rtn', 'gpu-node-2', 'Unknown'),
      podOn('mm4zc', 'gpu-node-3', 'absent'),
    ];
    const verdict = deviceHealthByNode(pods);
    expect(verdict.unhealthy.size).toBe(0);
    expect(verdict.healthyOn).toEqual([]);
    expect(verdict.unknownOn).toEqual(['gpu-node-1', 'gpu-node-2', 'gpu-node-3']);
    expect(unhealthyDeviceOn('gpu-node-1', pods)).toBeUndefined();
  });
});

/** A pod asking `nvidia.com/gpu: 1` that a DeviceClass serves through DRA: the scheduler's claim holds `gpus`. */
function extendedPod(gpus: string[]): { pod: Pod; claims: ResourceClaim[] } {
  const pod = podOn('x4k2p', 'gpu-node-1', 'absent');
  const name = 'tracker-6d4cf56db6-x4k2p-extended-resources-7qv2d';
  const c = claim(name, 'vision', { device: gpus[0] ?? '', node: 'gpu-node-1', pods: [pod], owner: pod });
  const results = c.status?.allocation?.devices?.results ?? [];
  results.splice(
    0,
    results.length,
    ...gpus.map((device) => ({
      request: 'container-0-request-0',
      driver: DRIVER,
      pool: 'gpu-node-1',
      device,
    })),
  );
  pod.status = {
    ...pod.status,
    extendedResourceClaimStatus: {
      resourceClaimName: name,
      requestMappings: [
        {
          containerName: pod.spec.containers[0]?.name ?? '',
          resourceName: 'nvidia.com/gpu',
          requestName: 'container-0-request-0',
        },
      ],
    },
  };
  return { pod, claims: [c] };
}

describe('extended resources backed by DRA: the kubelet reports no health for them', () => {
  it('lists the resource as not reported, with the device its claim holds for the request when that is one device', () => {
    const { pod, claims } = extendedPod(['gpu-0']);
    expect(podDevices(pod)).toEqual([]);
    expect(unreportedExtendedResources(pod, claims)).toEqual([
      {
        pod: pod.metadata.name,
        node: 'gpu-node-1',
        container: pod.spec.containers[0]?.name,
        resource: 'nvidia.com/gpu',
        claim: 'tracker-6d4cf56db6-x4k2p-extended-resources-7qv2d',
        request: 'container-0-request-0',
        ref: { driver: DRIVER, pool: 'gpu-node-1', device: 'gpu-0' },
      },
    ]);
  });

  it('look-alike: two devices for the request, or the claim not read: the resource is not tied to a device', () => {
    const two = extendedPod(['gpu-0', 'gpu-1']);
    expect(unreportedExtendedResources(two.pod, two.claims)[0]).not.toHaveProperty('ref');
    const unread = extendedPod(['gpu-0']);
    expect(unreportedExtendedResources(unread.pod)[0]).toMatchObject({ resource: 'nvidia.com/gpu' });
    expect(unreportedExtendedResources(unread.pod)[0]).not.toHaveProperty('ref');
  });

  it('look-alike: a device plugin pod (no extendedResourceClaimStatus) or an entry for the resource is not "not reported"', () => {
    const plugin = podOn('z9m3c', 'gpu-node-2', 'absent');
    const status = plugin.status?.containerStatuses?.[0];
    if (status)
      status.allocatedResourcesStatus = [
        { name: 'nvidia.com/gpu', resources: [{ resourceID: 'GPU-1f2e', health: 'Healthy' }] },
      ];
    expect(unreportedExtendedResources(plugin)).toEqual([]);
    const { pod, claims } = extendedPod(['gpu-0']);
    const s = pod.status?.containerStatuses?.[0];
    if (s)
      s.allocatedResourcesStatus = [
        { name: 'nvidia.com/gpu', resources: [{ resourceID: 'GPU-1f2e', health: 'Healthy' }] },
      ];
    expect(unreportedExtendedResources(pod, claims)).toEqual([]);
  });
});
