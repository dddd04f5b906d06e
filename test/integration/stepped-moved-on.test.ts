/**
 * A stepped scale-old-replicaset when the cluster moves on under a step: someone else
 * deletes an old pod during the scale (the ReplicaSet is then already at its count and
 * releases nothing of ours), and the Deployment changes during a wait (a rollback, a
 * new rollout, another spec field), which decides whether the walk's Undo still means
 * what it says (upstream deployment controller).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/kube/write/stepped-walk.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { EDGE, deadlockedIngress, edgeScenario } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stepped-moved-on-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function steppedPlan(client: KubeClient): Promise<RemediationPlan> {
  const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
    (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
  );
  if (!plan) throw new Error('no stepped plan');
  return plan;
}

const oldPods = (s: Simulator): Pod[] =>
  (s.list('Pod', 'edge') as Pod[]).filter(
    (p) => p.spec.containers[0]?.image === 'edge/ingress:1.0' && !p.metadata.deletionTimestamp,
  );

const patchIngress = (client: KubeClient, body: unknown): Promise<unknown> =>
  client.call({
    verb: 'patch',
    resource: 'deployments',
    namespace: 'edge',
    name: 'ingress',
    contentType: 'application/strategic-merge-patch+json',
    body,
  });

describe('stepped scale-old-replicaset: someone else deletes an old pod during the scale', () => {
  it('the marked pod stays and the one that went frees nothing the new pod needs: the step stops at once, saying so', async () => {
    // Only edge-1 and edge-2 carry tier=a, which the new template asks for: an old pod on
    // edge-3 frees nothing the surge pod needs.
    sim = await startSimulator({ scenario: edgeScenario(), timeScale: 50 });
    const s = sim;
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, s.kubeconfig);
    const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
    await s.waitFor(
      () => ((s.get('Deployment', 'edge', 'ingress') as Deployment).status?.availableReplicas ?? 0) === 3,
    );
    for (const name of ['edge-1', 'edge-2']) {
      const node = s.get('Node', undefined, name) as Node;
      s.apply({ ...node, metadata: { ...node.metadata, labels: { ...node.metadata.labels, tier: 'a' } } });
    }
    await patchIngress(client, {
      spec: {
        template: {
          spec: {
            nodeSelector: { pool: 'edge', tier: 'a' },
            containers: [{ name: 'ingress', image: 'edge/ingress:1.1' }],
          },
        },
      },
    });
    await s.waitFor(() =>
      (s.list('Event', 'edge') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
    );
    const plan = await steppedPlan(client);

    // Someone deletes the old pod on edge-3 right as the walk's scale lands, before the
    // ReplicaSet controller syncs: it then sees its new count already met and deletes nothing.
    const rsName = plan.replicaSet?.name ?? '';
    let marked: string | undefined;
    let deleted: string | undefined;
    const unsubscribe = s.onChange(() => {
      if (deleted) return;
      const rs = s.get('ReplicaSet', 'edge', rsName) as { spec: { replicas?: number } } | undefined;
      if (rs?.spec.replicas !== 2) return;
      marked = oldPods(s).find((p) => p.metadata.annotations?.[COST] !== undefined)?.metadata.name;
      deleted = oldPods(s).find((p) => p.spec.nodeName === 'edge-3')?.metadata.name;
      const victim = deleted;
      if (victim) queueMicrotask(() => s.delete('Pod', 'edge', victim));
    });
    const steps: StepEvent[] = [];
    let result;
    try {
      result = await applyPlan(client, plan, {
        step: { pollMs: 20, stepTimeoutMs: 5_000, onStep: (e) => steps.push(e) },
      });
    } finally {
      unsubscribe();
    }
    expect(deleted).toBeDefined();
    expect(result.status).toBe('applied');
    expect(steps.at(-1)).toMatchObject({ phase: 'stopped', of: 3, reason: 'released-elsewhere' });
    // The marked pod still runs, and its mark is off again.
    const stillThere = (s.list('Pod', 'edge') as Pod[]).find((p) => p.metadata.name === marked);
    expect(stillThere?.metadata.deletionTimestamp).toBeUndefined();
    expect(stillThere?.metadata.annotations?.[COST]).toBeUndefined();
  });
});

describe('stepped scale-old-replicaset: the Deployment changes during a step', () => {
  async function walkUntil(
    change: (client: KubeClient) => Promise<unknown>,
  ): Promise<{ result: Awaited<ReturnType<typeof applyPlan>>; steps: StepEvent[] }> {
    const started = await deadlockedIngress(dir);
    sim = started.sim;
    const s = started.sim;
    const { client } = started;
    const plan = await steppedPlan(client);
    s.readiness.hold();
    const steps: StepEvent[] = [];
    const walk = applyPlan(client, plan, {
      step: { pollMs: 20, stepTimeoutMs: 600_000, onStep: (e) => steps.push(e) },
    });
    try {
      await s.waitFor(
        () => steps.some((e) => e.phase === 'waiting-ready') && s.readiness.waiting() === 1,
        SIGNAL_WAIT_MS,
      );
      await change(client);
      return { result: await walk, steps };
    } finally {
      s.readiness.release();
      await walk.catch(() => undefined);
    }
  }

  it('rolled back to the old template: the old ReplicaSet is the new one again, the controller scales it up itself, and no Undo is offered', async () => {
    const { result, steps } = await walkUntil((client) =>
      patchIngress(client, {
        spec: { template: { spec: { containers: [{ name: 'ingress', image: 'edge/ingress:1.0' }] } } },
      }),
    );
    expect(steps.at(-1)).toMatchObject({
      phase: 'stopped',
      reason: 'deployment-changed',
      change: 'rolled-back',
    });
    expect(result).toMatchObject({ status: 'applied', noUndo: expect.stringContaining('rolled back') });
  });

  it('a new rollout (a third template): no Undo, the controller only scales the old ReplicaSet down now', async () => {
    const { result, steps } = await walkUntil((client) =>
      patchIngress(client, {
        spec: { template: { spec: { containers: [{ name: 'ingress', image: 'edge/ingress:1.2' }] } } },
      }),
    );
    expect(steps.at(-1)).toMatchObject({
      phase: 'stopped',
      reason: 'deployment-changed',
      change: 'new-rollout',
    });
    expect(result).toMatchObject({ status: 'applied', noUndo: expect.stringContaining('new rollout') });
  });

  it('another spec field (revisionHistoryLimit): the walk stops, and its Undo stays, checked against the new generation', async () => {
    const { result, steps } = await walkUntil((client) =>
      patchIngress(client, { spec: { revisionHistoryLimit: 5 } }),
    );
    const stopped = steps.at(-1);
    expect(stopped).toMatchObject({ phase: 'stopped', reason: 'deployment-changed', change: 'spec' });
    expect(result.status).toBe('applied');
    expect(result).not.toHaveProperty('noUndo');
    if (result.status === 'applied' && stopped?.phase === 'stopped')
      expect(result.generation).toBe(stopped.generation);
  });
});
