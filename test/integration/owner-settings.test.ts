/**
 * The owner's settings read live from the simulator (a Flux Kustomization applying the
 * seed tracker with its strategy in Git): served only once its CRD is installed, read
 * with one discovery per process and group-version, and a refusal, an absent CRD or a
 * dump without it leave the verdict unknown with the read that settles it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKER } from '../../scripts/demo-scenario.js';
import { readScenarioFile } from '../../sim/scenario.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { gitSourceOf } from '../../src/propose/owner-source.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { shipTrackerImage } from '../support/sim-rollout.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const KS = { namespace: 'flux-system', name: 'apps' };
const KS_RESOURCE = 'kustomizations.kustomize.toolkit.fluxcd.io';

let dir: string;
const sims: Simulator[] = [];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'owner-settings-it-'));
});
afterAll(async () => {
  await Promise.all(sims.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** The seed scenario with the tracker applied by kustomize-controller, its strategy in Git. */
async function fluxScenario(extra: object[]): Promise<object[]> {
  const objects = (await readScenarioFile('sim/scenarios/gpu-deadlock.yaml')) as Record<string, unknown>[];
  const tracker = objects.find(
    (o) => o['kind'] === 'Deployment' && (o['metadata'] as { name?: string }).name === TRACKER.name,
  ) as unknown as Deployment;
  tracker.metadata.labels = {
    ...tracker.metadata.labels,
    'kustomize.toolkit.fluxcd.io/name': KS.name,
    'kustomize.toolkit.fluxcd.io/namespace': KS.namespace,
  };
  Object.assign(tracker.metadata, {
    managedFields: [
      {
        apiVersion: 'apps/v1',
        fieldsType: 'FieldsV1',
        manager: 'kustomize-controller',
        operation: 'Apply',
        time: '2026-11-22T02:00:00Z',
        fieldsV1: {
          'f:metadata': { 'f:labels': { 'f:app': {} } },
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:strategy': { 'f:rollingUpdate': { 'f:maxSurge': {}, 'f:maxUnavailable': {} } },
            'f:template': { 'f:spec': { 'f:nodeSelector': {} } },
          },
        },
      },
    ],
  });
  return [...objects, ...extra];
}

const CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: KS_RESOURCE },
  spec: { group: 'kustomize.toolkit.fluxcd.io', names: { kind: 'Kustomization', plural: 'kustomizations' } },
};
const kustomization = (suspend: boolean) => ({
  apiVersion: 'kustomize.toolkit.fluxcd.io/v1',
  kind: 'Kustomization',
  metadata: { name: KS.name, namespace: KS.namespace },
  spec: {
    interval: '10m',
    path: './apps',
    prune: true,
    suspend,
    sourceRef: { kind: 'GitRepository', name: 'flux-system' },
  },
});

async function deadlocked(extra: object[], name: string): Promise<{ sim: Simulator; client: KubeClient }> {
  const sim = await startSimulator({ scenario: await fluxScenario(extra), timeScale: 50 });
  sims.push(sim);
  const file = join(dir, name);
  writeFileSync(file, sim.kubeconfig);
  await sim.waitFor(
    () =>
      ((sim.get('Deployment', TRACKER.namespace, TRACKER.name) as Deployment).status?.availableReplicas ??
        0) === 1,
    SIGNAL_WAIT_MS,
  );
  await shipTrackerImage(sim, TRACKER);
  sim.clearRequests();
  return {
    sim,
    client: createKubeClient({ kubeconfig: file, retry: { attempts: 2, baseMs: 5, maxMs: 20 } }),
  };
}

const strategyPlan = (plans: readonly RemediationPlan[]): RemediationPlan => {
  const plan = plans.find((p) => p.kind === 'set-rolling-update');
  if (!plan) throw new Error(`no set-rolling-update among ${plans.map((p) => p.kind).join(', ')}`);
  return plan;
};

