/**
 * The simulator's disruption controller writes a PodDisruptionBudget's status as
 * pkg/controller/disruption does: expectedPods from the pods (integer minAvailable) or
 * from their controllers' scale (maxUnavailable, percentages, rounded up), currentHealthy
 * from Ready pods not being deleted, disruptionsAllowed never below 0, the
 * DisruptionAllowed condition, and SyncFailed for pods whose controller has no scale.
 */
import { describe, expect, it } from 'vitest';
import type { SteppedSim } from '../../sim/stepped.js';
import { readyNode, steppedSims, webDeployment } from '../support/stepped-objects.js';

const start = steppedSims();
let sim: SteppedSim | undefined;

const template = (image: string) => ({
  metadata: { labels: { app: 'web' } },
  spec: { containers: [{ name: 'web', image, resources: { requests: { cpu: '100m' } } }] },
});
const deployment = webDeployment;
const budget = (spec: object) => ({
  apiVersion: 'policy/v1',
  kind: 'PodDisruptionBudget',
  metadata: { name: 'web', namespace: 'shop' },
  spec: { selector: { matchLabels: { app: 'web' } }, ...spec },
});
type Status = {
  expectedPods?: number;
  currentHealthy?: number;
  desiredHealthy?: number;
  disruptionsAllowed?: number;
  conditions?: { type: string; status: string; reason: string; message?: string }[];
};
const status = (s: SteppedSim): Status =>
  ((s.get('PodDisruptionBudget', 'shop', 'web') as { status?: Status } | undefined)?.status ?? {}) as Status;
const ready = (s: SteppedSim, n: number) => () =>
  s
    .list('Pod', 'shop')
    .filter((p) =>
      ((p as { status?: { conditions?: { type: string; status: string }[] } }).status?.conditions ?? []).some(
        (c) => c.type === 'Ready' && c.status === 'True',
      ),
    ).length === n;

describe('the disruption controller', () => {
  it('minAvailable 2 over 3 Ready pods: one disruption allowed, SufficientPods', () => {
    sim = start([readyNode('n1'), deployment(3), budget({ minAvailable: 2 })]);
    expect(sim.advance(60, ready(sim, 3))).toBe(true);
    sim.advance(1);
    expect(status(sim)).toMatchObject({
      expectedPods: 3,
      currentHealthy: 3,
      desiredHealthy: 2,
      disruptionsAllowed: 1,
    });
    expect(status(sim).conditions).toEqual([
      expect.objectContaining({ type: 'DisruptionAllowed', status: 'True', reason: 'SufficientPods' }),
    ]);
  });

  it('maxUnavailable 25% of 3: rounds up to 1, so 2 must stay healthy; a deleted pod is not healthy', () => {
    sim = start([readyNode('n1'), deployment(3), budget({ maxUnavailable: '25%' })]);
    sim.advance(60, ready(sim, 3));
    sim.advance(1);
    expect(status(sim)).toMatchObject({ expectedPods: 3, desiredHealthy: 2, disruptionsAllowed: 1 });
    const pod = sim.list('Pod', 'shop')[0];
    sim.delete('Pod', 'shop', pod?.metadata.name ?? '');
    sim.advance(0.1);
    // The deleted pod is Terminating (grace period): not healthy, and no disruption left.
    expect(status(sim)).toMatchObject({ currentHealthy: 2, disruptionsAllowed: 0 });
    expect(status(sim).conditions?.[0]).toMatchObject({ status: 'False', reason: 'InsufficientPods' });
  });

  it("a percentage counts the Deployment's replicas, not the pods that exist", () => {
    sim = start([readyNode('n1'), deployment(4), budget({ minAvailable: '50%' })]);
    sim.advance(60, ready(sim, 4));
    sim.patch('Deployment', 'shop', 'web', 'merge', { spec: { replicas: 6 } });
    sim.advance(0.01);
    expect(status(sim).expectedPods).toBe(6);
    expect(status(sim).desiredHealthy).toBe(3);
  });

  it('a DaemonSet under maxUnavailable has no scale: SyncFailed, no disruption allowed', () => {
    sim = start([
      readyNode('n1'),
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: template('shop/agent:1') },
      },
      budget({ maxUnavailable: 1 }),
    ]);
    sim.advance(60, ready(sim, 1));
    sim.advance(1);
    expect(status(sim).disruptionsAllowed).toBe(0);
    expect(status(sim).conditions?.[0]).toMatchObject({
      status: 'False',
      reason: 'SyncFailed',
      message: expect.stringContaining('found no controllers for pod'),
    });
  });

  it('look-alike: an integer minAvailable over a DaemonSet needs no scale and syncs', () => {
    sim = start([
      readyNode('n1'),
      readyNode('n2'),
      {
        apiVersion: 'apps/v1',
        kind: 'DaemonSet',
        metadata: { name: 'web', namespace: 'shop' },
        spec: { selector: { matchLabels: { app: 'web' } }, template: template('shop/agent:1') },
      },
      budget({ minAvailable: 1 }),
    ]);
    sim.advance(60, ready(sim, 2));
    sim.advance(1);
    expect(status(sim)).toMatchObject({
      expectedPods: 2,
      currentHealthy: 2,
      desiredHealthy: 1,
      disruptionsAllowed: 1,
    });
  });
});
