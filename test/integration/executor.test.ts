/**
 * The seed incidents reproduced live on the simulator: roll out, observe the stuck
 * state, collect and diagnose over HTTP, apply the proposed remediation through the
 * executor, and follow the rollout to its end. Plus refusals and injected failures.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import type { RemediationPlan, WorkloadPatchPlan } from '../../src/remediation/plan.js';

const GPU: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
const SHOP: WorkloadRef = { kind: 'Deployment', namespace: 'shop', name: 'checkout' };

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'executor-it-'));
});

afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The node lists a collection made, by label selector ('all': none). */
function nodeLists(s: Simulator): string[] {
  return s.requests
    .filter((r) => r.verb === 'list' && r.resource === 'nodes')
    .map((r) => new URLSearchParams(r.query ?? '').get('labelSelector') ?? 'all')
    .sort();
}

async function start(scenario: string): Promise<{ sim: Simulator; client: KubeClient }> {
  sim = await startSimulator({ scenario: `sim/scenarios/${scenario}.yaml`, timeScale: 50 });
  const file = join(dir, scenario);
  writeFileSync(file, sim.kubeconfig);
  return {
    sim,
    client: createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } }),
  };
}

function deployment(s: Simulator, ref: WorkloadRef): Deployment {
  return s.get('Deployment', ref.namespace, ref.name) as Deployment;
}

function pods(s: Simulator, namespace: string): Pod[] {
  return s.list('Pod', namespace) as Pod[];
}

/** Incident A: the tracker runs, then a new image deadlocks the rollout. */
async function deadlockedTracker(): Promise<{ sim: Simulator; client: KubeClient }> {
  const env = await start('gpu-deadlock');
  await env.sim.settle();
  await env.sim.waitFor(() => (deployment(env.sim, GPU).status?.availableReplicas ?? 0) === 1);
  await env.client.call({
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
  await env.sim.waitFor(() =>
    (env.sim.list('Event', GPU.namespace) as { reason?: string }[]).some(
      (e) => e.reason === 'FailedScheduling',
    ),
  );
  return env;
}

async function planFor(client: KubeClient, ref: WorkloadRef, code: string): Promise<RemediationPlan> {
  const diagnosis = diagnose(await collectSnapshot(client, ref));
  expect(diagnosis.findings.map((f) => f.code)).toContain(code);
  const finding = diagnosis.findings.find((f) => f.code === code);
  const plan = diagnosis.remediations.find((p) => p.id === finding?.remediations[0]);
  if (!plan) throw new Error(`no remediation for ${code}`);
  return plan;
}

describe('incident A live: surge deadlock on the only GPU node', () => {
  it('diagnoses the stuck rollout, applies the fix once, and the rollout completes', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const stuck = pods(s, GPU.namespace);
    expect(stuck.map((p) => p.status?.phase).sort()).toEqual(['Pending', 'Running']);

    const plan = await planFor(client, GPU, 'RolloutSurgeDeadlock');
    s.clearRequests();
    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    const patches = s.requests.filter((r) => r.verb === 'patch');
    expect(patches.map((p) => p.dryRun)).toEqual([true, false]);
    if (result.status !== 'applied') return;
    expect(result.changes).toContainEqual({
      path: '/spec/strategy/rollingUpdate/maxSurge',
      before: '25%',
      after: 0,
    });

    // Polling once a minute: only the watch can wake the watcher in time.
    const started = Date.now();
    const outcome = await watchRollout(client, GPU, {
      timeoutMs: 15_000,
      sinceGeneration: result.generation,
      pollMs: 60_000,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.outcome).toBe('complete');
    const running = pods(s, GPU.namespace).filter((p) => !p.metadata.deletionTimestamp);
    expect(running.map((p) => [p.spec.nodeName, p.status?.phase, p.spec.containers[0]?.image])).toEqual([
      ['gpu-node-1', 'Running', 'vision/boost-track-app:1.1'],
    ]);

    // A remediation job retried after a worker crash applies nothing twice.
    s.clearRequests();
    expect(await applyPlan(client, plan)).toMatchObject({ status: 'already-applied' });
    expect(s.requests.filter((r) => r.verb === 'patch')).toEqual([]);
  });

  it('refuses when someone changed the Deployment after the diagnosis', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await planFor(client, GPU, 'RolloutSurgeDeadlock');
    await client.call({
      verb: 'patch',
      resource: 'deployments',
      namespace: GPU.namespace,
      name: GPU.name,
      contentType: 'application/merge-patch+json',
      body: { spec: { replicas: 2 } },
    });
    expect(await dryRunPlan(client, plan)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('spec changed'),
    });
    s.clearRequests();
    const result = await applyPlan(client, plan);
    expect(result).toMatchObject({
      status: 'refused',
      reason: expect.stringContaining('spec changed since diagnosis'),
    });
    expect(s.requests.filter((r) => r.verb === 'patch')).toEqual([]);
    expect(deployment(s, GPU).spec.strategy?.rollingUpdate?.maxSurge).toBe('25%');
  });

  it('re-checks after a 409 instead of retrying blindly, and never retries a failed write', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = await planFor(client, GPU, 'RolloutSurgeDeadlock');

    s.addFault({ match: { verb: 'patch', resource: 'deployments' }, status: 500, times: 1 });
    s.clearRequests();
    const rejected = await applyPlan(client, plan);
    expect(rejected).toMatchObject({ status: 'failed', retryable: true });
    // The server answered (500): the write definitely did not land.
    expect(rejected).not.toHaveProperty('outcomeUnknown');
    expect(s.requests.filter((r) => r.verb === 'patch')).toHaveLength(1);

    // A real write whose connection is reset has an unknown outcome, and says so.
    s.addFault({ match: { verb: 'patch', resource: 'deployments', dryRun: false }, reset: true, times: 1 });
    expect(await applyPlan(client, plan)).toMatchObject({ status: 'failed', outcomeUnknown: true });

    s.addFault({ match: { verb: 'patch', resource: 'deployments' }, status: 409, times: 1 });
    s.clearRequests();
    expect(await applyPlan(client, plan)).toMatchObject({ status: 'applied' });
    const sequence = s.requests.map((r) => `${r.verb}${r.dryRun ? ' dry' : ''} ${r.status}`);
    expect(sequence).toEqual(['get 200', 'patch dry 409', 'get 200', 'patch dry 200', 'patch 200']);
  });
});

