/**
 * scale-old-replicaset on the simulator: seed incident A (one replica, the surge pod
 * needs the GPU the old pod holds) is diagnosed over HTTP, the plan scales the old
 * ReplicaSet to 0 through its scale subresource, the rollout completes, and the
 * Deployment's spec and generation are untouched. The executor's preconditions
 * (ReplicaSet uid, its replicas, its pod-template-hash, the Deployment's current new
 * ReplicaSet) each refuse a stale plan before any write.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { inversePlan } from '../../src/remediation/inverse.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { deadlockedIngress } from '../support/edge-ingress.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const GPU: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scale-rs-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const deployment = (s: Simulator): Deployment => s.get('Deployment', GPU.namespace, GPU.name) as Deployment;
const replicaSets = (s: Simulator): ReplicaSet[] => s.list('ReplicaSet', GPU.namespace) as ReplicaSet[];

/** Incident A: the tracker runs, then a new image deadlocks the rollout. */
async function deadlockedTracker(): Promise<{ sim: Simulator; client: KubeClient }> {
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, sim.kubeconfig);
  const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
  const s = sim;
  await s.settle();
  await s.waitFor(() => (deployment(s).status?.availableReplicas ?? 0) === 1);
  await client.call({
    verb: 'patch',
    resource: 'deployments',
    namespace: GPU.namespace,
    name: GPU.name,
    contentType: 'application/strategic-merge-patch+json',
    body: {
      spec: {
        template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } },
      },
    },
  });
  await s.waitFor(() =>
    (s.list('Event', GPU.namespace) as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
  return { sim: s, client };
}

async function scalePlan(client: KubeClient): Promise<RemediationPlan> {
  const result = diagnose(await collectSnapshot(client, GPU));
  const plan = result.remediations.find((p) => p.kind === 'scale-old-replicaset');
  if (!plan)
    throw new Error(`no scale-old-replicaset plan: ${result.remediations.map((p) => p.kind).join()}`);
  return plan;
}

describe('scale-old-replicaset on seed incident A (one replica)', () => {
  it('completes the deadlocked rollout with the Deployment spec and generation unchanged', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const before = deployment(s);
    const oldRs = replicaSets(s).find((rs) => rs.metadata.name === plan.replicaSet?.name);
    expect(oldRs?.spec.replicas).toBe(1);
    expect(plan.replicaSet?.newReplicaSet.name).not.toBe(plan.replicaSet?.name);
    expect(plan.impact).toContain('brief outage');

    const dry = await dryRunPlan(client, plan);
    expect(dry).toEqual({
      ok: true,
      changes: [{ path: `replicasets/${plan.replicaSet?.name ?? ''}/spec/replicas`, before: 1, after: 0 }],
    });
    // The dry run changed nothing.
    expect(replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid)?.spec.replicas).toBe(1);

    const applied = await applyPlan(client, plan);
    expect(applied.status).toBe('applied');
    if (applied.status === 'applied') expect(applied.generation).toBe(before.metadata.generation);

    await s.waitFor(() => {
      const d = deployment(s);
      return d.status?.updatedReplicas === 1 && d.status.availableReplicas === 1 && d.status.replicas === 1;
    });
    await s.settle();
    const after = deployment(s);
    expect(after.metadata.generation).toBe(before.metadata.generation);
    expect(after.spec).toEqual(before.spec);
    // The old ReplicaSet stays at 0; the write went to its scale, as rollout-doctor.
    const old = replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid);
    expect(old?.spec.replicas).toBe(0);
    const writes = s.requests.filter((r) => r.verb === 'patch');
    expect(writes.map((r) => `${r.resource}/${r.subresource ?? ''}`)).toEqual([
      'deployments/', // the rollout that deadlocked (the test's own patch)
      'replicasets/scale', // dryRunPlan
      'replicasets/scale', // applyPlan: dry run, then the write
      'replicasets/scale',
    ]);
    for (const w of writes.slice(1)) expect(w.query).toContain('fieldManager=rollout-doctor');
    expect(writes.map((w) => w.dryRun)).toEqual([false, true, true, false]);
    const managed = (old?.metadata as { managedFields?: { manager?: string; subresource?: string }[] })
      .managedFields;
    expect(managed?.some((m) => m.manager === 'rollout-doctor' && m.subresource === 'scale')).toBe(true);

    // Applying it again is recognised, not repeated.
    const again = await applyPlan(client, plan);
    expect(again.status).toBe('already-applied');
    expect(s.requests.filter((r) => r.verb === 'patch')).toHaveLength(4);
  });

  it.each([
    [
      'the ReplicaSet uid',
      (p: RemediationPlan) => {
        // A ReplicaSet of that name re-created since diagnosis: the sealed plan names the old uid.
        const uid = 'f1c2e3d4-0000-4000-a000-000000000001';
        const body = (p.patch?.body as { op: string; path: string; value: unknown }[]).map((op) =>
          op.path === '/metadata/uid' ? { ...op, value: uid } : op,
        );
        return {
          ...p,
          patch: { type: 'json' as const, body },
          replicaSet: p.replicaSet && { ...p.replicaSet, uid },
        };
      },
      /object replaced/,
    ],
    [
      'its pod-template-hash',
      (p: RemediationPlan) => ({
        ...p,
        replicaSet: p.replicaSet && { ...p.replicaSet, podTemplateHash: '5c7d9f8b6d' },
      }),
      /pod-template-hash/,
    ],
    [
      "the Deployment's current new ReplicaSet",
      (p: RemediationPlan) => ({
        ...p,
        replicaSet: p.replicaSet && {
          ...p.replicaSet,
          newReplicaSet: { ...p.replicaSet.newReplicaSet, uid: 'f1c2e3d4-0000-4000-a000-000000000002' },
        },
      }),
      /new ReplicaSet is no longer/,
    ],
  ] as const)('refuses before any write when %s differs', async (_label, stale, reason) => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const patchesBefore = s.requests.filter((r) => r.verb === 'patch').length;
    const result = await applyPlan(client, stale(plan) as RemediationPlan);
    expect(result.status).toBe('refused');
    if (result.status === 'refused') expect(result.reason).toMatch(reason);
    expect(s.requests.filter((r) => r.verb === 'patch').length).toBe(patchesBefore);
    expect(replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid)?.spec.replicas).toBe(1);
  });

  it("refuses when the ReplicaSet's replicas changed since diagnosis, naming spec.replicas", async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const rs = plan.replicaSet;
    if (!rs) throw new Error('no replicaSet');
    // Seen at diagnosis with 2 replicas: the live 1 differs (and the sealed test op would fail too).
    const stale: RemediationPlan = {
      ...plan,
      replicaSet: { ...rs, replicas: 2 },
      patch: {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: rs.uid },
          { op: 'test', path: '/spec/replicas', value: 2 },
          { op: 'replace', path: '/spec/replicas', value: 0 },
        ],
      },
    };
    const result = await applyPlan(client, stale);
    expect(result).toMatchObject({ status: 'refused', field: '/spec/replicas' });
    expect(replicaSets(s).find((r) => r.metadata.uid === rs.uid)?.spec.replicas).toBe(1);
  });

  it('a plan that scales up or writes anything else is refused as out of scope', async () => {
    const { client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const rs = plan.replicaSet;
    if (!rs) throw new Error('no replicaSet');
    const up: RemediationPlan = {
      ...plan,
      replicaSet: { ...rs, to: 5 },
      patch: {
        type: 'json',
        body: [
          { op: 'test', path: '/metadata/uid', value: rs.uid },
          { op: 'test', path: '/spec/replicas', value: 1 },
          { op: 'replace', path: '/spec/replicas', value: 5 },
        ],
      },
    };
    expect(await applyPlan(client, up)).toMatchObject({ status: 'refused', tampered: true });
    const untested: RemediationPlan = {
      ...plan,
      patch: { type: 'json', body: [{ op: 'replace', path: '/spec/replicas', value: 0 }] },
    };
    expect(await applyPlan(client, untested)).toMatchObject({ status: 'refused', tampered: true });
  });
});

