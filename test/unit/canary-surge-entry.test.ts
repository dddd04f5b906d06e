/**
 * A basic Argo canary enters each step as a rolling update (CalculateReplicaCountsForBasicCanary):
 * the canary grows first, up to spec.replicas + maxSurge, and the stable ReplicaSet shrinks only as
 * far as spec.replicas - maxUnavailable allows. With maxUnavailable 0 the next canary pod runs
 * beside every stable pod: rec (2 replicas, maxSurge 1) paused before setWeight 100 on two nodes
 * that hold two such pods can never get there, though its end state would fit. It used to read
 * "No problem found" (exit 0) at its timed pause. With a third node, or maxUnavailable 1, it goes on.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpEdit, type DumpItem as Item } from '../support/fixture-dump.js';

const dump = fixtureDump('argo-canary-full-step-surge.json');

type Report = { findings: { code: string; severity: string; summary: string }[] };

async function diagnose(edit?: DumpEdit): Promise<{ status: number; report: Report }> {
  const { status, stdout } = await dump.cli(['diagnose', 'rollout/rec', '-n', 'shop', '-o', 'json'], edit);
  return { status, report: JSON.parse(stdout) as Report };
}

describe('a basic canary on its way into a step', () => {
  it('that needs one pod more than the nodes hold, with maxUnavailable 0: can never finish, said at the pause', async () => {
    const { status, report } = await diagnose();
    expect(report.findings.map((f) => [f.code, f.severity])).toEqual([
      ['RolloutPaused', 'info'],
      ['RolloutStuck', 'critical'],
    ]);
    expect(report.findings[1]?.summary).toBe(
      'The rollout can never finish: on its way to the promotion after the last step the controller adds canary pod number 2 before it scales the stable ReplicaSet down, and with maxUnavailable 0 it keeps 1 stable pod until that pod is available, so 3 pods must run at once; the nodes hold at most 2 such pods, whatever is moved. The end state alone would fit.',
    );
    expect(status).toBe(1);
  });

  it('with maxUnavailable 1 a stable pod goes first: nothing is stuck', async () => {
    const { status, report } = await diagnose((items) =>
      items.map((i) => {
        if (i.kind !== 'Rollout') return i;
        const spec = i.spec as { strategy: { canary: Record<string, unknown> } };
        return {
          ...i,
          spec: { ...spec, strategy: { canary: { ...spec.strategy.canary, maxUnavailable: 1 } } },
        };
      }),
    );
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(status).toBe(0);
  });

  it('with a third node that holds the surge pod: nothing is stuck', async () => {
    const { status, report } = await diagnose((items) => {
      const node = items.find((i) => i.kind === 'Node' && i.metadata.name === 'n-2');
      const third = {
        ...structuredClone(node),
        metadata: { ...structuredClone(node?.metadata), name: 'n-3' },
      };
      return [third as Item, ...items];
    });
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(status).toBe(0);
  });

  it('with room on a third node but a pod quota that holds 2: the quota refuses the way in, said as the quota', async () => {
    const quota = {
      apiVersion: 'v1',
      kind: 'ResourceQuota',
      metadata: { name: 'shop-pods', namespace: 'shop' },
      spec: { hard: { pods: '2' } },
      status: { hard: { pods: '2' }, used: { pods: '2' } },
    };
    const { status, report } = await diagnose((items) => {
      const node = items.find((i) => i.kind === 'Node' && i.metadata.name === 'n-2');
      const third = {
        ...structuredClone(node),
        metadata: { ...structuredClone(node?.metadata), name: 'n-3' },
      };
      return [third as Item, quota as Item, ...items];
    });
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain('so 3 pods must run at once; ResourceQuota shop-pods');
    expect(stuck?.summary).not.toContain('the nodes hold at most');
    expect(status).toBe(1);
  });
});
