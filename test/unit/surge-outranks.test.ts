/**
 * A surge whose new pod outranks the old pods holding its room (the template raised the
 * priority): the scheduler's preemption takes pods of lower priority, the workload's
 * own old ones included (DefaultPreemption, SelectVictimsOnNode), so it is no deadlock,
 * and the old pod's preemption is said as the outage it is. Equal priorities, or a new
 * pod that never preempts, keep the deadlock.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { SEED_MESSAGE, seedIncidentA } from '../support/rollout-scenarios.js';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

/** Old pod priority 0 holds the only GPU; the new pod 1000000 Pending; other namespaces' pods not in the dump. */
const PARTIAL = new URL('../fixtures/dumps/priority-raised-partial.json', import.meta.url).pathname;

/** Seed incident A with the new pod at `newer` and the old at `older`; `never`: preemptionPolicy Never. */
function withPriorities(
  newer: number,
  older: number,
  options: { never?: boolean; noVictim?: boolean; postFilter?: string; nominated?: string } = {},
) {
  const snapshot = seedIncidentA();
  // The scheduler's attempt before the template raised the priority said no victim; this one has not said yet.
  const bare = SEED_MESSAGE.replace(/ preemption: .*$/, '');
  const message = options.noVictim
    ? SEED_MESSAGE
    : options.postFilter
      ? `${bare} preemption: ${options.postFilter}`
      : bare;
  const pods: Pod[] = snapshot.pods.map((p) => {
    const pending = p.status?.phase === 'Pending';
    return {
      ...p,
      spec: {
        ...p.spec,
        priority: pending ? newer : older,
        ...(pending && options.never ? { preemptionPolicy: 'Never' } : {}),
      },
      ...(pending && options.nominated
        ? { status: { ...p.status, nominatedNodeName: options.nominated } }
        : {}),
      status: {
        ...p.status,
        conditions: (p.status?.conditions ?? []).map((c) =>
          c.type === 'PodScheduled' ? { ...c, message } : c,
        ),
      },
    };
  });
  return { ...snapshot, pods };
}

const codes = (d: ReturnType<typeof diagnose>): string[] => d.findings.map((f) => f.code);

describe('a surge deadlock and the new pods priority', () => {
  it('stays a deadlock at equal priorities, said so', () => {
    const deadlock = diagnose(withPriorities(1000, 1000)).findings.find(
      (f) => f.code === 'RolloutSurgeDeadlock',
    );
    expect(deadlock?.explanation).toContain(
      'The scheduler cannot preempt the old pod, which has the same priority.',
    );
  });

  it("stays a deadlock where the scheduler's latest attempt found no victim", () => {
    const deadlock = diagnose(withPriorities(1_000_000, 0, { noVictim: true })).findings.find(
      (f) => f.code === 'RolloutSurgeDeadlock',
    );
    // Not "the same priority": the pods' priorities differ.
    expect(deadlock?.explanation).toContain('The scheduler does not preempt the old pod for it.');
    expect(deadlock?.explanation).not.toContain('same priority');
  });

  it("stays a deadlock where the scheduler's preemption failed in other words", () => {
    const failed = withPriorities(1_000_000, 0, {
      postFilter: '0/10 nodes are available: 10 Insufficient nvidia.com/gpu.',
    });
    expect(codes(diagnose(failed))).toContain('RolloutSurgeDeadlock');
  });

  it('names the node the holders are on, not a nominated node without them', () => {
    const found = diagnose(withPriorities(1_000_000, 0, { nominated: 'gpu-a100-1' })).findings.find(
      (f) => f.code === 'PreemptionUnderWay',
    );
    expect(found?.summary).toContain('on tracker-node by preempting');
  });

  it('stays a deadlock where the new pod never preempts', () => {
    expect(codes(diagnose(withPriorities(1_000_000, 0, { never: true })))).toContain('RolloutSurgeDeadlock');
  });

  it('is a preemption to come, with its outage, where the new pod outranks the old one', () => {
    const result = diagnose(withPriorities(1_000_000, 0));
    expect(codes(result)).not.toContain('RolloutSurgeDeadlock');
    const found = result.findings.find((f) => f.code === 'PreemptionUnderWay');
    expect(found?.summary).toMatch(
      /^The scheduler will make room for object-tracker-\S+ \(priority 1000000\) on tracker-node by preempting vision\/object-tracker-\S+ \(priority 0\) of this Deployment/,
    );
    expect(found?.explanation).toContain('1 of 1 replica down until the new pod is Ready (an outage)');
    expect(result.remediations).toEqual([]);
  });
});

describe('from a dump without other namespaces pods (the scheduler message settles the room)', () => {
  it('is no deadlock where the new pod outranks the old one: exit 0, nothing offered', async () => {
    const f = fakeIo();
    const status = await runCli(
      ['diagnose', 'deployment/trk', '-n', 'ml', '--from-file', PARTIAL, '-o', 'json'],
      f.io,
    );
    const out = JSON.parse(f.stdout()) as { findings: { code: string }[]; remediations: unknown[] };
    expect(out.findings.map((x) => x.code)).toEqual(['PreemptionUnderWay']);
    expect(out.remediations).toEqual([]);
    expect(status).toBe(0);
  });
});