/** Three replicas, each on its own edge node holding hostPort 8080: a new image deadlocks. */
describe('scale-old-replicaset with three replicas', () => {
  const EDGE: WorkloadRef = { kind: 'Deployment', namespace: 'edge', name: 'ingress' };

  it('the stepped plan completes the rollout keeping all but one replica available; the all-at-once one says OUTAGE', async () => {
    const { sim: s, client } = await deadlockedIngress(dir);
    sim = s;
    const result = diagnose(await collectSnapshot(client, EDGE));
    const [stepped, allAtOnce] = result.remediations.filter((p) => p.kind === 'scale-old-replicaset');
    expect(stepped?.replicaSet?.stepped).toBe(true);
    expect(stepped?.impact).toMatch(/^reduced capacity: 2 of 3 replicas keep serving/);
    expect(allAtOnce?.impact).toMatch(/^OUTAGE: all 3 old replicas go down at once/);
    if (!stepped) throw new Error('no stepped plan');
    const generation = (s.get('Deployment', 'edge', 'ingress') as Deployment).metadata.generation;

    const ready = (): number =>
      (
        s.list('Pod', 'edge') as {
          metadata: { deletionTimestamp?: string };
          status?: { conditions?: { type: string; status: string }[] };
        }[]
      ).filter(
        (p) =>
          !p.metadata.deletionTimestamp &&
          p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      ).length;
    let minReady = ready();
    const sampler = setInterval(() => {
      minReady = Math.min(minReady, ready());
    }, 1);
    const steps: string[] = [];
    const applied = await applyPlan(client, stepped, {
      onProgress: (step) => steps.push(step),
      step: { pollMs: 20, stepTimeoutMs: 15_000 },
    });
    await s.waitFor(() => {
      const d = s.get('Deployment', 'edge', 'ingress') as Deployment;
      return d.status?.updatedReplicas === 3 && d.status.availableReplicas === 3 && d.status.replicas === 3;
    }, SIGNAL_WAIT_MS);
    clearInterval(sampler);
    expect(minReady).toBeGreaterThanOrEqual(2);
    expect(applied.status).toBe('applied');
    expect(steps.filter((m) => /^step \d: /.test(m)).length).toBeGreaterThanOrEqual(1);
    const d = s.get('Deployment', 'edge', 'ingress') as Deployment;
    expect(d.metadata.generation).toBe(generation);
    const old = (s.list('ReplicaSet', 'edge') as ReplicaSet[]).find(
      (rs) => rs.metadata.uid === stepped.replicaSet?.uid,
    );
    expect(old?.spec.replicas).toBe(0);
    // Every pod write marked only the deletion cost, as rollout-doctor.
    const podWrites = s.requests.filter((r) => r.verb === 'patch' && r.resource === 'pods');
    expect(podWrites.length).toBeGreaterThanOrEqual(1);
    for (const w of podWrites) expect(w.query).toContain('fieldManager=rollout-doctor');
  });
});

