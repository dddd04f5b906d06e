/**
 * Writes under the field manager `rollout-doctor`, on the simulator: seed incident A
 * on a Deployment that Flux's kustomize-controller applies from Git without a
 * strategy. The diagnosis names the owner and says the strategy patch survives
 * (a field outside Git written by a non-kubectl manager); after the apply the
 * Deployment's managedFields show rollout-doctor owning exactly what it changed, and
 * kustomize-controller's applied set untouched.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';

const GPU: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };

let dir: string;
let sim: Simulator | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'field-manager-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** kustomize-controller's server-side apply of the Git manifest (no strategy in it). */
const FLUX_APPLY = {
  manager: 'kustomize-controller',
  operation: 'Apply',
  apiVersion: 'apps/v1',
  time: '2026-11-22T01:50:00Z',
  fieldsType: 'FieldsV1',
  fieldsV1: {
    'f:metadata': {
      'f:labels': {
        'f:app': {},
        'f:kustomize.toolkit.fluxcd.io/name': {},
        'f:kustomize.toolkit.fluxcd.io/namespace': {},
      },
    },
    'f:spec': {
      'f:replicas': {},
      'f:selector': {},
      'f:template': {
        'f:metadata': { 'f:labels': { 'f:app': {} } },
        'f:spec': {
          'f:containers': { 'k:{"name":"tracker"}': { '.': {}, 'f:image': {}, 'f:name': {} } },
          'f:nodeSelector': {},
        },
      },
    },
  },
};

/** The seed tracker on the simulator, settled, with a client for it. */
async function startTracker(): Promise<{ s: Simulator; client: KubeClient }> {
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, sim.kubeconfig);
  const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
  await sim.settle();
  return { s: sim, client };
}

async function send(s: Simulator, contentType: string, body: unknown): Promise<void> {
  const res = await fetch(`${s.url}/apis/apps/v1/namespaces/${GPU.namespace}/deployments/${GPU.name}`, {
    method: 'PATCH',
    headers: { 'Content-Type': contentType },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
}

it('a strategy patch by rollout-doctor on a Flux-applied Deployment: said to survive, and recorded under rollout-doctor', async () => {
  const { s, client } = await startTracker();
  const d = (): Deployment => s.get('Deployment', GPU.namespace, GPU.name) as Deployment;
  await s.waitFor(() => (d().status?.availableReplicas ?? 0) === 1);
  // What Flux's apply leaves on the object, then the new image from Git.
  await send(s, 'application/merge-patch+json', {
    metadata: {
      labels: {
        'kustomize.toolkit.fluxcd.io/name': 'apps',
        'kustomize.toolkit.fluxcd.io/namespace': 'flux-system',
      },
      managedFields: [FLUX_APPLY],
    },
  });
  await send(s, 'application/strategic-merge-patch+json', {
    spec: { template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } } },
  });
  await s.waitFor(() =>
    (s.list('Event', GPU.namespace) as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );

  const result = diagnose(await collectSnapshot(client, GPU));
  expect(result.managedBy).toMatchObject({ tool: 'flux-kustomize', name: 'apps', namespace: 'flux-system' });
  const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
  expect(plan?.drift).toMatchObject({ reverted: false, by: 'Flux Kustomization flux-system/apps' });
  expect(plan?.drift?.why).toContain('rollout-doctor');
  if (!plan) throw new Error('no set-rolling-update plan');

  expect((await applyPlan(client, plan)).status).toBe('applied');
  const managed = (
    d().metadata as { managedFields?: { manager?: string; operation?: string; fieldsV1?: object }[] }
  ).managedFields;
  const ours = managed?.find((m) => m.manager === 'rollout-doctor');
  expect(ours?.operation).toBe('Update');
  expect(ours?.fieldsV1).toMatchObject({
    'f:spec': {
      'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } },
      'f:template': { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/restartedAt': {} } } },
    },
  });
  // Nothing Flux applied changed hands: its set is as it was.
  expect(managed?.find((m) => m.manager === 'kustomize-controller')?.fieldsV1).toEqual(FLUX_APPLY.fieldsV1);
});

it('a seeded Deployment reads as a real API server keeps it (created by kubectl): no owner recognised, and said not reverted', async () => {
  const { s, client } = await startTracker();
  const managers = (
    (s.get('Deployment', GPU.namespace, GPU.name) as Deployment).metadata as {
      managedFields?: { manager?: string; operation?: string; fieldsV1?: object }[];
    }
  ).managedFields;
  expect(managers?.map((m) => `${m.manager} ${m.operation}`)).toContain('kubectl-create Update');
  expect(managers?.find((m) => m.manager === 'kubectl-create')?.fieldsV1).toMatchObject({
    'f:spec': { 'f:template': {} },
  });
  await send(s, 'application/strategic-merge-patch+json', {
    spec: { template: { spec: { containers: [{ name: 'tracker', image: 'vision/boost-track-app:1.1' }] } } },
  });
  await s.waitFor(() =>
    (s.list('Event', GPU.namespace) as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
  const result = diagnose(await collectSnapshot(client, GPU));
  expect(result.managedBy).toBeUndefined();
  const specWrites = result.remediations.filter((p) => p.kind !== 'scale-old-replicaset');
  expect(specWrites.map((p) => p.kind)).toContain('set-rolling-update');
  for (const plan of specWrites) {
    expect(plan.drift).toMatchObject({ reverted: false, ownerRecognised: false });
    expect(plan.drift?.why).toContain('kubectl-create');
  }
});
