/**
 * What check says of the room a cluster can add is what happens (issue 64.7): the GPU
 * Deployment of check-scale-up.test.ts, checked with `rollout-doctor check -f` against
 * the simulator (its controllers and scheduler running), then applied with the real
 * kubectl. The test plays the cluster autoscaler: where check said "will finish after a
 * scale-up of two nodes like its own", it adds two such nodes and the rollout completes
 * on them; where the group was at its maximum and check said "can never finish", no node
 * comes and the pods stay Pending.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { runCli } from '../../src/cli/run-cli.js';
import { fakeIo } from '../support/cli-io.js';
import { kubectlIn } from '../support/kubectl-run.js';
import { POOL_LABEL, autoscalerStatus, gpuHolder, gpuNode, nodeGroup } from '../support/scale-up-cluster.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- API objects read loosely
type Json = Record<string, any>;

const GROUP = 'eks-gpu-pool-8ac2f1';

let sim: SimClient | undefined;
let dir: string | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const node = (name: string): object => gpuNode(name, { [POOL_LABEL]: 'gpu-pool' });

const tracker: Json = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'tracker', namespace: 'vision' },
  spec: {
    replicas: 2,
    selector: { matchLabels: { app: 'tracker' } },
    template: {
      metadata: { labels: { app: 'tracker' } },
      spec: {
        containers: [{ name: 'a', image: 'tracker:2', resources: { limits: { 'nvidia.com/gpu': '1' } } }],
      },
    },
  },
};

/** Both GPU nodes of the group held by another team; the group at `max`. */
async function fullCluster(max: number): Promise<SimClient> {
  sim = await startSimClient(
    {
      scenario: [
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
        { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } },
        node('gpu-a'),
        node('gpu-b'),
        gpuHolder('train-a', 'gpu-a'),
        gpuHolder('train-b', 'gpu-b'),
        autoscalerStatus(nodeGroup(GROUP, 2, max)),
      ],
      timeScale: 50,
    },
    'scale-up-kubectl',
  );
  await sim.sim.settle();
  return sim;
}

async function checkThenApply(s: SimClient): Promise<{ code: number; result: Json }> {
  dir = mkdtempSync(join(tmpdir(), 'scale-up-'));
  const file = join(dir, 'tracker.yaml');
  writeFileSync(file, stringify(tracker));
  const io = fakeIo();
  const code = await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig, '-o', 'json'], io.io);
  const report = JSON.parse(io.stdout()) as Json;
  const applied = await kubectlIn(s.kubeconfig, 'vision', ['apply', '-f', file]);
  if (applied.code !== 0) throw new Error(`kubectl apply: ${applied.stderr}`);
  return { code, result: report['results'][0] as Json };
}

const trackerPods = (s: SimClient): Json[] =>
  (s.sim.list('Pod', 'vision') as Json[]).filter((p) => p['metadata']['labels']?.['app'] === 'tracker');

const pendingForGpu = (s: SimClient): boolean =>
  trackerPods(s).length === 2 &&
  trackerPods(s).every((p) => {
    const scheduled = (p['status']?.['conditions'] ?? []).find((c: Json) => c['type'] === 'PodScheduled');
    return !p['spec']['nodeName'] && /Insufficient nvidia\.com\/gpu/.test(scheduled?.['message'] ?? '');
  });

describe('check and the room a cluster can add, then kubectl apply', () => {
  it('below its maximum: "will finish after a scale-up of 2 nodes", and it does once the autoscaler adds them', async () => {
    const s = await fullCluster(5);
    const { code, result } = await checkThenApply(s);
    expect(result['verdict']).toBe('finishes');
    expect(code).toBe(0);
    expect(result['findings'][0]['code']).toBe('ScaleUpNeeded');
    expect(result['findings'][0]['summary']).toContain('adds 2 nodes');

    // Applied: both pods wait for a GPU, as a real scheduler leaves them until nodes come.
    await s.sim.waitFor(() => pendingForGpu(s), SIGNAL_WAIT_MS);
    // The autoscaler adds the two nodes check named (like the group's own).
    s.sim.apply(node('gpu-c'));
    s.sim.apply(node('gpu-d'));
    await s.sim.waitFor(
      () =>
        ((s.sim.get('Deployment', 'vision', 'tracker') as Json)['status']?.['availableReplicas'] ?? 0) === 2,
      SIGNAL_WAIT_MS,
    );
    expect(
      trackerPods(s)
        .map((p) => p['spec']['nodeName'] as string)
        .sort(),
    ).toEqual(['gpu-c', 'gpu-d']);
  });

  it('at its maximum: "can never finish", exit 1, and after the apply no node comes and the pods stay Pending', async () => {
    const s = await fullCluster(2);
    const { code, result } = await checkThenApply(s);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(JSON.stringify(result['findings'])).toContain('it is at its maximum of 2');

    await s.sim.waitFor(() => pendingForGpu(s), SIGNAL_WAIT_MS);
    await s.sim.settle();
    expect(pendingForGpu(s)).toBe(true);
    expect((s.sim.get('Deployment', 'vision', 'tracker') as Json)['status']?.['availableReplicas'] ?? 0).toBe(
      0,
    );
  });
});