describe('the Undo of scale-old-replicaset (scale-back-old-replicaset)', () => {
  it('scales the old ReplicaSet back while the new pod is not Ready; the Deployment is not written', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const before = deployment(s);
    // The surge pod takes the GPU but stays not-Ready until released: the rollout is in flight.
    s.readiness.hold();
    try {
      const applied = await applyPlan(client, plan);
      if (applied.status !== 'applied') throw new Error(`not applied: ${JSON.stringify(applied)}`);
      await s.waitFor(() => s.readiness.waiting() === 1, SIGNAL_WAIT_MS);
      const undo = inversePlan(plan, applied);
      if (!undo) throw new Error('no undo');
      expect(undo).toMatchObject({ kind: 'scale-back-old-replicaset', replicaSet: { replicas: 0, to: 1 } });
      expect(await dryRunPlan(client, undo)).toEqual({
        ok: true,
        changes: [{ path: `replicasets/${plan.replicaSet?.name ?? ''}/spec/replicas`, before: 0, after: 1 }],
      });
      s.clearRequests();
      expect(await applyPlan(client, undo)).toMatchObject({
        status: 'applied',
        generation: before.metadata.generation,
      });
      expect(replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid)?.spec.replicas).toBe(1);
      expect(
        s.requests
          .filter((r) => r.verb === 'patch')
          .map((r) => `${r.resource}/${r.subresource ?? ''} ${String(r.dryRun)}`),
      ).toEqual(['replicasets/scale true', 'replicasets/scale false']);
      // Applied again (a retry): already in place, nothing written.
      expect((await applyPlan(client, undo)).status).toBe('already-applied');
      expect(deployment(s).metadata.generation).toBe(before.metadata.generation);
    } finally {
      s.readiness.release();
    }
    // The new pod Ready, the rollout completes and the controller scales the old one down again.
    await s.waitFor(() => {
      const d = deployment(s);
      return d.status?.updatedReplicas === 1 && d.status.availableReplicas === 1 && d.status.replicas === 1;
    }, SIGNAL_WAIT_MS);
    await s.waitFor(
      () => replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid)?.spec.replicas === 0,
    );
  });

  it('is refused once the new ReplicaSet is fully available, saying to roll the Deployment back', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await scalePlan(client);
    const applied = await applyPlan(client, plan);
    if (applied.status !== 'applied') throw new Error('not applied');
    await s.waitFor(
      () => deployment(s).status?.availableReplicas === 1 && deployment(s).status?.updatedReplicas === 1,
      SIGNAL_WAIT_MS,
    );
    const undo = inversePlan(plan, applied);
    if (!undo) throw new Error('no undo');
    const dry = await dryRunPlan(client, undo);
    expect(dry).toMatchObject({ ok: false });
    s.clearRequests();
    const result = await applyPlan(client, undo);
    expect(result).toMatchObject({ status: 'refused' });
    expect('reason' in result && result.reason).toMatch(
      /is fully available \(1 of 1\): the Deployment controller would scale \S+ straight back down/,
    );
    expect('reason' in result && result.reason).toContain(
      `kubectl rollout undo deployment/${GPU.name} -n ${GPU.namespace}`,
    );
    expect(s.requests.filter((r) => r.verb === 'patch')).toEqual([]);
    expect(replicaSets(s).find((rs) => rs.metadata.uid === plan.replicaSet?.uid)?.spec.replicas).toBe(0);
  });
});
