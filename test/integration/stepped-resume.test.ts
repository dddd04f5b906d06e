/**
 * A stepped scale-old-replicaset taken up again (a retry after the worker died while a
 * step waited, a stalled job handed back, a second apply of the same plan) finds the
 * old ReplicaSet already stepped down. It must wait for the earlier step's new pod to
 * be Ready before it takes the next step: never fewer than replicas - 1 serving. The
 * simulator's readiness gate holds that pod not-Ready until the test releases it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/kube/write/stepped-walk.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { EDGE, deadlockedIngress, readyPods, rolledOut } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stepped-resume-it-'));
});
afterEach(async () => {
  sim?.readiness.release();
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('stepped scale-old-replicaset taken up again', () => {
  it('waits for the earlier step’s new pod to be Ready before the next step: two of three always serve', async () => {
    const started = await deadlockedIngress(dir);
    const s = started.sim;
    sim = s;
    const { client } = started;
    const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    const target = plan?.replicaSet;
    if (!plan || !target) throw new Error('no stepped plan');
    const oldReplicas = (): number | undefined =>
      (s.get('ReplicaSet', 'edge', target.name) as ReplicaSet | undefined)?.spec.replicas;
    const rereads = (): number =>
      s.requests.filter(
        (r) => r.verb === 'get' && r.resource === 'replicasets' && r.name === target.newReplicaSet.name,
      ).length;
    let fewestReady = readyPods(s);
    const unsubscribe = s.onChange(() => {
      fewestReady = Math.min(fewestReady, readyPods(s));
    });
    s.readiness.hold();
    try {
      // The first attempt takes step 1 and ends (as a worker that died would) while the
      // replacement of the released pod is held not-Ready.
      const first = await applyPlan(client, plan, { step: { pollMs: 20, stepTimeoutMs: 300 } });
      expect(first).toMatchObject({ status: 'applied', changes: [{ before: 3, after: 2 }] });
      await s.waitFor(() => s.readiness.waiting() === 1, SIGNAL_WAIT_MS);
      expect(oldReplicas()).toBe(2);

      const steps: StepEvent[] = [];
      let finished = false;
      const retry = applyPlan(client, plan, {
        step: { pollMs: 20, stepTimeoutMs: 30_000, onStep: (e) => steps.push(e) },
      }).finally(() => {
        finished = true;
      });
      // The retry has looked at the new ReplicaSet five more times: one that copied the
      // live count would have taken step 2 by now.
      const seen = rereads();
      await s.waitFor(() => rereads() >= seen + 5 || finished, SIGNAL_WAIT_MS);
      expect(finished).toBe(false);
      expect(oldReplicas()).toBe(2);
      expect(steps).toEqual([]);
      expect(fewestReady).toBeGreaterThanOrEqual(2);

      s.readiness.release();
      const result = await retry;
      expect(result).toMatchObject({ status: 'applied', changes: [{ before: 3, after: 0 }] });
      // Numbered as the first attempt would have: steps 2 and 3 of 3.
      expect(steps.map((e) => `${e.phase} ${e.step}/${e.of}`)).toEqual([
        'waiting-ready 2/3',
        'ready 2/3',
        'waiting-ready 3/3',
        'ready 3/3',
        'done 3/3',
      ]);
      await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
      expect(fewestReady).toBeGreaterThanOrEqual(2);
    } finally {
      unsubscribe();
    }
  });

  it('a fresh plan diagnosed while a new pod is not Ready yet is refused at once: nothing written', async () => {
    const started = await deadlockedIngress(dir);
    const s = started.sim;
    sim = s;
    const { client } = started;
    const first = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    if (!first) throw new Error('no stepped plan');
    s.readiness.hold();
    // One step taken, its new pod held not-Ready: 2 of 3 serve.
    expect((await applyPlan(client, first, { step: { pollMs: 20, stepTimeoutMs: 300 } })).status).toBe(
      'applied',
    );
    await s.waitFor(() => s.readiness.waiting() === 1, SIGNAL_WAIT_MS);
    expect(readyPods(s)).toBe(2);
    // Diagnosed now, a stepped plan for the two old replicas left; applying it would leave 1 of 3.
    const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    expect(plan?.replicaSet).toMatchObject({ replicas: 2, to: 0 });
    if (!plan) return;
    s.clearRequests();
    const steps: StepEvent[] = [];
    const result = await applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 600_000, onStep: (e) => steps.push(e) },
    });
    expect(result).toMatchObject({ status: 'refused' });
    expect('reason' in result && result.reason).toMatch(/would leave fewer than 2 of 3 replicas Ready now$/);
    expect(s.requests.filter((r) => r.verb === 'patch')).toEqual([]);
    expect(steps).toEqual([]);
    expect(readyPods(s)).toBe(2);
  });

  it('a retry waiting for the earlier step’s new pod stops at once when the Deployment is rolled back', async () => {
    const started = await deadlockedIngress(dir);
    const s = started.sim;
    sim = s;
    const { client } = started;
    const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
      (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
    );
    if (!plan) throw new Error('no stepped plan');
    s.readiness.hold();
    expect((await applyPlan(client, plan, { step: { pollMs: 20, stepTimeoutMs: 300 } })).status).toBe(
      'applied',
    );
    await s.waitFor(() => s.readiness.waiting() === 1, SIGNAL_WAIT_MS);
    const steps: StepEvent[] = [];
    let finished = false;
    const retry = applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 600_000, onStep: (e) => steps.push(e) },
    }).finally(() => {
      finished = true;
    });
    try {
      const rereads = (): number =>
        s.requests.filter((r) => r.verb === 'get' && r.resource === 'replicasets').length;
      const seen = rereads();
      await s.waitFor(() => rereads() >= seen + 5 || finished, SIGNAL_WAIT_MS);
      expect(finished).toBe(false);
      // kubectl rollout undo: the old template again.
      await client.call({
        verb: 'patch',
        resource: 'deployments',
        namespace: 'edge',
        name: 'ingress',
        contentType: 'application/strategic-merge-patch+json',
        body: {
          spec: { template: { spec: { containers: [{ name: 'ingress', image: 'edge/ingress:1.0' }] } } },
        },
      });
      await s.waitFor(() => finished, SIGNAL_WAIT_MS);
      // This attempt wrote nothing: the earlier one's step stands, the walk says why it stopped.
      expect(await retry).toMatchObject({
        status: 'already-applied',
        changes: [{ after: 2 }],
        noUndo: expect.stringContaining('rolled back'),
      });
      expect(steps).toEqual([
        {
          phase: 'stopped',
          step: 2,
          of: 3,
          replicaSet: plan.replicaSet?.name,
          reason: 'deployment-changed',
          change: 'rolled-back',
          generation: expect.any(Number),
        },
      ]);
    } finally {
      s.readiness.release();
      await retry.catch(() => undefined);
    }
  });
});
