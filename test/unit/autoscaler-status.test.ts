import { describe, expect, it } from 'vitest';
import { parseAutoscalerStatus } from '../../src/check/growth/autoscaler-status.js';

// The text the cluster autoscaler wrote before 1.30 (clusterstate/utils/status.go).
const LEGACY = `Cluster-autoscaler status at 2024-03-01 10:00:00.123 +0000 UTC:
Cluster-wide:
  Health:      Healthy (ready=3 unready=0 notStarted=0 longNotStarted=0 registered=3 longUnregistered=0)
  ScaleUp:     NoActivity (ready=3 registered=3)

NodeGroups:
  Name:        https://www.googleapis.com/compute/v1/projects/p/zones/z/instanceGroups/gke-c-gpu-pool-1a2b-grp
  Health:      Healthy (ready=1 unready=0 notStarted=0 longNotStarted=0 registered=1 longUnregistered=0 cloudProviderTarget=1 (minSize=0, maxSize=4))
  ScaleUp:     NoActivity (ready=1 cloudProviderTarget=1)
  Name:        mig-b
  Health:      Unhealthy (ready=0 unready=2 notStarted=0 longNotStarted=0 registered=2 longUnregistered=0 cloudProviderTarget=2 (minSize=0, maxSize=5))
  ScaleUp:     Backoff (ready=0 cloudProviderTarget=2)
`;

const YAML = `time: 2026-11-27 10:00:00 +0000 UTC
autoscalerStatus: Running
nodeGroups:
- name: eks-gpu-pool-8ac2
  health:
    status: Healthy
    cloudProviderTarget: 2
    minSize: 1
    maxSize: 4
  scaleUp:
    status: InProgress
`;

describe('the cluster autoscaler’s status', () => {
  it('reads the text of autoscalers before 1.30', () => {
    expect(parseAutoscalerStatus(LEGACY)).toEqual({
      groups: [
        {
          name: 'https://www.googleapis.com/compute/v1/projects/p/zones/z/instanceGroups/gke-c-gpu-pool-1a2b-grp',
          healthy: true,
          target: 1,
          max: 4,
          scaleUp: 'NoActivity',
        },
        { name: 'mig-b', healthy: false, target: 2, max: 5, scaleUp: 'Backoff' },
      ],
    });
  });

  it('reads the YAML of 1.30 and later', () => {
    expect(parseAutoscalerStatus(YAML)).toEqual({
      groups: [{ name: 'eks-gpu-pool-8ac2', healthy: true, target: 2, max: 4, scaleUp: 'InProgress' }],
    });
  });

  it.each([
    ['empty', ''],
    ['not YAML', 'nodeGroups: [unclosed'],
    ['a group without sizes', 'nodeGroups:\n- name: a\n  health: {status: Healthy}\n'],
    ['aliases', 'a: &x [1]\nnodeGroups: *x\n'],
    ['legacy without sizes', 'NodeGroups:\n  Name: a\n  Health: Healthy (ready=1)\n'],
  ])('says it cannot read a status that is %s, never "no group can grow"', (_, value) => {
    expect(parseAutoscalerStatus(value)).toHaveProperty('unreadable');
  });
});
