/**
 * Extended resources backed by DRA on the simulator (KEP-5004): the tracker asks for
 * `nvidia.com/gpu: 1`, no node advertises it in allocatable, and the DeviceClass
 * gpu.nvidia.com maps it (`extendedResourceName`). The scheduler serves it through
 * DRA: after choosing the node it creates the pod's extended-resource claim, allocates
 * gpu-0 to it and records it in the pod's status. The next rollout deadlocks like the
 * seed (the surge pod has no claim yet, the old pod's claim holds the only GPU); the
 * diagnosis names the old pod as holder, and the proposed fix completes the rollout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../sim/index.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { shipTrackerImage } from '../support/sim-rollout.js';
import { extendedScenario } from '../support/dra-extended-scenario.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceClaim } from '../../src/diagnosis/k8s-dra.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { applyPlan } from '../../src/apply/apply-plan.js';
import { dryRunPlan } from '../../src/kube/write/executor.js';
import { watchRollout } from '../../src/kube/watch/rollout-watcher.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TRACKER: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
const SUFFIX = '[bcdfghjklmnpqrstvwxz2456789]{5}';

let env: SimClient;
let sim: Simulator;
let client: KubeClient;

beforeAll(async () => {
  env = await startSimClient({ scenario: extendedScenario(), timeScale: 50 }, 'dra-extended-sim');
  ({ sim, client } = env);
});

afterAll(() => env.close());

const livePods = (): Pod[] =>
  (sim.list('Pod', TRACKER.namespace) as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
const claims = (): ResourceClaim[] => sim.list('ResourceClaim', TRACKER.namespace) as ResourceClaim[];

describe('extended resource backed by DRA on the simulator', () => {
  it('the scheduler creates, allocates and records the pod’s extended-resource claim', async () => {
    await sim.waitFor(() => livePods().some((p) => p.status?.phase === 'Running'), SIGNAL_WAIT_MS);
    const [pod] = livePods();
    const [claim] = claims();
    const podName = pod?.metadata.name ?? '';
    expect(claim?.metadata.name).toMatch(new RegExp(`^${podName}-extended-resources-${SUFFIX}$`));
    expect(claim?.metadata.annotations).toEqual({ 'resource.kubernetes.io/extended-resource-claim': 'true' });
    expect(claim?.metadata.ownerReferences).toEqual([
      {
        apiVersion: 'v1',
        kind: 'Pod',
        name: podName,
        uid: pod?.metadata.uid,
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(claim?.metadata.finalizers).toEqual(['resource.kubernetes.io/delete-protection']);
    // Requests cpu, memory, nvidia.com/gpu (sorted): the GPU is request 2 of container 0.
    expect(claim?.spec.devices?.requests).toEqual([
      {
        name: 'container-0-request-2',
        exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 },
      },
    ]);
    expect(claim?.status?.allocation?.devices?.results).toEqual([
      { request: 'container-0-request-2', driver: 'gpu.nvidia.com', pool: 'gpu-node-1', device: 'gpu-0' },
    ]);
    expect(claim?.status?.reservedFor).toEqual([{ resource: 'pods', name: podName, uid: pod?.metadata.uid }]);
    expect(pod?.status?.extendedResourceClaimStatus).toEqual({
      resourceClaimName: claim?.metadata.name,
      requestMappings: [
        { containerName: 'tracker', resourceName: 'nvidia.com/gpu', requestName: 'container-0-request-2' },
      ],
    });
    expect(pod?.status?.resourceClaimStatuses).toBeUndefined();
  });

  it('deadlocks on the next rollout with the DynamicResources wording; the old pod is the holder and the fix completes it', async () => {
    const oldPod = livePods()[0];
    const oldName = oldPod?.metadata.name ?? '';
    await shipTrackerImage(sim, TRACKER);
    const event = (sim.list('Event', TRACKER.namespace) as KubeEvent[]).find(
      (e) => e.reason === 'FailedScheduling',
    );
    expect(event?.message).toBe(
      "0/10 nodes are available: 1 cannot allocate all claims, 9 node(s) didn't match Pod's node affinity/selector. still not schedulable, preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.",
    );
    // The surge pod has no claim yet: the scheduler creates it only after choosing a node.
    expect(claims()).toHaveLength(1);

    const result = diagnose(await collectSnapshot(client, TRACKER));
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('can never finish');
    expect(deadlock?.summary).toContain(`held by old pod ${oldName}`);
    expect(JSON.stringify(deadlock?.evidence)).toContain(`${oldName}-extended-resources-`);
    const plan = result.remediations.find((p) => p.kind === 'set-rolling-update');
    if (!plan)
      throw new Error(`no set-rolling-update among ${result.remediations.map((p) => p.kind).join(', ')}`);
    expect(await dryRunPlan(client, plan)).toMatchObject({ ok: true });
    const applied = await applyPlan(client, plan);
    expect(applied.status).toBe('applied');
    const generation = applied.status === 'applied' ? applied.generation : 0;
    expect(
      (await watchRollout(client, TRACKER, { timeoutMs: 20_000, sinceGeneration: generation, pollMs: 200 }))
        .outcome,
    ).toBe('complete');
    const [pod] = livePods();
    expect(pod?.spec.containers[0]?.image).toBe('vision/boost-track-app:1.1');
    // The old pod's claim went with it; the new pod got its own, allocated to gpu-0.
    const [claim] = claims();
    expect(claims()).toHaveLength(1);
    expect(claim?.metadata.ownerReferences?.[0]?.uid).toBe(pod?.metadata.uid);
    expect(claim?.status?.allocation?.devices?.results?.[0]?.device).toBe('gpu-0');
    expect(pod?.status?.extendedResourceClaimStatus?.resourceClaimName).toBe(claim?.metadata.name);
  });
});