describe('rollout watcher', () => {
  it('a paused Deployment: the restart waits for the resume, said at once rather than at the time limit', async () => {
    const { sim: s, client } = await deadlockedTracker();
    const patchDeployment = (body: object) =>
      client.call({
        verb: 'patch',
        resource: 'deployments',
        namespace: GPU.namespace,
        name: GPU.name,
        contentType: 'application/strategic-merge-patch+json',
        body,
      });
    await patchDeployment({ spec: { paused: true } });
    const plan = await planFor(client, GPU, 'RolloutSurgeDeadlock');
    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    // Polling once a minute and 20 s allowed: only the paused check ends this in time.
    const started = Date.now();
    const outcome = await watchRollout(client, GPU, {
      timeoutMs: 20_000,
      sinceGeneration: result.status === 'applied' ? result.generation : undefined,
      pollMs: 60_000,
    });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome).toEqual({
      outcome: 'paused',
      summary:
        'deployment "vision-object-tracker" is paused and no ReplicaSet runs its pod template yet: nothing rolls out until it is resumed (kubectl rollout resume deployment/vision-object-tracker -n vision)',
    });

    // Resumed, the same change rolls out.
    await patchDeployment({ spec: { paused: false } });
    const resumed = await watchRollout(client, GPU, { timeoutMs: 15_000, pollMs: 50 });
    expect(resumed.outcome).toBe('complete');
    expect(deployment(s, GPU).spec.paused).toBe(false);
  });

  it('falls back to polling when the watch is refused, and reports a timeout', async () => {
    const { sim: s, client } = await deadlockedTracker();
    s.addFault({ match: { verb: 'watch', resource: 'deployments' }, status: 403 });
    const stuck = await watchRollout(client, GPU, { timeoutMs: 300, pollMs: 50 });
    expect(stuck.outcome).toBe('timeout');
    expect(stuck.summary).toBe(
      'gave up after 0.3 s: Waiting for deployment "vision-object-tracker" rollout to finish: 1 old replicas are pending termination...',
    );
    const plan = await planFor(client, GPU, 'RolloutSurgeDeadlock');
    const result = await applyPlan(client, plan);
    const outcome = await watchRollout(client, GPU, {
      timeoutMs: 15_000,
      sinceGeneration: result.status === 'applied' ? result.generation : undefined,
      pollMs: 50,
    });
    expect(outcome.outcome).toBe('complete');
    expect(s.requests.some((r) => r.verb === 'watch' && r.status === 403)).toBe(true);
  });
});

