/**
 * The simulator's scheduler honours volumes that tie a pod to a node (VolumeBinding):
 * a StatefulSet pod whose claim is bound to a local PersistentVolume schedules only on
 * that volume's node, so once the node is cordoned and drained the pod waits for good;
 * WaitForFirstConsumer binds the claim when the pod is scheduled, within the class's
 * allowedTopologies.
 */
import { describe, expect, it } from 'vitest';
import type { SteppedSim } from '../../sim/stepped.js';
import { readyNode, steppedSims } from '../support/stepped-objects.js';

const start = steppedSims();
let sim: SteppedSim | undefined;

const localPv = (name: string, onNode: string) => ({
  apiVersion: 'v1',
  kind: 'PersistentVolume',
  metadata: { name },
  spec: {
    capacity: { storage: '10Gi' },
    accessModes: ['ReadWriteOnce'],
    storageClassName: 'local',
    local: { path: '/mnt/disks/1' },
    nodeAffinity: {
      required: {
        nodeSelectorTerms: [
          { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [onNode] }] },
        ],
      },
    },
  },
  status: { phase: 'Available' },
});
const storageClass = (name: string, extra: object = {}) => ({
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name },
  provisioner: 'kubernetes.io/no-provisioner',
  volumeBindingMode: 'WaitForFirstConsumer',
  ...extra,
});
const statefulSet = (className: string) => ({
  apiVersion: 'apps/v1',
  kind: 'StatefulSet',
  metadata: { name: 'db', namespace: 'shop' },
  spec: {
    replicas: 1,
    serviceName: 'db',
    selector: { matchLabels: { app: 'db' } },
    template: {
      metadata: { labels: { app: 'db' } },
      spec: { containers: [{ name: 'db', image: 'shop/db:1', resources: { requests: { cpu: '100m' } } }] },
    },
    volumeClaimTemplates: [
      {
        metadata: { name: 'data' },
        spec: {
          accessModes: ['ReadWriteOnce'],
          storageClassName: className,
          resources: { requests: { storage: '5Gi' } },
        },
      },
    ],
  },
});
type PodLike = {
  metadata: { name: string; deletionTimestamp?: string };
  spec: { nodeName?: string };
  status?: { phase?: string; conditions?: { type: string; status: string; message?: string }[] };
};
const pod0 = (s: SteppedSim) => s.get('Pod', 'shop', 'db-0') as PodLike | undefined;
const running = (s: SteppedSim) => () => {
  const p = pod0(s);
  return p?.status?.phase === 'Running' && !p.metadata.deletionTimestamp;
};

describe('volume binding in the simulator', () => {
  it('binds a WaitForFirstConsumer claim to the local volume of the node the pod lands on', () => {
    sim = start([
      readyNode('n1', { zone: 'a' }),
      localPv('pv-n1', 'n1'),
      storageClass('local'),
      statefulSet('local'),
    ]);
    expect(sim.advance(120, running(sim))).toBe(true);
    expect(pod0(sim)?.spec.nodeName).toBe('n1');
    const claim = sim.get('PersistentVolumeClaim', 'shop', 'data-db-0') as unknown as {
      spec: { volumeName?: string };
    };
    expect(claim.spec.volumeName).toBe('pv-n1');
  });

  it('a pod tied to a local volume on a cordoned, drained node waits there for good', () => {
    sim = start([
      readyNode('n1', { zone: 'a' }),
      readyNode('n2', { zone: 'a' }),
      localPv('pv-n1', 'n1'),
      storageClass('local'),
      statefulSet('local'),
    ]);
    expect(sim.advance(120, running(sim))).toBe(true);
    const where = pod0(sim)?.spec.nodeName ?? '';
    sim.patch('Node', undefined, where, 'merge', { spec: { unschedulable: true } });
    sim.delete('Pod', 'shop', 'db-0');
    sim.advance(600);
    const p = pod0(sim);
    expect(p?.spec.nodeName).toBeUndefined();
    const message = p?.status?.conditions?.find((c) => c.type === 'PodScheduled')?.message ?? '';
    expect(message).toContain('1 node(s) had volume node affinity conflict');
    expect(message).toContain('1 node(s) were unschedulable');
  });

  it('look-alike: a provisioning class may bind anywhere its allowedTopologies allow', () => {
    sim = start([
      readyNode('n1', { zone: 'a' }),
      readyNode('n2', { zone: 'b' }),
      storageClass('zonal', {
        provisioner: 'ebs.csi.aws.com',
        allowedTopologies: [
          { matchLabelExpressions: [{ key: 'topology.kubernetes.io/zone', values: ['b'] }] },
        ],
      }),
      statefulSet('zonal'),
    ]);
    expect(sim.advance(120, running(sim))).toBe(true);
    expect(pod0(sim)?.spec.nodeName).toBe('n2');
    const claim = sim.get('PersistentVolumeClaim', 'shop', 'data-db-0') as unknown as {
      spec: { volumeName?: string };
    };
    const pv = sim.get('PersistentVolume', undefined, claim.spec.volumeName ?? '') as unknown as {
      spec: { nodeAffinity?: unknown };
    };
    expect(JSON.stringify(pv.spec.nodeAffinity)).toContain('"b"');
  });
});
