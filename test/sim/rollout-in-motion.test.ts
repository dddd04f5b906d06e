/**
 * Issue 40's example, built on the stepped simulator: 6 replicas, maxSurge 0,
 * maxUnavailable 1, a `pods` quota of 7 with 7 used. The controller deletes one old pod,
 * which stays Terminating (still counted by the quota) while the new ReplicaSet's create
 * is refused. The rollout finishes by itself: no deadlock, and no plan that takes serving
 * pods down; the terminating pod shows as Terminating.
 */
import { describe, expect, it } from 'vitest';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { startStepped } from '../../sim/stepped.js';

const node = (name: string): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  status: {
    capacity: { cpu: '8', memory: '16Gi', pods: '110' },
    allocatable: { cpu: '8', memory: '16Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
});

const deployment = (image: string): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 6,
    selector: { matchLabels: { app: 'web' } },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image, resources: { requests: { cpu: '100m' } } }] },
    },
  },
});

describe('a rollout caught mid-step by a quota the old pods fill', () => {
  it('reads as moving, offers nothing that takes serving pods down, and shows the terminating pod as Terminating', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      node('node-a'),
      node('node-b'),
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'proxy', namespace: 'kube-system' },
        spec: { nodeName: 'node-b', containers: [{ name: 'p', image: 'proxy:1' }] },
      },
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'agent', namespace: 'shop' },
        spec: { nodeName: 'node-a', containers: [{ name: 'a', image: 'agent:1' }] },
      },
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'pods', namespace: 'shop' },
        spec: { hard: { pods: '7' } },
      },
      deployment('web:1'),
    ]);
    try {
      const ready = (): boolean => {
        const d = sim.get('Deployment', 'shop', 'web') as {
          status?: { availableReplicas?: number; updatedReplicas?: number };
        };
        return d.status?.availableReplicas === 6 && d.status.updatedReplicas === 6;
      };
      expect(sim.advance(600, ready)).toBe(true);
      sim.apply(deployment('web:2'));
      // Until the controller has deleted an old pod and the quota has refused the new one.
      const refused = (): boolean =>
        sim.list('Event', 'shop').some((e) => (e as { reason?: string }).reason === 'FailedCreate') &&
        sim
          .list('Pod', 'shop')
          .some((p) => (p as { metadata: { deletionTimestamp?: string } }).metadata.deletionTimestamp);
      expect(sim.advance(60, refused)).toBe(true);
      const snapshot = assembleSnapshot(
        { kind: 'Deployment', namespace: 'shop', name: 'web' },
        sim.objects() as unknown as KubeObject[],
        {
          capturedAt: sim.now(),
        },
      );
      const diagnosis = diagnose(snapshot);
      const codes = diagnosis.findings.map((f) => f.code);
      expect(codes).not.toContain('RolloutSurgeDeadlock');
      expect(codes).not.toContain('QuotaExceeded');
      expect(codes).toContain('RolloutProgressing');
      expect(diagnosis.remediations.map((p) => p.kind)).toEqual([]);
      const shown = diagnosis.findings
        .flatMap((f) => f.evidence)
        .flatMap((e) => (e.type === 'pods' ? e.pods : []));
      const terminating = snapshot.pods.find((p) => p.metadata.deletionTimestamp)?.metadata.name;
      expect(shown.find((p) => p.name === terminating)?.phase).toBe('Terminating');
      // And the simulator agrees: it finishes by itself.
      expect(sim.advance(600, ready)).toBe(true);
    } finally {
      sim.stop();
    }
  });
});