describe('incident B live: crash loop on one node', () => {
  it('excludes the bad node and the pods move off it', async () => {
    const { sim: s, client } = await start('crashloop-node');
    await s.settle();
    await s.waitFor(() =>
      pods(s, SHOP.namespace).some((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2),
    );
    const snapshot = await collectSnapshot(client, SHOP);
    const crashing = snapshot.pods.find((p) => p.spec.nodeName === 'node-b');
    expect(snapshot.logs[`${crashing?.metadata.name ?? ''}/checkout`]).toContain('SIGILL');

    const plan = await planFor(client, SHOP, 'CrashLoopOnNode');
    expect(plan.kind).toBe('exclude-node');
    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    const outcome = await watchRollout(client, SHOP, {
      timeoutMs: 15_000,
      sinceGeneration: result.status === 'applied' ? result.generation : undefined,
      pollMs: 100,
    });
    expect(outcome.outcome).toBe('complete');
    const live = pods(s, SHOP.namespace).filter((p) => !p.metadata.deletionTimestamp);
    expect(live).toHaveLength(3);
    expect(live.every((p) => p.spec.nodeName !== 'node-b' && p.status?.phase === 'Running')).toBe(true);
  });

  it("reads the pods on the nodes that stay eligible (not the crashing one), so the exclusion's room is known", async () => {
    const { sim: s, client } = await start('crashloop-node');
    await s.settle();
    await s.waitFor(() =>
      pods(s, SHOP.namespace).some((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2),
    );
    s.clearRequests();
    const snapshot = await collectSnapshot(client, SHOP);
    const cluster = s.requests
      .filter((r) => r.verb === 'list' && r.resource === 'pods' && r.namespace === undefined)
      .map((r) => new URLSearchParams(r.query ?? '').get('fieldSelector')?.split(',')[0])
      .sort();
    // One list of the pods waiting for a node, every namespace (forward/rivals.ts), and
    // the pods on each node that stays eligible.
    expect(cluster).toEqual(['spec.nodeName=', 'spec.nodeName=node-a', 'spec.nodeName=node-c']);
    expect(snapshot.coverage.podsReadOn).toEqual(['node-a', 'node-c']);
    // The template may go anywhere: the nodes it may use are listed (one capped list, issue
    // 29.7), so the impact counts them all; their other pods are read where ours run.
    expect(snapshot.coverage.nodes).toBe('complete');
    // One list of every node (capped at 500): it holds the nodes our pods run on, so they
    // are not read again by hostname.
    expect(nodeLists(s)).toEqual(['all']);
    expect(snapshot.nodes.map((n) => n.metadata.name).sort()).toEqual(['node-a', 'node-b', 'node-c']);
    const plan = diagnose(snapshot).remediations.find((r) => r.kind === 'exclude-node');
    expect(plan?.warnings).toEqual([]);
    expect(plan?.impact).toContain('2 of 3 eligible node(s) stay eligible: node-a, node-c; node-b excluded.');
    expect(plan?.impact).not.toContain('not read');
  });

  it('reads the nodes our pods run on by hostname when the list of every node was refused', async () => {
    const { sim: s, client } = await start('crashloop-node');
    await s.settle();
    await s.waitFor(() =>
      pods(s, SHOP.namespace).some((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2),
    );
    s.clearRequests();
    s.addFault({ match: { verb: 'list', resource: 'nodes' }, status: 403, times: 1 });
    const snapshot = await collectSnapshot(client, SHOP);
    expect(nodeLists(s)).toEqual(['all', 'kubernetes.io/hostname in (node-a,node-b,node-c)']);
    expect(snapshot.nodes.map((n) => n.metadata.name).sort()).toEqual(['node-a', 'node-b', 'node-c']);
    expect(snapshot.coverage.nodes).toBe('partial');
    expect(diagnose(snapshot).findings.map((f) => f.code)).toContain('CrashLoopOnNode');
  });

  it('guards the JSON patch with the resourceVersion: a write landing mid-apply is re-checked', async () => {
    const { sim: s, client } = await start('crashloop-node');
    await s.settle();
    await s.waitFor(() =>
      pods(s, SHOP.namespace).some((p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2),
    );
    const plan = await planFor(client, SHOP, 'CrashLoopOnNode');
    expect(plan.patch?.type).toBe('json');
    // Hold the first patch (the dry run) while someone else writes the Deployment's metadata.
    s.addFault({ match: { verb: 'patch', resource: 'deployments' }, delayMs: 300, times: 1 });
    s.clearRequests();
    const applying = applyPlan(client, plan);
    // Write once the simulator holds the dry run (it records a request on arrival, before
    // the 300 ms hold): a signal, where a 100 ms sleep guessed the patch was in flight.
    await s.waitFor(() => s.requests.some((r) => r.verb === 'patch' && r.dryRun));
    const current = deployment(s, SHOP);
    current.metadata.annotations = { ...current.metadata.annotations, 'team.example/owner': 'payments' };
    s.apply(current);
    const result = await applying;
    expect(result.status).toBe('applied');
    const sequence = s.requests.map((r) => `${r.verb}${r.dryRun ? ' dry' : ''} ${r.status}`);
    expect(sequence).toEqual(['get 200', 'patch dry 409', 'get 200', 'patch dry 200', 'patch 200']);
    expect(deployment(s, SHOP).metadata.annotations?.['team.example/owner']).toBe('payments');
  });
});

describe('patch allowlist live', () => {
  it.each([
    [
      'privileged hostPID alongside the strategy',
      (p: RemediationPlan): RemediationPlan => ({
        ...(p as WorkloadPatchPlan),
        patch: {
          type: 'strategic-merge',
          body: { spec: { strategy: { type: 'Recreate' }, template: { spec: { hostPID: true } } } },
        },
      }),
    ],
    [
      'image change as a JSON patch',
      (p: RemediationPlan): RemediationPlan => ({
        ...(p as WorkloadPatchPlan),
        patch: {
          type: 'json',
          body: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'evil:1' }],
        },
      }),
    ],
    [
      'a $patch: replace directive on the pod spec',
      (p: RemediationPlan): RemediationPlan => ({
        ...(p as WorkloadPatchPlan),
        patch: {
          type: 'strategic-merge',
          body: {
            spec: { template: { spec: { $patch: 'replace', containers: [{ name: 'x', image: 'y' }] } } },
          },
        },
      }),
    ],
  ])('refuses %s with no request sent and the Deployment unchanged', async (_name, alter) => {
    const { sim: s, client } = await deadlockedTracker();
    const plan = alter(await planFor(client, GPU, 'RolloutSurgeDeadlock'));
    const before = deployment(s, GPU).metadata;
    s.clearRequests();
    const result = await applyPlan(client, plan);
    expect(result).toMatchObject({ status: 'refused' });
    expect(s.requests.filter((r) => r.verb === 'patch')).toEqual([]);
    const after = deployment(s, GPU).metadata;
    expect([after.resourceVersion, after.generation]).toEqual([before.resourceVersion, before.generation]);
  });
});
