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
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { notServedSentence } from '../../src/kube/read/kind-served.js';
import { WORKLOAD_NAMES } from '../../src/diagnosis/workload-ref.js';

const ROLLOUTS_NOT_SERVED = notServedSentence(WORKLOAD_NAMES.Rollout);
import { runCli } from '../../src/cli/run-cli.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { fakeIo } from '../support/cli-io.js';
import { diagnoseKubectlDump, kubectlIn } from '../support/kubectl-run.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

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
  ((e.sim.get('Rollout', TRACKER.namespace, TRACKER.name) as { status?: RolloutStatus } | undefined)
    ?.status ?? {}) as RolloutStatus;

/**
 * The tracker Healthy, then its image changed with the real kubectl until the canary pod
 * is refused. `pauseSeconds`: its pause step made a timed one first (sim seconds).
 */
async function deadlocked(pauseSeconds?: number): Promise<SimClient> {
  env = await startSimClient(
    { scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 50 },
    'ro-live',
  );
  const started = env;
  await started.sim.waitFor(() => statusOf(started).phase === 'Healthy', SIGNAL_WAIT_MS);
  if (pauseSeconds !== undefined) {
    const timed = JSON.stringify([
      { op: 'replace', path: '/spec/strategy/canary/steps/1', value: { pause: { duration: pauseSeconds } } },
    ]);
    expect(
      (await kubectl(started.kubeconfig, ['patch', 'rollout', TRACKER.name, '--type', 'json', '-p', timed]))
        .code,
    ).toBe(0);
  }
  const patch = JSON.stringify([
    { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'vision/boost-track-app:1.1' },
  ]);
  const changed = await kubectl(started.kubeconfig, [
    'patch',
    'rollout',
    TRACKER.name,
    '--type',
    'json',
    '-p',
    patch,
  ]);
  expect(changed.code).toBe(0);
  await started.sim.waitFor(
    () =>
      (started.sim.list('Event', TRACKER.namespace) as { reason?: string }[]).some(
        (e) => e.reason === 'FailedScheduling',
      ),
    SIGNAL_WAIT_MS,
  );
  return started;
}