describe("the Deployment owner's settings, read live", () => {
  it('no Flux CRD: one discovery answers 404, cached for the next diagnosis; the Git field stays unknown and says why', async () => {
    const { sim, client } = await deadlocked([], 'absent');
    const first = await collectSnapshot(client, TRACKER);
    const second = await collectSnapshot(client, TRACKER);
    expect(first.ownerSettings).toMatchObject({ kind: 'Kustomization', state: 'not-served', ...KS });
    expect(second.ownerSettings?.state).toBe('not-served');
    const discovery = sim.requests.filter((r) => r.path === '/apis/kustomize.toolkit.fluxcd.io/v1');
    expect(discovery.map((r) => r.status)).toEqual([404]);
    expect(sim.requests.some((r) => r.resource === 'kustomizations')).toBe(false);
    expect(first.coverage.gaps).toContainEqual(
      expect.objectContaining({ about: 'owner', reason: 'not-served' }),
    );
    const drift = strategyPlan(diagnose(first).remediations).drift;
    expect(drift?.reverted).toBe('unknown');
    expect(drift?.why).toContain(`serves no ${KS_RESOURCE}`);
  });

  it('the Kustomization read: not suspended reverts the Git field; suspended keeps it; a refused read stays unknown and names the grant', async () => {
    const { sim, client } = await deadlocked([CRD, kustomization(false)], 'served');
    const snapshot = await collectSnapshot(client, TRACKER);
    expect(snapshot.ownerSettings).toMatchObject({ state: 'read', resource: KS_RESOURCE });
    expect(strategyPlan(diagnose(snapshot).remediations).drift?.reverted).toBe(true);

    sim.apply(kustomization(true));
    expect(strategyPlan(diagnose(await collectSnapshot(client, TRACKER)).remediations).drift).toMatchObject({
      reverted: false,
    });

    sim.addFault({ match: { verb: 'get', resource: 'kustomizations' }, status: 403 });
    const refused = await collectSnapshot(client, TRACKER);
    expect(refused.ownerSettings?.state).toBe('forbidden');
    expect(refused.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'owner',
        reason: 'forbidden',
        settle: expect.stringContaining(`grant get on ${KS_RESOURCE} in namespace ${KS.namespace}`),
      }),
    );
    const drift = strategyPlan(diagnose(refused).remediations).drift;
    expect(drift?.reverted).toBe('unknown');
    expect(drift?.why).toContain('forbidden');
  });

  it("the Kustomization's GitRepository is read with it: a pull request's repository, branch and path, live (issue 66)", async () => {
    const gitRepoCrd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gitrepositories.source.toolkit.fluxcd.io' },
      spec: {
        group: 'source.toolkit.fluxcd.io',
        names: { kind: 'GitRepository', plural: 'gitrepositories' },
      },
    };
    const gitRepository = {
      apiVersion: 'source.toolkit.fluxcd.io/v1',
      kind: 'GitRepository',
      metadata: { name: 'flux-system', namespace: KS.namespace },
      spec: { url: 'https://git.example/platform/fleet.git', ref: { branch: 'prod' }, interval: '1m' },
    };
    const { sim, client } = await deadlocked(
      [CRD, kustomization(false), gitRepoCrd, gitRepository],
      'source',
    );
    const snapshot = await collectSnapshot(client, TRACKER);
    expect(gitSourceOf(snapshot.ownerSettings)).toEqual({
      repo: 'https://git.example/platform/fleet.git',
      path: 'apps',
      base: 'prod',
      from: `Flux Kustomization ${KS.namespace}/${KS.name}`,
    });
    const reads = sim.requests.filter((r) => r.resource === 'gitrepositories');
    expect(reads.map((r) => [r.verb, r.namespace, r.status])).toEqual([['get', KS.namespace, 200]]);

    // Not granted: the diagnosis stands, and the source names the read that settles it.
    sim.addFault({ match: { verb: 'get', resource: 'gitrepositories' }, status: 403 });
    const refused = await collectSnapshot(client, TRACKER);
    expect(refused.ownerSettings?.state).toBe('read');
    expect(gitSourceOf(refused.ownerSettings)).toContain(
      'names GitRepository flux-system/flux-system, which was not read (kubectl get gitrepositories.source.toolkit.fluxcd.io flux-system -n flux-system -o yaml)',
    );
  });

  it('a dump holding the Kustomization uses it; one without says which object to add', async () => {
    const { sim } = await deadlocked([CRD, kustomization(true)], 'dump');
    const ns = TRACKER.namespace;
    const objects = [
      ...['Deployment', 'ReplicaSet', 'Pod', 'Event'].flatMap((kind) => sim.list(kind, ns)),
      ...sim.list('Node'),
    ] as KubeObject[];
    const withOwner = assembleSnapshot(TRACKER, [
      ...objects,
      sim.get('Kustomization', KS.namespace, KS.name) as KubeObject,
    ]);
    expect(withOwner.ownerSettings?.state).toBe('read');
    expect(strategyPlan(diagnose(withOwner).remediations).drift?.reverted).toBe(false);
    const without = assembleSnapshot(TRACKER, objects);
    expect(without.ownerSettings?.state).toBe('not-in-dump');
    expect(strategyPlan(diagnose(without).remediations).drift?.why).toContain(
      `kubectl get ${KS_RESOURCE} ${KS.name} -n ${KS.namespace} -o yaml`,
    );
  });
});
