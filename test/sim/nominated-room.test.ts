/**
 * The room preemption makes is kept for the preemptor (kube-scheduler's
 * RunFilterPluginsWithNominatedPods: a pod nominated to a node, of equal or higher
 * priority, counts there when another pod is filtered). A Deployment whose new template
 * raised its priority preempts its own old pod on the one node that fits; the
 * ReplicaSet's replacement of that old pod (priority 0) must not take the room, or the
 * two would preempt and replace each other forever (verify:states seed 20685, before).
 * The rollout finishes; the replacement reads Insufficient cpu until the old
 * ReplicaSet is scaled away.
 */
import { describe, expect, it } from 'vitest';
import { startStepped } from '../../sim/stepped.js';

const node = (name: string, cpu: string, taint?: object): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: taint ? { taints: [taint] } : {},
  status: {
    capacity: { cpu, memory: '16Gi', pods: '110' },
    allocatable: { cpu, memory: '16Gi', pods: '110' },
    conditions: [{ type: 'Ready', status: 'True' }],
  },
});

const deployment = (image: string, cpu: string, priority: number): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { priority, containers: [{ name: 'web', image, resources: { requests: { cpu } } }] },
    },
  },
});

describe('a preemptor’s nominated node', () => {
  it('is not taken by the replacement of the pod it preempted: the rollout finishes', () => {
    const sim = startStepped([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
      node('node-a', '3'),
      node('node-b', '8', { key: 'dedicated', value: 'batch', effect: 'NoSchedule' }),
      {
        apiVersion: 'v1',
        kind: 'Pod',
        metadata: { name: 'tenant', namespace: 'shop' },
        spec: {
          nodeName: 'node-a',
          containers: [{ name: 't', image: 'tenant:1', resources: { requests: { cpu: '1' } } }],
        },
      },
      deployment('web:1', '1', 0),
    ]);
    try {
      const d = () =>
        sim.get('Deployment', 'shop', 'web') as {
          metadata: { generation?: number };
          status?: {
            observedGeneration?: number;
            availableReplicas?: number;
            updatedReplicas?: number;
            replicas?: number;
          };
        };
      const done = (): boolean => {
        const o = d();
        return (
          (o.status?.observedGeneration ?? 0) >= (o.metadata.generation ?? 0) &&
          o.status?.updatedReplicas === 1 &&
          o.status.availableReplicas === 1 &&
          o.status.replicas === 1
        );
      };
      expect(sim.advance(600, done)).toBe(true);
      // 2 CPUs at priority 1000: room only once the old pod (1 CPU, priority 0) is gone.
      sim.apply(deployment('web:2', '2', 1000));
      expect(sim.advance(900, done)).toBe(true);
      const events = sim.list('Event', 'shop') as { reason?: string; message?: string }[];
      expect(events.filter((e) => e.reason === 'Preempted')).toHaveLength(1);
      const pods = sim.list('Pod', 'shop') as unknown as {
        metadata: { name: string };
        spec: { nodeName?: string; priority?: number };
      }[];
      expect(pods.filter((p) => p.metadata.name.startsWith('web-')).map((p) => p.spec.priority)).toEqual([
        1000,
      ]);
    } finally {
      sim.stop();
    }
  });
});
