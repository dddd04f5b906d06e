/**
 * Pods that are never created (issue 29.1), live on the simulator, whose quota
 * admission words its refusals as kube-apiserver does and whose ReplicaSet controller
 * records FailedCreate and ReplicaFailure: a quota the old pods fill is the surge
 * deadlock, fixed by the strategy change until the rollout completes; a scale-up past
 * the quota is QuotaExceeded with no plan.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';

const API: WorkloadRef = { kind: 'Deployment', namespace: 'payments', name: 'api' };
let env: SimClient | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

/** `api`, 2 replicas of 200m, in a namespace whose quota allows 400m: its pods fill it. */
async function fullQuota(): Promise<SimClient> {
  env = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'quota-live');
  const { sim } = env;
  sim.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: API.namespace } });
  sim.apply({
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name: 'compute', namespace: API.namespace },
    spec: { hard: { 'requests.cpu': '400m', pods: '10' } },
  });
  await sim.waitFor(
    () => (sim.get('ResourceQuota', API.namespace, 'compute') as { status?: object }).status !== undefined,
  );
  sim.apply({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: API.name, namespace: API.namespace },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'api' } },
      template: {
        metadata: { labels: { app: 'api' } },
        spec: {
          containers: [{ name: 'api', image: 'payments/api:1.0', resources: { requests: { cpu: '200m' } } }],
        },
      },
    },
  });
  await sim.settle();
  await sim.waitFor(() => (deployment(sim).status?.availableReplicas ?? 0) === 2);
  return env;
}

function deployment(sim: SimClient['sim']): Deployment {
  return sim.get('Deployment', API.namespace, API.name) as Deployment;
}

async function patch(client: SimClient['client'], body: object): Promise<void> {
  await client.call({
    verb: 'patch',
    resource: 'deployments',
    namespace: API.namespace,
    name: API.name,
    contentType: 'application/strategic-merge-patch+json',
    body,
  });
}

async function failedCreate(sim: SimClient['sim']): Promise<void> {
  await sim.waitFor(() =>
    (sim.list('Event', API.namespace) as { reason?: string }[]).some((e) => e.reason === 'FailedCreate'),
  );
}

describe('pods a quota refuses, live', () => {
  it('a quota the old pods fill is the surge deadlock; the strategy change completes the rollout', async () => {
    const { sim, client } = await fullQuota();
    await patch(client, {
      spec: { template: { spec: { containers: [{ name: 'api', image: 'payments/api:1.1' }] } } },
    });
    await failedCreate(sim);

    const snapshot = await collectSnapshot(client, API);
    // The namespace has a quota: its pods are read whole, on any node, for the recount.
    expect(snapshot.coverage.namespacePods).toBe('complete');
    const diagnosis = diagnose(snapshot);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('RolloutSurgeDeadlock');
    expect(first?.summary).toContain('ResourceQuota compute refuses its new pods');
    expect(first?.evidence).toContainEqual(
      expect.objectContaining({
        type: 'quota',
        quota: 'compute',
        rows: [
          expect.objectContaining({ resource: 'requests.cpu', hard: '400m', used: '400m', ours: '400m' }),
        ],
      }),
    );
    const plans = diagnosis.remediations.filter((p) => first?.remediations.includes(p.id));
    expect(plans.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['set-rolling-update', 'set-recreate', 'scale-old-replicaset']),
    );
    expect(plans.map((p) => p.kind)).not.toContain('rollout-restart');
    const plan = plans.find((p) => p.kind === 'set-rolling-update');
    if (!plan) throw new Error('no strategy plan');
    expect(plan.summary).toContain('quota compute refuses is replaced');

    // scan lists it too, with the same verdict.
    const scan = await scanCluster(client, { namespace: API.namespace });
    expect(scan.entries).toEqual([
      expect.objectContaining({
        name: 'api',
        state: 'stuck',
        findings: expect.arrayContaining([expect.objectContaining({ code: 'RolloutSurgeDeadlock' })]),
      }),
    ]);

    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    if (result.status !== 'applied') return;
    const outcome = await watchRollout(client, API, {
      timeoutMs: 20_000,
      sinceGeneration: result.generation,
    });
    expect(outcome.outcome).toBe('complete');
    const images = (
      sim.list('Pod', API.namespace) as {
        metadata: { deletionTimestamp?: string };
        spec: { containers: { image: string }[] };
      }[]
    )
      .filter((p) => !p.metadata.deletionTimestamp)
      .map((p) => p.spec.containers[0]?.image);
    expect(images).toEqual(['payments/api:1.1', 'payments/api:1.1']);
  });

  it('a scale-up past the quota is QuotaExceeded, with nothing offered', async () => {
    const { sim, client } = await fullQuota();
    await patch(client, { spec: { replicas: 3 } });
    await failedCreate(sim);

    const diagnosis = diagnose(await collectSnapshot(client, API));
    const finding = diagnosis.findings.find((f) => f.code === 'QuotaExceeded');
    expect(finding?.severity).toBe('critical');
    expect(finding?.summary).toContain('ResourceQuota compute is full');
    expect(finding?.explanation).toContain(
      '3 × 200m for this workload alone is more than the hard limit 400m',
    );
    expect(finding?.remediations).toEqual([]);
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
  });
});
