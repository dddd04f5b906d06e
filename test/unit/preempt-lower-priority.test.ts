/**
 * A new pod whose old pod holds its room on one node (a surge deadlock there) while on
 * another node only a pod of lower priority holds it: the scheduler's preemption takes that
 * pod at its next attempt (DefaultPreemption), so the rollout goes on by itself. It read
 * "can never finish … the scheduler cannot preempt the old pod" with three outage plans
 * (attack round 10, d5). Where the pod never preempts, the other pod is not below it, or the
 * scheduler's latest attempt found no victim, the deadlock stands.
 */
import { describe, expect, it } from 'vitest';
import { fixtureDump, type DumpItem } from '../support/fixture-dump.js';

const dump = fixtureDump('surge-lower-priority-neighbour.json');

type Item = DumpItem;
type Report = {
  findings: { code: string; severity: string; summary: string }[];
  remediations: { kind: string }[];
};

async function diagnose(edit?: (item: Item) => Item): Promise<{ status: number; report: Report }> {
  const { status, stdout } = await dump.cli(
    ['diagnose', 'deployment/web', '-n', 'ml', '-o', 'json'],
    edit && ((items) => items.map(edit)),
  );
  return { status, report: JSON.parse(stdout) as Report };
}

const pod = (name: string, edit: (item: Item) => Item) => (item: Item) =>
  item.kind === 'Pod' && item.metadata.name === name ? edit(item) : item;

const codes = (report: Report) => report.findings.map((f) => [f.code, f.severity]);

describe('a new pod whose room a lower-priority pod holds on another node', () => {
  it('is preempted for at the next attempt: the rollout goes on, no plan', async () => {
    const { status, report } = await diagnose();
    expect(codes(report)).toEqual([['PreemptionUnderWay', 'info']]);
    expect(report.findings[0]?.summary).toBe(
      'The scheduler will make room for web-w2-b (priority 1000) on n-2 by preempting ml/batch-b1-a (priority 0), which holds what it needs at a lower priority: the rollout goes on by itself.',
    );
    expect(report.remediations).toEqual([]);
    expect(status).toBe(0);
  });

  it('with preemptionPolicy Never: the surge deadlock stands', async () => {
    const { report } = await diagnose(
      pod('web-w2-b', (p) => ({ ...p, spec: { ...p.spec, preemptionPolicy: 'Never' } })),
    );
    expect(codes(report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });

  it('with the other pod at the same priority: the surge deadlock stands', async () => {
    const { report } = await diagnose(
      pod('batch-b1-a', (p) => ({ ...p, spec: { ...p.spec, priority: 1000 } })),
    );
    expect(codes(report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });

  it("when the scheduler's latest attempt found no victim: its word stands", async () => {
    const failed =
      '0/2 nodes are available: 2 Insufficient nvidia.com/gpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.';
    const { report } = await diagnose((item) => {
      if (item.kind === 'Event') return { ...item, message: failed };
      if (item.kind === 'Pod' && item.metadata.name === 'web-w2-b') {
        const conditions = (item.status?.['conditions'] as { type: string; message?: string }[]).map((c) =>
          c.type === 'PodScheduled' ? { ...c, message: failed } : c,
        );
        return { ...item, status: { ...item.status, conditions } };
      }
      return item;
    });
    expect(codes(report)).toContainEqual(['RolloutSurgeDeadlock', 'critical']);
  });
});
