/**
 * After a plan that deletes pods and changes no pod template (delete-pods,
 * taint-device), the worker watches the replacements, not the rollout: the Deployment's
 * rollout status does not change with a deletion and may still show the deleted pod as
 * available, so it would say "rolled out" before any replacement ran.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { isReady } from '../../src/diagnosis/base/pods.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { watchReplacements } from '../../src/kube/watch/rollout-watcher.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let dir: string | undefined;
let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

async function start(scenario: string): Promise<{ s: Simulator; client: KubeClient }> {
  dir = mkdtempSync(join(tmpdir(), 'watch-replacements-'));
  sim = await startSimulator({ scenario, timeScale: 50 });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, sim.kubeconfig);
  return {
    s: sim,
    client: createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } }),
  };
}

const live = (s: Simulator, ns: string): Pod[] =>
  (s.list('Pod', ns) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);

async function deletePod(client: KubeClient, ns: string, pod: Pod): Promise<void> {
  await client.call({ verb: 'delete', resource: 'pods', namespace: ns, name: pod.metadata.name ?? '' });
}

describe('watching the replacements of deleted pods (simulator)', () => {
  it('completes only once the replacement is Ready, not on the unchanged rollout status', async () => {
    const { s, client } = await start('sim/scenarios/gpu-deadlock.yaml');
    const ref: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
    await s.waitFor(() => live(s, ref.namespace).some(isReady), SIGNAL_WAIT_MS);
    const [old] = live(s, ref.namespace);
    if (!old) throw new Error('no pod');
    await deletePod(client, ref.namespace, old);
    const outcome = await watchReplacements(client, ref, {
      timeoutMs: 20_000,
      pollMs: 20,
      replaced: [{ name: old.metadata.name ?? '', uid: old.metadata.uid ?? '' }],
    });
    expect(outcome).toMatchObject({
      outcome: 'complete',
      summary: expect.stringContaining('1 of 1 pods Ready'),
    });
    // At the moment it said so, a replacement (another uid) was Ready.
    expect(live(s, ref.namespace).some((p) => p.metadata.uid !== old.metadata.uid && isReady(p))).toBe(true);
  });
});
