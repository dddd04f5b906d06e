/**
 * Device health from allocatedResourcesStatus (issue 14 item 4): Unhealthy on one
 * node is evidence, absent or Unknown is not health, and Unknown everywhere blames
 * no node.
 */
import { describe, expect, it } from 'vitest';
import { deviceHealthByNode, podDevices, unhealthyDeviceOn } from '../../src/diagnosis/dra/health.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
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
