/**
 * The simulator's HPA model: from the utilization a scenario sets, it moves the target's
 * replicas within minReplicas and maxReplicas (up at once, down only past the 300 s
 * stabilization window) and writes the status and conditions the controller does.
 */
import { describe, expect, it } from 'vitest';
import type { SteppedSim } from '../../sim/stepped.js';
import { readyNode, steppedSims, webDeployment } from '../support/stepped-objects.js';
import { proposedReplicas, UTILIZATION } from '../../sim/controllers/hpa.js';

const start = steppedSims();
let sim: SteppedSim | undefined;

const deployment = webDeployment(2);
const hpa = (utilization: string) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'web', namespace: 'shop', annotations: { [UTILIZATION]: utilization } },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 2,
    maxReplicas: 5,
    metrics: [
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
      },
    ],
  },
});
const replicas = (s: SteppedSim): number =>
  (s.get('Deployment', 'shop', 'web') as unknown as { spec: { replicas: number } }).spec.replicas;
type HpaStatus = {
  desiredReplicas?: number;
  conditions?: { type: string; status: string; reason: string }[];
};
const status = (s: SteppedSim): HpaStatus =>
  (s.get('HorizontalPodAutoscaler', 'shop', 'web') as unknown as { status?: HpaStatus }).status ?? {};

describe('the HPA model', () => {
  it('proposes ceil(current × ratio), nothing within the 10% tolerance', () => {
    expect(proposedReplicas(2, 150, 50)).toBe(6);
    expect(proposedReplicas(4, 54, 50)).toBe(4);
    expect(proposedReplicas(4, 20, 50)).toBe(2);
  });

  it('scales up to maxReplicas and says it is limited', () => {
    sim = start([readyNode('n1'), deployment, hpa('150')]);
    sim.advance(20);
    expect(replicas(sim)).toBe(5);
    expect(status(sim).desiredReplicas).toBe(5);
    expect(status(sim).conditions).toContainEqual(
      expect.objectContaining({ type: 'ScalingLimited', status: 'True', reason: 'TooManyReplicas' }),
    );
    expect(sim.advance(60, () => (sim?.list('Pod', 'shop').length ?? 0) === 5)).toBe(true);
  });

  it('scales down only once the 300 s window has passed, and not below minReplicas', () => {
    sim = start([readyNode('n1'), { ...deployment, spec: { ...deployment.spec, replicas: 4 } }, hpa('50')]);
    sim.advance(20);
    expect(replicas(sim)).toBe(4);
    sim.patch('HorizontalPodAutoscaler', 'shop', 'web', 'merge', {
      metadata: { annotations: { [UTILIZATION]: '10' } },
    });
    sim.advance(200);
    // Within the window the earlier recommendation (4) still holds.
    expect(replicas(sim)).toBe(4);
    sim.advance(200);
    expect(replicas(sim)).toBe(2);
    expect(status(sim).conditions).toContainEqual(
      expect.objectContaining({ type: 'ScalingLimited', reason: 'TooFewReplicas' }),
    );
  });

  it('look-alike: a target scaled to 0 is left alone (scaling disabled)', () => {
    sim = start([readyNode('n1'), { ...deployment, spec: { ...deployment.spec, replicas: 0 } }, hpa('150')]);
    sim.advance(40);
    expect(replicas(sim)).toBe(0);
    expect(status(sim).conditions).toContainEqual(
      expect.objectContaining({ type: 'ScalingActive', status: 'False', reason: 'ScalingDisabled' }),
    );
  });
});
