/**
 * check counts the room a cluster can add (issue 64.4): a GPU rollout that fits no node
 * there is "will finish after a scale-up" where the cluster autoscaler's status says its
 * node group can grow, or a Karpenter NodePool's limits leave room; "can never finish"
 * where the group is at its maximum, backing off, or its nodes too small; "not known"
 * where the group's nodes cannot be told. Against the simulator through the live source.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { checkOne, type CheckResult } from '../../src/check/check.js';
import { liveSource } from '../../src/check/live-source.js';
import type { WorkloadObject } from '../../src/diagnosis/snapshot/types.js';
import { POOL_LABEL, autoscalerStatus, gpuHolder, gpuNode, nodeGroup } from '../support/scale-up-cluster.js';
import { startSimClient, type SimClient } from '../support/sim-client.js';

let sim: SimClient | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** Two GPU nodes of node group gpu-pool, both GPUs held by another team. */
function full(...extra: object[]): object[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kube-system' } },
    gpuNode('gpu-a', { [POOL_LABEL]: 'gpu-pool' }),
    gpuNode('gpu-b', { [POOL_LABEL]: 'gpu-pool' }),
    gpuHolder('train-a', 'gpu-a'),
    gpuHolder('train-b', 'gpu-b'),
    ...extra,
  ];
}

function tracker(gpus: number): WorkloadObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'tracker', namespace: 'vision' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'tracker' } },
      template: {
        metadata: { labels: { app: 'tracker' } },
        spec: {
          containers: [
            { name: 'a', image: 'tracker:2', resources: { limits: { 'nvidia.com/gpu': String(gpus) } } },
          ],
        },
      },
    },
  } as unknown as WorkloadObject;
}

async function check(scenario: object[], gpus = 1): Promise<CheckResult> {
  sim = await startSimClient({ scenario, controllers: false }, 'scale-up');
  return checkOne(
    { kind: 'Deployment', object: tracker(gpus), isNew: true },
    liveSource(sim.client),
    'vision',
  );
}

const nodePoolCrd = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'nodepools.karpenter.sh' },
  spec: { group: 'karpenter.sh', names: { kind: 'NodePool', plural: 'nodepools' }, scope: 'Cluster' },
};

function nodePool(limits: Record<string, string>): object {
  return {
    apiVersion: 'karpenter.sh/v1',
    kind: 'NodePool',
    metadata: { name: 'gpu' },
    spec: { template: { spec: { requirements: [] } }, limits },
  };
}

describe('check and the room a cluster can add', () => {
  it('a node group below its maximum: will finish after a scale-up of two nodes like its own', async () => {
    const result = await check(full(autoscalerStatus(nodeGroup('eks-gpu-pool-8ac2f1', 2, 5))));
    expect(result.verdict).toBe('finishes');
    expect(result.findings.map((f) => [f.code, f.severity])).toEqual([['ScaleUpNeeded', 'info']]);
    expect(result.findings[0]?.summary).toContain('adds 2 nodes');
    expect(result.findings[0]?.summary).toContain('eks-gpu-pool-8ac2f1');
  });

  it('the same group at its maximum, or backing off: can never finish, and says what the group could not add', async () => {
    const atMax = await check(full(autoscalerStatus(nodeGroup('eks-gpu-pool-8ac2f1', 2, 2))));
    expect(atMax.verdict).toBe('never-finishes');
    expect(JSON.stringify(atMax.findings)).toContain('it is at its maximum of 2');
    await sim?.close();
    const backoff = await check(full(autoscalerStatus(nodeGroup('eks-gpu-pool-8ac2f1', 2, 5, 'Backoff'))));
    expect(backoff.verdict).toBe('never-finishes');
    expect(JSON.stringify(backoff.findings)).toContain('backing off');
  });

  it('a room question a new node cannot settle stays "can never finish": nodes like the group’s are too small', async () => {
    const result = await check(full(autoscalerStatus(nodeGroup('eks-gpu-pool-8ac2f1', 2, 5))), 2);
    expect(result.verdict).toBe('never-finishes');
  });

  it('a group that may grow but whose nodes cannot be told: not known, never "can never finish"', async () => {
    const result = await check(full(autoscalerStatus(nodeGroup('eks-inference-77aa', 1, 5))));
    expect(result.verdict).toBe('unknown');
    expect(result.findings[0]?.summary).toContain('eks-inference-77aa');
  });

  it('a DaemonSet’s pod belongs to its node: the run forward gives each new node a pod of its own, and the old nodes’ pods still find no room', async () => {
    sim = await startSimClient(
      { scenario: full(autoscalerStatus(nodeGroup('eks-gpu-pool-8ac2f1', 2, 5))), controllers: false },
      'scale-up',
    );
    const spec = (tracker(1) as unknown as { spec: { template: object } }).spec;
    const daemon = {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      metadata: { name: 'tracker', namespace: 'vision' },
      spec: { selector: { matchLabels: { app: 'tracker' } }, template: spec.template },
    } as unknown as WorkloadObject;
    const result = await checkOne(
      { kind: 'DaemonSet', object: daemon, isNew: true },
      liveSource(sim.client),
      'vision',
    );
    expect(result.verdict).toBe('never-finishes');
  });

  it('no autoscaler and no Karpenter: can never finish', async () => {
    const result = await check(full());
    expect(result.verdict).toBe('never-finishes');
  });

  it('a Karpenter NodePool with room in its limits: will finish after it adds nodes like its own', async () => {
    const labels = { 'karpenter.sh/nodepool': 'gpu' };
    const scenario = full(
      nodePoolCrd,
      nodePool({ 'nvidia.com/gpu': '8' }),
      gpuNode('kp-1', labels),
      gpuHolder('train-c', 'kp-1'),
    );
    const result = await check(scenario);
    expect(result.verdict).toBe('finishes');
    expect(result.findings[0]?.code).toBe('ScaleUpNeeded');
    expect(result.findings[0]?.summary).toContain('gpu');
  });

  it('a Karpenter NodePool at its limit adds nothing: can never finish', async () => {
    const labels = { 'karpenter.sh/nodepool': 'gpu' };
    const scenario = full(
      nodePoolCrd,
      nodePool({ 'nvidia.com/gpu': '1' }),
      gpuNode('kp-1', labels),
      gpuHolder('train-c', 'kp-1'),
    );
    const result = await check(scenario);
    expect(result.verdict).toBe('never-finishes');
    expect(JSON.stringify(result.findings)).toContain('its limit on nvidia.com/gpu (1) is reached');
  });
});
