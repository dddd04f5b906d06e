/**
 * scan over the simulator: finds the at-risk GPU tracker before anyone rolls out,
 * the stuck one mid-deadlock, pages through Deployments, and reads per namespace
 * rather than per Deployment.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCluster } from '../../bench/collector.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { ClusterError } from '../../src/kube/errors.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { draSeed } from '../support/dra-builders.js';

let dir: string;
let sim: Simulator | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'scan-it-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function start(
  scenario: string | object[],
  controllers = true,
): Promise<{ s: Simulator; client: KubeClient }> {
  sim = await startSimulator({ scenario, timeScale: 50, controllers });
  const file = join(dir, `kc-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, sim.kubeconfig);
  return {
    s: sim,
    client: createKubeClient({ kubeconfig: file, retry: { attempts: 2, baseMs: 5, maxMs: 10 } }),
  };
}

/** A healthy Deployment whose rollout finished, with nothing scarce in its template. */
function healthy(namespace: string, name: string): object {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, generation: 1 },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'app', image: `${name}:1` }] },
      },
    },
    status: {
      observedGeneration: 1,
      replicas: 2,
      updatedReplicas: 2,
      readyReplicas: 2,
      availableReplicas: 2,
    },
  };
}

describe('scanCluster', () => {
  it('predicts the GPU deadlock before the next rollout', async () => {
    const { s, client } = await start('sim/scenarios/gpu-deadlock.yaml');
    await s.settle();
    await s.waitFor(
      () =>
        ((
          s.get('Deployment', 'vision', 'vision-object-tracker') as {
            status?: { availableReplicas?: number };
          }
        ).status?.availableReplicas ?? 0) === 1,
    );
    const report = await scanCluster(client, { namespace: 'vision' });
    expect(report.entries).toEqual([
      expect.objectContaining({
        namespace: 'vision',
        name: 'vision-object-tracker',
        state: 'at-risk',
        findings: [expect.objectContaining({ code: 'RolloutAtRisk' })],
      }),
    ]);
  });

  it('predicts the DRA twin too: the GPU comes through a claim per pod', async () => {
    const { s, client } = await start('sim/scenarios/gpu-deadlock-dra.yaml');
    await s.settle();
    await s.waitFor(
      () =>
        ((
          s.get('Deployment', 'vision', 'vision-object-tracker') as {
            status?: { availableReplicas?: number };
          }
        ).status?.availableReplicas ?? 0) === 1,
    );
    s.clearRequests();
    const report = await scanCluster(client, { namespace: 'vision' });
    expect(report.entries).toEqual([
      expect.objectContaining({
        name: 'vision-object-tracker',
        state: 'at-risk',
        findings: [expect.objectContaining({ code: 'RolloutAtRisk' })],
      }),
    ]);
    expect(report.entries[0]?.findings[0]?.summary).toContain('device of class gpu.nvidia.com');
    expect(s.requests.filter((r) => r.resource === 'resourceclaims').map((r) => r.namespace ?? '*')).toEqual([
      '*',
    ]);
  });

  it('pages through every Deployment and reads per namespace, not per Deployment', async () => {
    const extra = Array.from({ length: 40 }, (_, i) => healthy(`team-${i % 5}`, `web-${i}`));
    const { s, client } = await start([...generateCluster({ nodes: 10, pods: 100 }), ...extra], false);
    const progress: [number, number | undefined][] = [];
    s.clearRequests();
    const report = await scanCluster(client, {
      allNamespaces: true,
      pageSize: 10,
      onProgress: (done, total) => progress.push([done, total]),
    });
    expect(report.scanned).toBe(41);
    expect(report.diagnosed).toBe(1);
    expect(report.entries.map((e) => [e.namespace, e.name, e.state, e.findings[0]?.code])).toEqual([
      ['vision', 'vision-object-tracker', 'stuck', 'RolloutSurgeDeadlock'],
    ]);
    expect(progress.at(-1)?.[0]).toBe(41);
    const deploymentPages = s.requests.filter((r) => r.resource === 'deployments');
    expect(deploymentPages).toHaveLength(5);
    expect(deploymentPages.every((r) => r.verb === 'list' && (r.query ?? '').includes('limit=10'))).toBe(
      true,
    );
    const others = s.requests
      .filter((r) => r.resource !== 'deployments')
      .map((r) => (r.resource ? `${r.verb} ${r.resource} ${r.namespace ?? '*'}` : `${r.method} ${r.path}`));
    expect(others.sort()).toEqual(
      [
        // Every other workload kind: one page each (none here).
        'list daemonsets *',
        'list statefulsets *',
        // No Argo Rollouts here: the list 404s and discovery says the CRD is not served.
        'GET /apis/argoproj.io/v1alpha1/rollouts',
        'GET /apis/argoproj.io/v1alpha1',
        'list events vision',
        'list nodes *',
        'list pods *',
        'list pods vision',
        'list replicasets vision',
        // The tracker asks for nvidia.com/gpu: no DeviceClass backs it here.
        'list deviceclasses *',
      ].sort(),
    );
  });

  it("reads each neighbour's Deployment or Rollout once per scan, whichever workload asks first", async () => {
    // alpha and gamma (Deployments) and beta (an Argo Rollout) each hold GPUs beside the
    // others: every one of them is the others' neighbour.
    const dump = join(import.meta.dirname, '../fixtures/dumps/neighbour-rollouts-mixed.json');
    const items = (JSON.parse(readFileSync(dump, 'utf8')) as { items: object[] }).items;
    const { s, client } = await start(items, false);
    s.clearRequests();
    const report = await scanCluster(client, { namespace: 'ml' });
    expect(report.diagnosed).toBeGreaterThanOrEqual(2);
    const gets = s.requests
      .filter((r) => r.verb === 'get' && (r.resource === 'deployments' || r.resource === 'rollouts'))
      .map((r) => `${r.resource ?? ''} ${r.name ?? ''}`);
    expect(gets.length).toBeGreaterThan(0);
    expect(gets.filter((g, i) => gets.indexOf(g) !== i)).toEqual([]);
  });

  it('a refused DeviceClass list is noted only when a verdict could depend on it', async () => {
    // The seed tracker: its GPU is a device plugin's (in the node's allocatable).
    const plugin = await start(generateCluster({ nodes: 10, pods: 100 }), false);
    try {
      plugin.s.addFault({ match: { verb: 'list', resource: 'deviceclasses' }, status: 403 });
      const quiet = await scanCluster(plugin.client, { namespace: 'vision' });
      expect(quiet.entries.map((e) => e.findings[0]?.code)).toEqual(['RolloutSurgeDeadlock']);
      expect(quiet.accessProblems.map((p) => p.resource)).toEqual([]);
    } finally {
      await plugin.s.close();
    }
    // The DRA twin asking nvidia.com/gpu: no node advertises it, so a DeviceClass may serve it.
    const { snapshot } = draSeed({ mode: 'extended' });
    const dra = await start(
      [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
        snapshot.deployment,
        ...snapshot.replicaSets,
        ...snapshot.pods,
        ...snapshot.events,
        ...snapshot.nodes,
      ],
      false,
    );
    dra.s.addFault({ match: { verb: 'list', resource: 'deviceclasses' }, status: 403 });
    const noted = await scanCluster(dra.client, { namespace: 'vision' });
    expect(noted.accessProblems.map((p) => p.resource)).toEqual(['deviceclasses']);
  });

  it('reports a crash loop as a stuck rollout', async () => {
    const { s, client } = await start('sim/scenarios/crashloop-node.yaml');
    await s.settle();
    await s.waitFor(() =>
      (s.list('Pod', 'shop') as { status?: { containerStatuses?: { restartCount: number }[] } }[]).some(
        (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
      ),
    );
    const report = await scanCluster(client, { namespace: 'shop' });
    expect(report.entries.map((e) => [e.name, e.state])).toEqual([['checkout', 'stuck']]);
    expect(report.entries[0]?.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
  });

  it('reports a kind it may not list (a worker upgraded before its RBAC) and scans the others', async () => {
    const { s, client } = await start(generateCluster({ nodes: 10, pods: 100 }), false);
    s.addFault({ match: { verb: 'list', resource: 'daemonsets' }, status: 403 });
    const report = await scanCluster(client, { namespace: 'vision' });
    expect(report.entries.map((e) => [e.kind, e.name])).toEqual([['Deployment', 'vision-object-tracker']]);
    expect(report.accessProblems.map((p) => `${p.verb} ${p.resource} ${p.status}`)).toContain(
      'list daemonsets 403',
    );
  });

  it('fails with a ClusterError naming the permission when Deployments cannot be listed', async () => {
    const { s, client } = await start(generateCluster({ nodes: 2, pods: 0 }), false);
    s.addFault({ match: { verb: 'list', resource: 'deployments' }, status: 403 });
    const error = await scanCluster(client, { allNamespaces: true }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ClusterError);
    expect((error as Error).message).toBe(
      'cannot list deployments (cluster-wide): grant list on deployments',
    );
  });
});
