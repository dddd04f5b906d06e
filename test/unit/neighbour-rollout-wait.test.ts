/**
 * A neighbour Deployment in the middle of its own rollout holds room its controller will
 * give back (forward/job-wait.ts): beta's new pod is Ready on gpu-3 and its old pod holds
 * gpu-2, the only GPU alpha's new pod could take. reconcileOldReplicaSets removes beta's
 * old pod once its new one is available, and alpha then finishes: "cannot finish while
 * the rollout of deployment ml/beta holds its old pods", never "can never finish". Where
 * beta's new pod is not Ready, its rollout may not go on: the verdict stays as it was.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

const DUMP = join(import.meta.dirname, '../fixtures/dumps/neighbour-rollout-under-way.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-neighbour-rollout-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type DumpItem = { kind: string; metadata: { name?: string }; spec?: Record<string, unknown> };

type Report = {
  findings: {
    code: string;
    severity: string;
    summary: string;
    evidence: { text?: string }[];
    remediations: string[];
    waitsFor?: { holders: string; names: string[]; starting?: boolean };
  }[];
  remediations: { id: string; warnings: string[] }[];
};

async function diagnose(file: string): Promise<{ status: number; report: Report }> {
  const io = fakeIo();
  const status = await runCli(
    ['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', file, '-o', 'json'],
    io.io,
  );
  return { status, report: JSON.parse(io.stdout()) as Report };
}

describe('a neighbour Deployment whose rollout is under way', () => {
  it('holds its old pods only until its rollout removes them: said so, with the run that proves it', async () => {
    const { status, report } = await diagnose(DUMP);
    const lead = report.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(lead?.summary).toContain(
      'cannot finish while the rollout of deployment ml/beta holds its old pods',
    );
    expect(lead?.summary).toContain(
      'It can go on by itself once that rollout removes its old pods, unless new pods of that rollout take the room first.',
    );
    expect(lead?.summary).not.toContain('can never finish');
    const note = lead?.evidence.map((e) => e.text ?? '').find((t) => t.startsWith('Old pods of'));
    expect(note).toContain('beta-b1-x1 on gpu-2');
    // The rollout is stopped now: the verdict keeps its severity and exit code.
    expect(status).toBe(1);
  });

  it('whose new pod is still starting: the wait holds once it is Ready; failing or long not Ready, nothing is promised', async () => {
    type PodItem = {
      kind: string;
      metadata: { name?: string };
      status?: {
        startTime?: string;
        conditions?: { type: string; status: string }[];
        containerStatuses?: {
          name: string;
          ready: boolean;
          restartCount?: number;
          state?: Record<string, unknown>;
        }[];
      };
    };
    const notReady = (name: string, edit: (status: NonNullable<PodItem['status']>) => void): string => {
      const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: PodItem[] };
      for (const item of dump.items)
        if (item.kind === 'Pod' && item.metadata.name === 'beta-b2-y1') {
          item.status = { ...item.status, conditions: [{ type: 'Ready', status: 'False' }] };
          edit(item.status);
        }
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify(dump));
      return file;
    };
    // Started a minute before the read, nothing failing: starting, as our own pods are judged.
    const { report: starting } = await diagnose(notReady('beta-starting', () => undefined));
    const waits = starting.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(waits?.summary).toContain(
      'It can go on by itself once that rollout removes its old pods, after its new pods are Ready,',
    );
    expect(waits?.waitsFor).toMatchObject({ names: ['ml/beta'], starting: true });
    const note = waits?.evidence.map((e) => e.text ?? '').find((t) => t.startsWith('Old pods of'));
    expect(note).toContain(
      'Its newest pods are starting (bound, nothing failing, not Ready yet; or nominated to a node their preemption is emptying)',
    );
    for (const plan of starting.remediations.filter((p) => waits?.remediations.includes(p.id)))
      expect(plan.warnings[0]).toContain('once its new pods, still starting, are Ready');
    // A restart, a container waiting on an error, or not Ready for 20 minutes: it may never be Ready.
    const failing = [
      notReady('beta-restarted', (status) => {
        status.containerStatuses = [{ name: 'beta', ready: false, restartCount: 2, state: { running: {} } }];
      }),
      notReady('beta-pull-error', (status) => {
        status.containerStatuses = [
          { name: 'beta', ready: false, restartCount: 0, state: { waiting: { reason: 'ImagePullBackOff' } } },
        ];
      }),
      notReady('beta-long', (status) => {
        status.startTime = '2026-11-22T02:40:00Z';
      }),
    ];
    for (const file of failing) {
      const { report } = await diagnose(file);
      const lead = report.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
      expect(lead?.summary).toContain('can never finish');
      expect(lead?.summary).not.toContain('deployment ml/beta');
      expect(lead?.waitsFor).toBeUndefined();
      for (const plan of report.remediations)
        expect(plan.warnings.join(' ')).not.toContain('Waiting may be enough');
    }
  });

  it('paused, it removes its old pods only once its newest ReplicaSet holds every replica; not read, the words say it may be paused', async () => {
    const edited = (name: string, edit: (items: DumpItem[]) => DumpItem[]): string => {
      const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as { items: DumpItem[] };
      const file = join(dir, `${name}.json`);
      writeFileSync(file, JSON.stringify({ ...dump, items: edit(dump.items) }));
      return file;
    };
    const isBeta = (i: DumpItem): boolean => i.kind === 'Deployment' && i.metadata.name === 'beta';
    const pausedAt = (replicas: number): string =>
      edited(`beta-paused-${replicas}`, (items) =>
        items.map((i) => (isBeta(i) ? { ...i, spec: { ...i.spec, paused: true, replicas } } : i)),
      );
    // Paused at 1 replica, its newest ReplicaSet holds it: sync's scale() still removes the old pod.
    const { report: saturated } = await diagnose(pausedAt(1));
    expect(saturated.findings.find((f) => f.code === 'RolloutSurgeDeadlock')?.waitsFor).toMatchObject({
      holders: 'rollouts',
    });
    // Paused at 2, its newest ReplicaSet holds 1: nothing removes the old pod until it is resumed.
    const { report: held } = await diagnose(pausedAt(2));
    const lead = held.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(lead?.summary).toContain('can never finish');
    expect(lead?.waitsFor).toBeUndefined();
    const unread = edited('beta-not-read', (items) => items.filter((i) => !isBeta(i)));
    const { report } = await diagnose(unread);
    const hedged = report.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(hedged?.summary).toContain(
      'unless new pods of that rollout take the room first or it is paused (its Deployment was not read: a paused one removes no old pod).',
    );
    // The plans say the same hedge.
    const plans = report.remediations.filter((p) => hedged?.remediations.includes(p.id));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans)
      expect(plan.warnings[0]).toContain('unless it is paused (its Deployment was not read)');
    // Read and not paused: no such clause.
    const { report: read } = await diagnose(DUMP);
    expect(read.findings.find((f) => f.code === 'RolloutSurgeDeadlock')?.summary).not.toContain('not read');
    // Being deleted, its controller only syncs status: its rollout goes no further.
    const deleting = edited('beta-deleting', (items) =>
      items.map((i) =>
        isBeta(i) ? { ...i, metadata: { ...i.metadata, deletionTimestamp: '2026-11-22T02:59:00Z' } } : i,
      ),
    );
    const { report: gone } = await diagnose(deleting);
    const stays = gone.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(stays?.summary).toContain('can never finish');
    expect(stays?.waitsFor).toBeUndefined();
  });

  it('every plan for it says first that waiting may be enough, in English and in Korean', async () => {
    const { report } = await diagnose(DUMP);
    const lead = report.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(lead?.waitsFor).toEqual({ holders: 'rollouts', names: ['ml/beta'], some: false });
    const plans = report.remediations.filter((p) => lead?.remediations.includes(p.id));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans)
      expect(plan.warnings[0]).toBe(
        'Waiting may be enough: the rollout goes on by itself once the rollout of deployment ml/beta removes its old pods, as its Deployment controller does while it goes on (run forward with those pods gone), unless its new pods take the room first. This plan acts now, at the cost its impact says.',
      );
    const io = fakeIo();
    await runCli(['diagnose', 'deployment/alpha', '-n', 'ml', '--from-file', DUMP, '--lang', 'ko'], io.io);
    expect(io.stdout()).toContain('기다리는 것으로 충분할 수 있습니다: deployment ml/beta의 롤아웃이');
    // The headline too, from the catalogue with the wait in it; not the English one.
    expect(io.stdout()).toContain(
      'alpha 롤아웃은 Deployment ml/beta의 롤아웃이 기존 파드를 점유하는 동안에는 끝나지 않습니다',
    );
    expect(io.stdout()).toContain('그 롤아웃이 기존 파드를 내리면 스스로 이어질 수 있습니다.');
    expect(io.stdout()).not.toContain('cannot finish while');
  });
});

/**
 * The neighbour's rollout waits on its own preemption: alpha's new pod (priority 1000) is
 * nominated to gpu-3, where beta's new pod, its victim, is terminating. Once the victim is
 * gone alpha's pod binds there, alpha's controller removes its old pod on gpu-1, and beta's
 * replacement takes gpu-1: beta waits for alpha's rollout, it is not stuck for good.
 */
