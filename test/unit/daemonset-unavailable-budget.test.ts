/**
 * A DaemonSet's maxUnavailable counts every node that holds a pod of it, wanted or not
 * (rollingUpdate over getNodesToDaemonPods): a pod terminating there is neither old nor
 * new (findUpdatedPodsOnNode skips it), so the node is unavailable until the pod is gone.
 * One stuck Terminating on an unreachable node holds a budget of 1 for good: the rollout
 * stops, where the tool once said it would finish by itself.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';

/** ds mon/nx, maxSurge 0 / maxUnavailable 1: new on node-a, old on node-b, node-c unreachable with its old pod stuck Terminating. */
const DUMP = join(import.meta.dirname, '../fixtures/dumps/daemonset-unreachable-terminating.json');
const dir = mkdtempSync(join(tmpdir(), 'rd-ds-budget-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

type Report = { findings: { code: string; severity: string; summary: string }[] };

async function diagnose(file: string): Promise<{ status: number; report: Report }> {
  const f = fakeIo();
  const status = await runCli(['diagnose', 'ds/nx', '-n', 'mon', '--from-file', file, '-o', 'json'], f.io);
  return { status, report: JSON.parse(f.stdout()) as Report };
}

describe('a DaemonSet node whose pod is stuck Terminating', () => {
  it('holds the unavailability budget: the rollout cannot go on, said as such', async () => {
    const { status, report } = await diagnose(DUMP);
    const stuck = report.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toContain(
      'The rollout can never finish: old pods wait to be replaced, and the controller removes no more old pods (its maxUnavailable is used up). A DaemonSet has no progress deadline, so kubectl rollout status waits with no end and nothing marks the rollout failed.',
    );
    expect(status).toBe(1);
  });

  it('once that pod is gone the rollout goes on by itself', async () => {
    const dump = JSON.parse(readFileSync(DUMP, 'utf8')) as {
      items: { kind: string; metadata: { deletionTimestamp?: string } }[];
    };
    const file = join(dir, 'gone.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...dump,
        items: dump.items.filter((i) => !(i.kind === 'Pod' && i.metadata.deletionTimestamp)),
      }),
    );
    const { report } = await diagnose(file);
    expect(report.findings.map((f) => f.code)).not.toContain('RolloutStuck');
  });
});

/** hostPort surge deadlock on node-b; node-c unreachable, its new pod Running and not Ready (NodeNotReady). */
const SURGE = join(import.meta.dirname, '../fixtures/dumps/daemonset-surge-unreachable-node.json');

describe('a DaemonSet pod on an unreachable node stays (it tolerates unreachable:NoExecute)', () => {
  it('and counts against maxUnavailable: maxSurge 0 / maxUnavailable 1 would not finish, so it is not offered', async () => {
    const f = fakeIo();
    await runCli(['diagnose', 'ds/nx', '-n', 'mon', '--from-file', SURGE, '-o', 'json'], f.io);
    const out = JSON.parse(f.stdout()) as {
      findings: { code: string }[];
      remediations: { kind: string }[];
      notOffered: { kind: string; reason: string }[];
    };
    expect(out.findings.map((x) => x.code)).toContain('RolloutSurgeDeadlock');
    expect(out.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
    // Why, said of the node: its pod waits for a kubelet that does not report, it does not fail of itself.
    const why = out.notOffered.find((n) => n.kind === 'set-rolling-update')?.reason;
    expect(why).toContain('the new pods on node-c never become Ready (the kubelet there does not report');
    expect(why).not.toContain('fail on their own');
  });
});
