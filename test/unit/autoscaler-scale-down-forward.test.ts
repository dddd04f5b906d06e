/**
 * An HPA that lowers the replicas mid-rollout is run forward at the count it sets, as
 * one that raises them is: its status's desiredReplicas is the count after the
 * scale-down stabilization window (reconcileAutoscaler normalizes, writes the scale, then
 * setStatus), so nothing is left to wait out. inf: 3 GPU nodes, 3 old pods on them, a
 * surge pod Pending for a GPU (maxSurge 1, maxUnavailable 0); the HPA asks for 2. At 2
 * the controller (scale, then the rolling step: minAvailable 2 of 3 available) removes an
 * old pod, the new pod takes its GPU, and the rollout finishes by itself. Without the
 * HPA's scale-down the same state is the surge deadlock it is.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('hpa-lowers-mid-rollout.json');
const args = ['diagnose', 'deployment/inf', '-n', 'ml', '-o', 'json'];

type Report = { findings: { code: string; summary: string }[]; remediations: { kind: string }[] };

async function report(edit?: (items: DumpItem[]) => DumpItem[]): Promise<Report> {
  return JSON.parse((await dump.cli(args, edit)).stdout) as Report;
}

describe('an HPA scale-down mid-rollout', () => {
  it('is run forward at the count it sets: the rollout finishes by itself, no fix offered', async () => {
    const r = await report();
    expect(r.findings.map((f) => f.code)).toEqual(['RolloutProgressing']);
    expect(r.findings[0]?.summary).toContain(
      'will finish by itself at the 2 replicas HorizontalPodAutoscaler inf sets at its next sync (spec.replicas 3)',
    );
    expect(r.remediations).toEqual([]);
  });

  it('an HPA not reconciled yet (no conditions, desiredReplicas 0) asks for nothing: the deadlock stands', async () => {
    const r = await report((items) =>
      items.map((o) =>
        o.kind === 'HorizontalPodAutoscaler'
          ? { ...o, status: { currentReplicas: 0, desiredReplicas: 0 } }
          : o,
      ),
    );
    expect(r.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });

  it('holding at 3 (desired 3), the same state is a surge deadlock', async () => {
    const r = await report((items) =>
      items.map((o) =>
        o.kind === 'HorizontalPodAutoscaler' ? { ...o, status: { ...o.status, desiredReplicas: 3 } } : o,
      ),
    );
    expect(r.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });
});
