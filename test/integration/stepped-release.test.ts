/**
 * Which old pod a step of a stepped scale-old-replicaset releases is the ReplicaSet
 * controller's choice: a not-Ready old pod goes before any pod marked with the
 * pod-deletion-cost (the simulator's controller ranks as upstream's does). The walk
 * chooses that pod itself when it frees what the new pod needs, and after each scale
 * it reports the pod it saw go, never the one it merely marked.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import type { StepEvent } from '../../src/kube/write/stepped-walk.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { EDGE, deadlockedIngress, rolledOut } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const COST = 'controller.kubernetes.io/pod-deletion-cost';
let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'stepped-release-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function deadlocked(): Promise<{ s: Simulator; client: KubeClient }> {
  const started = await deadlockedIngress(dir);
  sim = started.sim;
  return { s: started.sim, client: started.client };
}

/** The old ReplicaSet's pods by name (image 1.0), live. */
function oldPods(s: Simulator): Pod[] {
  return (s.list('Pod', 'edge') as Pod[])
    .filter((p) => p.spec.containers[0]?.image === 'edge/ingress:1.0' && !p.metadata.deletionTimestamp)
    .sort((a, b) => (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''));
}

/** Writes the pod's Ready condition False, as a failing readiness probe would. */
function makeNotReady(s: Simulator, pod: Pod): void {
  const fresh = s.get('Pod', 'edge', pod.metadata.name ?? '') as Pod;
  const copy = structuredClone(fresh);
  copy.status = {
    ...copy.status,
    conditions: (copy.status?.conditions ?? []).map((c) =>
      c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' } : c,
    ),
    containerStatuses: (copy.status?.containerStatuses ?? []).map((c) => ({ ...c, ready: false })),
  };
  s.apply(copy);
}

/** Old pods in the order they went (gone from the store or terminating). */
function recordReleases(s: Simulator): { released: string[]; stop: () => void } {
  const released: string[] = [];
  let live = new Set(oldPods(s).map((p) => p.metadata.name ?? ''));
  const stop = s.onChange(() => {
    const now = new Set(oldPods(s).map((p) => p.metadata.name ?? ''));
    for (const name of live) if (!now.has(name)) released.push(name);
    live = now;
  });
  return { released, stop };
}

async function steppedPlan(client: KubeClient): Promise<RemediationPlan> {
  const plan = diagnose(await collectSnapshot(client, EDGE)).remediations.find(
    (p) => p.kind === 'scale-old-replicaset' && p.replicaSet?.stepped,
  );
  if (!plan) throw new Error('no stepped plan');
  return plan;
}

const podsOf = (steps: StepEvent[], phase: 'waiting-ready' | 'ready'): string[] =>
  steps.flatMap((e) => (e.phase === phase ? [e.pod] : []));

describe('stepped scale-old-replicaset: the pod each step releases', () => {
  it('a not-Ready old pod goes before any marked one: the walk releases it first and names it', async () => {
    const { s, client } = await deadlocked();
    // The last old pod by name fails its readiness probe (picking by name would miss it).
    const pods = oldPods(s);
    const notReady = pods.at(-1);
    if (!notReady || pods.length !== 3) throw new Error('expected three old pods');
    makeNotReady(s, notReady);
    await s.waitFor(
      () =>
        oldPods(s).filter((p) =>
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'False'),
        ).length === 1,
    );
    const plan = await steppedPlan(client);
    const { released, stop } = recordReleases(s);
    const steps: StepEvent[] = [];
    try {
      const result = await applyPlan(client, plan, {
        step: { pollMs: 20, stepTimeoutMs: 30_000, onStep: (e) => steps.push(e) },
      });
      expect(result.status).toBe('applied');
    } finally {
      stop();
    }
    expect(released[0]).toBe(notReady.metadata.name);
    // What each step said it released is what went, in order.
    expect(podsOf(steps, 'waiting-ready')).toEqual(released);
    expect(podsOf(steps, 'ready')).toEqual(released);
    expect(steps.some((e) => 'marked' in e)).toBe(false);
    await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
  });

  it('when the controller releases another pod than the marked one, the step names the pod that went', async () => {
    const { s, client } = await deadlocked();
    const plan = await steppedPlan(client);
    // The moment the first mark lands, another old pod stops being Ready: the controller
    // then deletes that one, before the marked pod.
    let other: string | undefined;
    let marked: string | undefined;
    const unsubscribe = s.onChange(() => {
      if (marked) return;
      const pods = oldPods(s);
      const carrying = pods.find((p) => p.metadata.annotations?.[COST] !== undefined);
      if (!carrying) return;
      marked = carrying.metadata.name;
      const victim = pods.find((p) => p !== carrying);
      if (!victim) return;
      other = victim.metadata.name;
      makeNotReady(s, victim);
    });
    const { released, stop } = recordReleases(s);
    const steps: StepEvent[] = [];
    try {
      const result = await applyPlan(client, plan, {
        step: { pollMs: 20, stepTimeoutMs: 30_000, onStep: (e) => steps.push(e) },
      });
      expect(result.status).toBe('applied');
    } finally {
      unsubscribe();
      stop();
    }
    expect(other).toBeDefined();
    expect(released[0]).toBe(other);
    expect(steps[0]).toMatchObject({ phase: 'waiting-ready', step: 1, pod: other, marked });
    expect(podsOf(steps, 'waiting-ready')).toEqual(released);
    // The marked pod (still carrying the lowest cost) goes at the next step; no mark is left.
    expect(released[1]).toBe(marked);
    expect(oldPods(s)).toEqual([]);
    await s.waitFor(() => rolledOut(s), SIGNAL_WAIT_MS);
    expect((s.list('Pod', 'edge') as Pod[]).filter((p) => p.metadata.annotations?.[COST])).toEqual([]);
  });
});
