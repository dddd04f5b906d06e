/**
 * A traffic-routed Argo canary in the simulator (argo-rollouts
 * CalculateReplicaCountsForTrafficRoutedCanary): the stable ReplicaSet keeps every
 * replica while the canary gets ceil(replicas × weight / 100), or what setCanaryScale
 * says; an abort keeps the canary's pods for abortScaleDownDelaySeconds, then scales
 * them away. Before, such a Rollout was left alone.
 */
import { describe, expect, it } from 'vitest';
import type { SteppedSim } from '../../sim/stepped.js';
import { readyNode, steppedSims } from '../support/stepped-objects.js';
import { trafficRoutedCounts } from '../../sim/controllers/argo/traffic-routed.js';
import type { Rollout } from '../../sim/controllers/argo/types.js';

const start = steppedSims();
let sim: SteppedSim | undefined;

const service = (name: string) => ({
  apiVersion: 'v1',
  kind: 'Service',
  metadata: { name, namespace: 'shop' },
  spec: { selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080, protocol: 'TCP' }] },
});
const rollout = (image: string, steps: object[]) => ({
  apiVersion: 'argoproj.io/v1alpha1',
  kind: 'Rollout',
  metadata: { name: 'web', namespace: 'shop' },
  spec: {
    replicas: 4,
    selector: { matchLabels: { app: 'web' } },
    strategy: {
      canary: {
        canaryService: 'web-canary',
        stableService: 'web',
        trafficRouting: { nginx: { stableIngress: 'web' } },
        steps,
      },
    },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: { containers: [{ name: 'web', image, resources: { requests: { cpu: '100m' } } }] },
    },
  },
});
type RS = { metadata: { labels?: Record<string, string> }; spec: { replicas?: number }; spec2?: never };
const sizes = (s: SteppedSim): Record<string, number> =>
  Object.fromEntries(
    (
      s.list('ReplicaSet', 'shop') as unknown as (RS & {
        spec: { template: { spec: { containers: { image: string }[] } } };
      })[]
    ).map((rs) => [rs.spec.template.spec.containers[0]?.image ?? '', rs.spec.replicas ?? 0]),
  );
const healthy = (s: SteppedSim) => () =>
  (s.get('Rollout', 'shop', 'web') as unknown as { status?: { phase?: string } }).status?.phase === 'Healthy';

describe('a traffic-routed canary', () => {
  it('counts: ceil of the weight for the canary, every replica for the stable; setCanaryScale overrides', () => {
    const ro = {
      spec: { replicas: 5, strategy: { canary: { trafficRouting: {}, steps: [{ setWeight: 30 }] } } },
      status: { stableRS: 'a', currentPodHash: 'b', currentStepIndex: 0 },
    } as unknown as Rollout;
    expect(trafficRoutedCounts(ro)).toEqual([2, 5]);
    const scaled = {
      ...ro,
      spec: {
        ...ro.spec,
        strategy: {
          canary: { trafficRouting: {}, steps: [{ setCanaryScale: { replicas: 1 } }, { setWeight: 30 }] },
        },
      },
    } as unknown as Rollout;
    expect(trafficRoutedCounts(scaled)).toEqual([1, 5]);
  });

  it('keeps the stable at full size at a 25% step, and an abort scales the canary away after its delay', () => {
    sim = start([
      readyNode('n1'),
      service('web'),
      service('web-canary'),
      rollout('shop/web:1', [{ setWeight: 25 }, { pause: {} }]),
    ]);
    expect(sim.advance(120, healthy(sim))).toBe(true);
    sim.apply(rollout('shop/web:2', [{ setWeight: 25 }, { pause: {} }]));
    sim.advance(60);
    expect(sizes(sim)).toEqual({ 'shop/web:1': 4, 'shop/web:2': 1 });
    sim.patch('Rollout', 'shop', 'web', 'merge', { status: { abort: true } }, 'status');
    sim.advance(10);
    // Within abortScaleDownDelaySeconds (30 s) the canary keeps its pod.
    expect(sizes(sim)['shop/web:2']).toBe(1);
    sim.advance(60);
    expect(sizes(sim)).toEqual({ 'shop/web:1': 4, 'shop/web:2': 0 });
  });
});