describe("a neighbour's rollout that goes on once its preemption's victims leave", () => {
  const PREEMPTING = join(import.meta.dirname, '../fixtures/dumps/neighbour-rollout-preempting.json');

  async function beta(edit?: (items: DumpItem[]) => void): Promise<Report> {
    let file = PREEMPTING;
    if (edit) {
      const dump = JSON.parse(readFileSync(PREEMPTING, 'utf8')) as { items: DumpItem[] };
      edit(dump.items);
      file = join(dir, `preempting-${String(Math.random()).slice(2)}.json`);
      writeFileSync(file, JSON.stringify(dump));
    }
    const io = fakeIo();
    await runCli(['diagnose', 'deployment/beta', '-n', 'ml', '--from-file', file, '-o', 'json'], io.io);
    return JSON.parse(io.stdout()) as Report;
  }

  it('waits for the rollout of deployment ml/alpha, after its new pods are Ready; never "can never finish"', async () => {
    const report = await beta();
    const stuck = report.findings.find((f) => f.severity === 'critical');
    expect(stuck?.summary).toContain(
      'cannot finish while the rollout of deployment ml/alpha holds its old pods',
    );
    expect(stuck?.summary).toContain('after its new pods are Ready');
    expect(stuck?.summary).not.toContain('can never finish');
    expect(stuck?.waitsFor).toMatchObject({ holders: 'rollouts', names: ['ml/alpha'], starting: true });
  });

  it('the nominated node with no victim leaving: the pod may never bind there, the verdict stays', async () => {
    const report = await beta((items) => {
      for (const item of items as { metadata: Record<string, unknown> }[])
        if (item.metadata['name'] === 'beta-b2-y1') delete item.metadata['deletionTimestamp'];
    });
    expect(JSON.stringify(report.findings)).not.toContain('while the rollout of deployment ml/alpha');
  });

  /** The victim on gpu-3 is another workload's pod; ours (beta-b2-y1) waits for a node. */
  function victimOfGamma(items: DumpItem[], deletion: string, finalizers?: string[]): void {
    const pods = items as unknown as {
      metadata: Record<string, unknown>;
      spec: Record<string, unknown>;
      status: unknown;
    }[];
    const ours = pods.find((p) => p.metadata['name'] === 'beta-b2-y1');
    if (!ours) throw new Error('fixture changed: beta-b2-y1 is gone');
    const gamma = structuredClone(ours);
    gamma.metadata = {
      ...gamma.metadata,
      name: 'gamma-z1',
      uid: 'p-gamma-z1',
      generateName: 'gamma-',
      labels: { app: 'gamma' },
      deletionTimestamp: deletion,
      ...(finalizers ? { finalizers } : {}),
    };
    items.push(gamma as unknown as DumpItem);
    delete ours.metadata['deletionTimestamp'];
    delete ours.spec['nodeName'];
    ours.status = {
      phase: 'Pending',
      conditions: [
        {
          type: 'PodScheduled',
          status: 'False',
          reason: 'Unschedulable',
          message: '0/3 nodes are available: 3 Insufficient nvidia.com/gpu.',
        },
      ],
    };
  }

  it("another workload's victim leaving within its grace: ours waits for alpha's rollout", async () => {
    const report = await beta((items) => victimOfGamma(items, '2026-11-22T03:00:20Z'));
    const stuck = report.findings.find((f) => f.severity === 'critical');
    expect(stuck?.summary).toContain(
      'cannot finish while the rollout of deployment ml/alpha holds its old pods',
    );
    expect(stuck?.waitsFor).toMatchObject({ holders: 'rollouts', names: ['ml/alpha'] });
  });

  it('that victim held past its deadline by a finalizer: the room stays taken, never a wait for alpha', async () => {
    const report = await beta((items) =>
      victimOfGamma(items, '2026-01-01T00:00:00Z', ['example.com/never-removed']),
    );
    expect(report.findings.some((f) => f.severity === 'critical')).toBe(true);
    expect(JSON.stringify(report.findings)).not.toContain('while the rollout of deployment ml/alpha');
  });
});