describe('Argo Rollout canary surge deadlock, live', () => {
  it('diagnoses the canary pod waiting for the GPU, applies maxSurge 0 on the canary, and the Rollout reaches its pause step', async () => {
    const { client, kubeconfig } = await deadlocked();
    const diagnosis = diagnose(await collectSnapshot(client, TRACKER));
    const [finding] = diagnosis.findings;
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toMatch(
      /needs 1 nvidia\.com\/gpu .* on gpu-node-1, held by old pod vision-object-tracker-\w+-\w+ of this Rollout, and canary maxSurge 25% \(default\) = 1, maxUnavailable 25% \(default\) = 0 at 1 replica/,
    );
    expect(finding?.explanation).toContain('kubectl argo rollouts status` prints "Progressing - ');
    // The canary's bounds first (the update goes on), then the abort (back to stable).
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['set-rolling-update', 'abort-rollout']);
    const [plan, abort] = diagnosis.remediations;
    if (!plan || !abort) throw new Error('no plan');
    // A CRD takes no strategic merge: a JSON merge patch of the canary's bounds only.
    expect(plan.patch).toEqual({
      type: 'merge',
      body: { spec: { strategy: { canary: { maxSurge: 0, maxUnavailable: 1 } } } },
    });
    expect(plan.inverse?.body).toEqual({
      spec: { strategy: { canary: { maxSurge: null, maxUnavailable: null } } },
    });
    expect(abort.patch).toEqual({ type: 'merge', body: { status: { abort: true } } });
    // Argo Rollouts' own annotations are no GitOps owner.
    expect(plan.drift?.why ?? '').not.toContain('rollout.argoproj.io/revision');

    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    const generation = result.status === 'applied' ? result.generation : 0;
    const watched = await watchRollout(client, TRACKER, {
      timeoutMs: 20_000,
      sinceGeneration: generation,
      pollMs: 100,
    });
    // The canary pod ran (the stable one went first) and the Rollout stands at its pause step.
    expect(watched).toMatchObject({ outcome: 'paused', reason: 'CanaryPauseStep' });
    const got = await kubectl(kubeconfig, ['get', 'rollout', TRACKER.name, '-o', 'jsonpath={.status.phase}']);
    expect(got.stdout).toBe('Paused');
    const after = diagnose(await collectSnapshot(client, TRACKER));
    expect(after.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutPaused', 'info']]);
    // Waiting for a person is no problem (diagnose exits 0 for it too), but not finished:
    // the scan lists it apart, as paused, and nothing else.
    const scanned = (await scanCluster(client, { namespace: TRACKER.namespace })).entries;
    expect(scanned.map((e) => [e.name, e.state])).toEqual([[TRACKER.name, 'paused']]);
    expect(after.findings[0]?.summary).toMatch(
      /^rollout\/vision-object-tracker is paused at step 2 of 2 since \S+Z \(CanaryPauseStep\): it waits for a person, not for the cluster\.$/,
    );
  });

  it('a timed pause step does not end the watch: the controller goes on by itself and the update completes', async () => {
    // 60 sim seconds at time scale 50: about a second of real time.
    const { client } = await deadlocked(60);
    const plan = diagnose(await collectSnapshot(client, TRACKER)).remediations.find(
      (p) => p.kind === 'set-rolling-update',
    );
    if (!plan) throw new Error('no plan');
    const result = await applyPlan(client, plan);
    expect(result.status).toBe('applied');
    const watched = await watchRollout(client, TRACKER, {
      timeoutMs: 30_000,
      sinceGeneration: result.status === 'applied' ? result.generation : 0,
      pollMs: 100,
    });
    expect(watched.outcome).toBe('complete');
  });

  it('apply from the command line: the fix works, the canary reaches its pause step, and apply exits 0 saying promote', async () => {
    const { kubeconfig } = await deadlocked();
    const io = fakeIo();
    const code = await runCli(
      [
        'apply',
        `rollout/${TRACKER.name}`,
        '-n',
        TRACKER.namespace,
        '--remediation',
        'set-rolling-update',
        '--yes',
        '--timeout',
        '20',
        '--kubeconfig',
        kubeconfig,
      ],
      io.io,
    );
    expect(io.stdout()).toContain(
      `Rollout paused at step 2; promote to go on (kubectl argo rollouts promote ${TRACKER.name} -n ${TRACKER.namespace})`,
    );
    expect(code).toBe(0);
  });

  it('aborts: the stable pod keeps serving, the canary goes, and the Rollout reads Degraded (RolloutAborted)', async () => {
    const { client } = await deadlocked();
    const diagnosis = diagnose(await collectSnapshot(client, TRACKER));
    const abort = diagnosis.remediations.find((p) => p.kind === 'abort-rollout');
    if (!abort) throw new Error('no abort plan');
    const result = await applyPlan(client, abort);
    expect(result.status).toBe('applied');
    await env?.sim.waitFor(() => statusOf(env as SimClient).phase === 'Degraded', SIGNAL_WAIT_MS);
    const after = diagnose(await collectSnapshot(client, TRACKER));
    expect(after.findings.map((f) => f.code)).toEqual(['RolloutDegraded']);
    expect(after.findings[0]?.summary).toMatch(/^rollout\/vision-object-tracker was aborted/);
    // Nothing left to abort, and no canary pod holds the GPU any more.
    expect(after.remediations.map((p) => p.kind)).not.toContain('abort-rollout');
    // Applying it again is refused: the status moved on (abort set).
    expect((await applyPlan(client, abort)).status).not.toBe('applied');
  });

  it('gives the same verdict from the cluster saved with kubectl get -o yaml, and scan lists the Rollout', async () => {
    const { client, kubeconfig } = await deadlocked();
    const scan = await scanCluster(client, { namespace: TRACKER.namespace });
    expect(scan.entries.map((e) => [e.kind, e.name, e.state, e.findings[0]?.code])).toEqual([
      ['Rollout', TRACKER.name, 'stuck', 'RolloutSurgeDeadlock'],
    ]);
    expect(scan.notServed).toBeUndefined();
    const { code, report } = await diagnoseKubectlDump(
      kubeconfig,
      TRACKER.namespace,
      'rollouts,replicasets,pods,events,nodes',
      'rollout/vision-object-tracker',
    );
    expect(code).toBe(1);
    expect(report.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(report.remediations.map((p) => p.kind)).toEqual(['set-rolling-update', 'abort-rollout']);
  });

  it('diagnoses a Rollout whose template is a Deployment it references (workloadRef)', async () => {
    const started = await deadlocked();
    env = started;
    // The same tracker as a workloadRef Rollout: its template lives in a Deployment scaled to 0.
    const manifest = `
apiVersion: apps/v1
kind: Deployment
metadata: {name: tracker-template, namespace: vision}
spec:
  replicas: 0
  selector: {matchLabels: {app: tracker-ref}}
  template:
    metadata: {labels: {app: tracker-ref}}
    spec:
      nodeSelector: {kubernetes.io/hostname: gpu-node-1}
      containers:
        - name: tracker
          image: vision/boost-track-app:1.0
          resources: {limits: {nvidia.com/gpu: 1}}
---
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: tracker-ref, namespace: vision}
spec:
  replicas: 1
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: tracker-template}
  strategy: {canary: {steps: [{setWeight: 50}, {pause: {}}]}}
`;
    const file = join(dirname(started.kubeconfig), 'ref.yaml');
    writeFileSync(file, manifest);
    const applied = await kubectl(started.kubeconfig, ['apply', '--validate=false', '-f', file]);
    expect(applied.stderr).toBe('');
    const ref: WorkloadRef = { kind: 'Rollout', namespace: 'vision', name: 'tracker-ref' };
    await started.sim.waitFor(
      () =>
        (started.sim.get('Rollout', 'vision', 'tracker-ref') as { status?: RolloutStatus } | undefined)
          ?.status?.phase !== undefined,
      SIGNAL_WAIT_MS,
    );
    const snapshot = await collectSnapshot(started.client, ref);
    // Judged on the Deployment's template (the GPU and the node), not on an empty one.
    expect(
      workloadKind(snapshot).podTemplate(workloadKind(snapshot).object(snapshot)).spec.nodeSelector,
    ).toEqual({
      'kubernetes.io/hostname': 'gpu-node-1',
    });
    // Its pod waits for the GPU the tracker's stable pod holds: not its own old pod, so no surge deadlock.
    expect(diagnose(snapshot).findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
  });
});

describe('a cluster without Argo Rollouts', () => {
  it('says once that it serves no Rollouts: diagnose exits 2 with that sentence, scan notes it and scans the rest', async () => {
    env = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'no-argo');
    const io = fakeIo();
    const code = await runCli(
      ['diagnose', 'rollout/vision-object-tracker', '-n', 'vision', '--kubeconfig', env.kubeconfig],
      io.io,
    );
    expect(code).toBe(2);
    expect(io.stderr()).toContain(ROLLOUTS_NOT_SERVED);
    const report = await scanCluster(env.client, { namespace: 'vision' });
    expect(report.notServed).toEqual(['Rollout']);
    expect(report.accessProblems).toEqual([]);
    expect(report.entries.map((e) => [e.kind, e.name])).toContainEqual([
      'Deployment',
      'vision-object-tracker',
    ]);
  });
});
