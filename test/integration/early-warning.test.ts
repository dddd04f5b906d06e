/**
 * The early warning's slow safety net over the simulator: the periodic scan queues a
 * node-local crash loop for diagnosis on its first pass, with the dedup id an alert
 * for the same Deployment would use. (The watch path, from the rollout to the Slack
 * thread, is test/integration/early-warning-e2e.test.ts.)
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { createEarlyWarningWatch } from '../../src/worker/early-warning/safety-net.js';
import { scanHits } from '../../src/worker/early-warning/watch.js';
import { kubeClusterDeps } from '../../src/worker/kube-deps.js';
import { diagnosisDedupId, workloadHash } from '../../src/queue/alert-keys.js';
import { createKubeClient } from '../../src/kube/client.js';

let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'early-warning-it-'));
  sim = await startSimulator({
    scenario: 'sim/scenarios/crashloop-node.yaml',
    timeScale: 50,
    controllers: true,
  });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('early-warning safety-net scan on a live (simulated) cluster', () => {
  it('queues the node-local crash loop as soon as the scan sees it', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file, retry: { attempts: 2, baseMs: 5, maxMs: 10 } });
    await sim.settle();
    await sim.waitFor(() =>
      (sim.list('Pod', 'shop') as { status?: { containerStatuses?: { restartCount: number }[] } }[]).some(
        (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
      ),
    );
    const queued: { namespace: string; name: string; dedup: string }[] = [];
    const watch = createEarlyWarningWatch({
      cluster: 'default',
      namespaces: ['shop'],
      intervalMs: 60_000,
      windowMs: 600_000,
      // The worker's own namespace scan, as src/worker/early-warning/watch.ts runs it.
      scan: async (namespace) =>
        scanHits(await kubeClusterDeps(client, { rolloutTimeoutMs: 1_000 }).scan(namespace, () => undefined)),
      enqueueDiagnosis: async (target, dedup) => {
        queued.push({ ...target, dedup: dedup.id });
        return `diagnose.${target.namespace}.${target.name}`;
      },
      linkJob: async () => undefined,
      logger: { info: () => undefined, warn: () => undefined },
    });
    expect(await watch.runOnce()).toBe(1);
    const hash = workloadHash({
      cluster: 'default',
      namespace: 'shop',
      kind: 'Deployment',
      name: 'checkout',
    });
    expect(queued).toEqual([
      { kind: 'Deployment', namespace: 'shop', name: 'checkout', dedup: diagnosisDedupId(hash) },
    ]);
  });
});
