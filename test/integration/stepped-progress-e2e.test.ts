/**
 * The stepped scale-old-replicaset, approved in Slack on the three-replica ingress
 * deadlock (simulator, real workers, Slack stand-in): the thread gets one reply per
 * step ("step i of 3"), each naming a different released old pod, before the
 * "applied" reply and the "rolled out" one.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { createKubeClient } from '../../src/kube/client.js';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { edgeScenario, rollToDeadlock } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let h: E2eHarness | undefined;
let dir: string | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('stepped scale-old-replicaset in the Slack thread', () => {
  it('posts step 1, 2 and 3 of 3, then applied and rolled out', async () => {
    h = await startE2e({ scenario: edgeScenario(), rolloutTimeoutSeconds: 40 });
    const s = h.sim;
    await s.waitFor(
      () => ((s.get('Deployment', 'edge', 'ingress') as Deployment).status?.availableReplicas ?? 0) === 3,
    );
    dir = mkdtempSync(join(tmpdir(), 'stepped-e2e-'));
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, s.kubeconfig);
    await rollToDeadlock(s, createKubeClient({ kubeconfig: file }));

    await h.command('ingress -n edge');
    const result = await h.waitForResult('edge', 'ingress');
    const approve = h
      .buttons(result)
      .filter((b) => b.action_id.startsWith('approve_plan'))
      .find((b) => (b.text?.text ?? '').includes('scale-old-replicaset'));
    if (!approve) throw new Error(`no scale-old-replicaset button: ${JSON.stringify(h.buttons(result))}`);
    expect((await h.click(result, approve.action_id, h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);

    const thread = h.replies(result.ts).map((m) => m.text);
    // The walk's start first: step 1's old pod released, its new pod not yet Ready.
    const started = thread.filter((t) => t.startsWith('step 1 of 3 started'));
    expect(started).toHaveLength(1);
    expect(/ReplicaSet \S+ at (\d)/.exec(started[0] ?? '')?.[1]).toBe('2');
    expect(thread.indexOf(started[0] ?? '')).toBeLessThan(thread.findIndex((t) => /^step 1 of 3: /.test(t)));
    const steps = thread.filter((t) => /^step \d of 3: /.test(t));
    expect(steps.map((t) => t.slice(0, 'step 1 of 3'.length))).toEqual([
      'step 1 of 3',
      'step 2 of 3',
      'step 3 of 3',
    ]);
    expect(steps.map((t) => /ReplicaSet \S+ at (\d)/.exec(t)?.[1])).toEqual(['2', '1', '0']);
    const released = steps.map((t) => /: (\S+) released/.exec(t)?.[1]);
    expect(new Set(released).size).toBe(3);
    // Steps come before the outcome of the whole walk.
    const applied = thread.findIndex((t) => t.startsWith('applied'));
    expect(applied).toBeGreaterThan(thread.indexOf(steps[2] ?? ''));
    expect(thread.findIndex((t) => t.startsWith('rolled out'))).toBeGreaterThan(applied);
  });
});
