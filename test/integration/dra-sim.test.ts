/**
 * The DRA twin of seed incident A on the simulator: GPUs published in a ResourceSlice,
 * per-pod claims from a ResourceClaimTemplate created by the resourceclaim
 * controller, devices allocated at scheduling. The next rollout deadlocks exactly
 * like the seed; the diagnosis says so from the cluster, and the proposed strategy
 * fix completes the rollout (the old pod's claim goes with it, freeing the GPU).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { shipTrackerImage } from '../support/sim-rollout.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TRACKER: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
let dir: string;
let sim: Simulator;
let client: KubeClient;
let kubeconfig: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'dra-sim-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock-dra.yaml', timeScale: 50 });
  const file = join(dir, 'kubeconfig');
  kubeconfig = file;
  writeFileSync(file, sim.kubeconfig);
  client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const livePods = (): Pod[] =>
  (sim.list('Pod', TRACKER.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const claims = (): ResourceClaim[] => sim.list('ResourceClaim', TRACKER.namespace) as ResourceClaim[];

describe('DRA twin of incident A on the simulator', () => {
  it('runs with a per-pod claim allocated to gpu-0 and reserved for the pod', async () => {
    await sim.waitFor(() => livePods().some((p) => p.status?.phase === 'Running'), SIGNAL_WAIT_MS);
    const [pod] = livePods();
    const [claim] = claims();
    expect(claim?.metadata.name).toMatch(
      new RegExp(`^${pod?.metadata.name ?? ''}-gpu-[bcdfghjklmnpqrstvwxz2456789]{5}$`),
    );
    expect(claim?.metadata.ownerReferences?.[0]).toMatchObject({ kind: 'Pod', uid: pod?.metadata.uid });
    expect(claim?.metadata.finalizers).toEqual(['resource.kubernetes.io/delete-protection']);
    expect(claim?.status?.allocation?.devices?.results).toEqual([
      { request: 'gpu', driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' },
    ]);
    expect(claim?.status?.reservedFor).toEqual([
      { resource: 'pods', name: pod?.metadata.name, uid: pod?.metadata.uid },
    ]);
    expect(pod?.status?.resourceClaimStatuses).toEqual([
      { name: 'gpu', resourceClaimName: claim?.metadata.name },
    ]);
  });

  it('deadlocks on the next rollout with the DynamicResources wording, and the fix completes it', async () => {
    await shipTrackerImage(sim, TRACKER);
    const event = (sim.list('Event', TRACKER.namespace) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling',
    );
    expect(event?.message).toBe(
      "0/10 nodes are available: 1 cannot allocate all claims, 9 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.",
    );

    const result = diagnose(await collectSnapshot(client, TRACKER));
    expect(result.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
    const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
    if (!plan)
      throw new Error(`no set-rolling-update among ${result.remediations.map((p) => p.kind).join(', ')}`);
    const dry = await dryRunPlan(client, plan);
    expect(dry.ok ? 'ok' : dry.reason).toBe('ok');
    const applied = await applyPlan(client, plan);
    expect(applied.status).toBe('applied');
    const generation = applied.status === 'applied' ? applied.generation : 0;
    expect(
      (await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
        .outcome,
    ).toBe('complete');
    const [pod] = livePods();
    expect(pod?.spec.containers[0]?.image).toBe('vision/boost-track-app:1.1');
    const owned = claims().filter((c) => c.metadata.ownerReferences?.[0]?.uid === pod?.metadata.uid);
    expect(owned.map((c) => c.status?.allocation?.devices?.results?.[0]?.device)).toEqual(['gpu-0']);
    // The old pod's claim went with it.
    expect(claims()).toHaveLength(1);
  });

  it('kubectl (no compiled-in types for these kinds) gets and describes them', async () => {
    // Asynchronously: the simulator answers from this process.
    const kubectl = async (...args: string[]): Promise<string> =>
      (await promisify(execFile)('kubectl', ['--kubeconfig', kubeconfig, ...args], { timeout: 20_000 }))
        .stdout;
    const claimName = claims()[0]?.metadata.name ?? '';
    const got = await kubectl('get', 'resourceclaims', '-n', TRACKER.namespace);
    expect(got).toMatch(/^NAME\s+STATE\s+AGE$/m);
    expect(got).toMatch(new RegExp(`^${claimName}\\s+allocated,reserved\\s+`, 'm'));
    expect(await kubectl('get', 'resourceslices')).toMatch(
      /gpu-node-1-gpu\.nvidia\.com-q7w2x\s+gpu-node-1\s+gpu\.nvidia\.com\s+gpu-node-1/,
    );
    expect(await kubectl('get', 'deviceclasses', '-o', 'name')).toBe(
      'deviceclass.resource.k8s.io/gpu.nvidia.com\n',
    );
    const described = await kubectl('describe', 'resourceclaim', claimName, '-n', TRACKER.namespace);
    expect(described).toContain('gpu-0');
    expect(described).toContain('Reserved For');
  });

  it('a template naming a ResourceClaimTemplate that does not exist: held back, and the diagnosis quotes the controller', async () => {
    const res = await fetch(
      `${sim.url}/apis/apps/v1/namespaces/${TRACKER.namespace}/deployments/${TRACKER.name}`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/merge-patch+json' },
        body: JSON.stringify({
          spec: {
            template: { spec: { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpu-gone' }] } },
          },
        }),
      },
    );
    expect(res.status).toBe(200);
    await sim.waitFor(
      () =>
        (sim.list('Event', TRACKER.namespace) as KubeEvent[]).some(
          (e) => e.reason === 'FailedResourceClaimCreation',
        ),
      SIGNAL_WAIT_MS,
    );
    const result = diagnose(await collectSnapshot(client, TRACKER));
    const held = result.findings.find((f) => f.summary.includes('waiting before scheduling'));
    expect(held?.summary).toContain(
      'ResourceClaimTemplate gpu-gone does not exist: the resourceclaim controller says "PodResourceClaim gpu: resource claim template "gpu-gone": resourceclaimtemplate.resource.k8s.io "gpu-gone" not found"',
    );
  });
});
