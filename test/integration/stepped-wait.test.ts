/**
 * How a stepped scale-old-replicaset waits for each new pod to be Ready (three
 * replicas on the simulator): a watch on the new ReplicaSet wakes it, so a step
 * follows the Ready pod at once, and a refused watch leaves the re-read to carry on.
 * Each step is reported as data (onStep), numbered of the old ReplicaSet's replicas.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/kube/write/stepped-walk.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { EDGE, deadlockedIngress, readyPods, rolledOut } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stepped-wait-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function steppedPlan(): Promise<{ s: Simulator; client: KubeClient; plan: RemediationPlan }> {
  const started = await deadlockedIngress(dir);
  sim = started.sim;
  const plan = diagnose(await collectSnapshot(started.client, EDGE)).remediations.find(
    (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
  );
  if (!plan?.replicaSet) throw new Error('no stepped plan');
  return { s: started.sim, client: started.client, plan };
}

describe('stepped scale-old-replicaset: waiting for Ready', () => {
  it('wakes on the watch of the new ReplicaSet: with re-reads only every ten minutes, three steps still finish', async () => {
    const { s, client, plan } = await steppedPlan();
    const steps: StepEvent[] = [];
    s.clearRequests();
    // No re-read comes before the test's own time limit: only the watch can wake a step.
    const result = await applyPlan(client, plan, {
      step: { pollMs: 600_000, stepTimeoutMs: 600_000, onStep: (e) => steps.push(e) },
    });
    expect(result.status).toBe('applied');
    await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
    const rs = plan.replicaSet?.name ?? '';
    const pods = steps.flatMap((e) => ('pod' in e ? [e.pod] : []));
    expect(steps.map((e) => `${e.phase} ${e.step}/${e.of}`)).toEqual([
      'waiting-ready 1/3',
      'ready 1/3',
      'waiting-ready 2/3',
      'ready 2/3',
      'waiting-ready 3/3',
      'ready 3/3',
      'done 3/3',
    ]);
    expect(steps.every((e) => e.replicaSet === rs)).toBe(true);
    // Each step names the old pod it released, a different one each time.
    expect(new Set(pods).size).toBe(3);
    const watches = s.requests.filter((r) => r.verb === 'watch' && r.resource === 'replicasets');
    expect(watches.length).toBeGreaterThanOrEqual(1);
    for (const w of watches)
      expect(decodeURIComponent(w.query ?? '')).toContain(
        `metadata.name=${plan.replicaSet?.newReplicaSet.name}`,
      );
    const old = (s.list('ReplicaSet', 'edge') as ReplicaSet[]).find((r) => r.metadata.name === rs);
    expect(old?.spec.replicas).toBe(0);
  });

  it('carries on by re-reading when the watch is refused', async () => {
    const { s, client, plan } = await steppedPlan();
    s.addFault({ match: { verb: 'watch', resource: 'replicasets' }, status: 403 });
    const steps: StepEvent[] = [];
    // No watch can wake it: only the re-read every 20 ms sees the Ready pods before the
    // test's own time limit.
    const result = await applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 600_000, onStep: (e) => steps.push(e) },
    });
    expect(result.status).toBe('applied');
    expect(steps.at(-1)).toMatchObject({ phase: 'done', step: 3, of: 3 });
    expect(
      s.requests.some((r) => r.verb === 'watch' && r.resource === 'replicasets' && r.status === 403),
    ).toBe(true);
    await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
  });

  it('takes no next step while the replacement of the released pod is held not-Ready: two of three always serve', async () => {
    const { s, client, plan } = await steppedPlan();
    const target = plan.replicaSet;
    if (!target) throw new Error('no ReplicaSet');
    let fewestReady = readyPods(s);
    const unsubscribe = s.onChange(() => {
      fewestReady = Math.min(fewestReady, readyPods(s));
    });
    const oldReplicas = (): number | undefined =>
      (s.get('ReplicaSet', 'edge', target.name) as ReplicaSet | undefined)?.spec.replicas;
    const rereads = (): number =>
      s.requests.filter(
        (r) => r.verb === 'get' && r.resource === 'replicasets' && r.name === target.newReplicaSet.name,
      ).length;
    s.readiness.hold();
    const steps: StepEvent[] = [];
    let finished = false;
    const walk = applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 30_000, onStep: (e) => steps.push(e) },
    }).finally(() => {
      finished = true;
    });
    try {
      for (const step of [1, 2, 3]) {
        // The replacement of the pod this step released is Running, held not-Ready…
        await s.waitFor(() => s.readiness.waiting() === 1 || finished, SIGNAL_WAIT_MS);
        // …and the walker has looked at the new ReplicaSet five more times since: a
        // walker that does not wait would have stepped on (or stopped) by now.
        const seen = rereads();
        await s.waitFor(() => rereads() >= seen + 5 || finished, SIGNAL_WAIT_MS);
        expect(finished).toBe(false);
        expect(oldReplicas()).toBe(3 - step);
        expect(steps.filter((e) => e.phase === 'waiting-ready')).toHaveLength(step);
        expect(steps.filter((e) => e.phase === 'ready')).toHaveLength(step - 1);
        s.readiness.release(1);
      }
      s.readiness.release();
      const result = await walk;
      expect(result.status).toBe('applied');
      expect(steps.at(-1)).toMatchObject({ phase: 'done', step: 3, of: 3 });
      await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
      expect(fewestReady).toBeGreaterThanOrEqual(2);
    } finally {
      unsubscribe();
      s.readiness.release();
      await walk.catch(() => undefined);
    }
  });

  it.each([
    ['rolled back to the old template', 'edge/ingress:1.0'],
    ['rolled out to a third template', 'edge/ingress:1.2'],
  ])(
    'stops at once, saying the Deployment changed, when it is %s while a step waits for its new pod',
    async (_how, image) => {
      const { s, client, plan } = await steppedPlan();
      s.readiness.hold();
      const steps: StepEvent[] = [];
      const progress: string[] = [];
      const walk = applyPlan(client, plan, {
        onProgress: (m) => progress.push(m),
        // Far longer than the test waits: the walk must not sit out the step's timeout.
        step: { pollMs: 20, stepTimeoutMs: 60_000, onStep: (e) => steps.push(e) },
      });
      try {
        await s.waitFor(() => steps.some((e) => e.phase === 'waiting-ready'), SIGNAL_WAIT_MS);
        const generation = (s.get('Deployment', 'edge', 'ingress') as { metadata: { generation?: number } })
          .metadata.generation;
        await client.call({
          verb: 'patch',
          resource: 'deployments',
          namespace: 'edge',
          name: 'ingress',
          contentType: 'application/strategic-merge-patch+json',
          body: { spec: { template: { spec: { containers: [{ name: 'ingress', image }] } } } },
        });
        let finished = false;
        void walk.finally(() => {
          finished = true;
        });
        await s.waitFor(() => finished, SIGNAL_WAIT_MS);
        const result = await walk;
        expect(result).toMatchObject({
          status: 'applied',
          changes: [{ before: 3, after: 2 }],
          generation: (generation ?? 0) + 1,
        });
        expect(steps.at(-1)).toMatchObject({
          phase: 'stopped',
          step: 2,
          of: 3,
          reason: 'deployment-changed',
        });
        expect(progress.at(-1)).toMatch(/stopped at step 2 of 3: the Deployment changed/);
      } finally {
        s.readiness.release();
        await walk.catch(() => undefined);
      }
    },
  );
});
