/**
 * The three-replica surge deadlock on the simulator: an ingress with a hostPort on
 * each of three edge nodes, rolled to a new image, so the surge pod has nowhere to go
 * (FailedScheduling) until an old pod leaves. Used by the stepped scale-old-replicaset
 * tests and bench/stepped-walk.ts.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';

export const EDGE: WorkloadRef = { kind: 'Deployment', namespace: 'edge', name: 'ingress' };

function node(name: string): object {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, pool: 'edge' } },
    spec: {},
    status: {
      capacity: { cpu: '4', memory: '16Gi', pods: '110' },
      allocatable: { cpu: '4', memory: '16Gi', pods: '110' },
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
    },
  };
}

/** The three edge nodes and the ingress (three replicas, hostPort 8080), as scenario objects. */
export function edgeScenario(): object[] {
  return [
    node('edge-1'),
    node('edge-2'),
    node('edge-3'),
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'edge' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'ingress', namespace: 'edge' },
      spec: {
        replicas: 3,
        selector: { matchLabels: { app: 'ingress' } },
        template: {
          metadata: { labels: { app: 'ingress' } },
          spec: {
            nodeSelector: { pool: 'edge' },
            containers: [
              {
                name: 'ingress',
                image: 'edge/ingress:1.0',
                ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
              },
            ],
          },
        },
      },
    },
  ];
}

/** Starts the simulator with the ingress deadlocked mid-rollout; `dir` takes the kubeconfig. */
export async function deadlockedIngress(dir: string): Promise<{ sim: Simulator; client: KubeClient }> {
  const sim = await startSimulator({
    scenario: edgeScenario(),
    timeScale: 50,
  });
  const file = join(dir, 'kubeconfig-edge');
  writeFileSync(file, sim.kubeconfig);
  const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
  const ingress = (): Deployment => sim.get('Deployment', 'edge', 'ingress') as Deployment;
  await sim.waitFor(() => (ingress().status?.availableReplicas ?? 0) === 3);
  await rollToDeadlock(sim, client);
  return { sim, client };
}

/** Rolls the running ingress to a new image and waits for the surge pod's FailedScheduling. */
export async function rollToDeadlock(sim: Simulator, client: KubeClient): Promise<void> {
  await client.call({
    verb: 'patch',
    resource: 'deployments',
    namespace: 'edge',
    name: 'ingress',
    contentType: 'application/strategic-merge-patch+json',
    body: { spec: { template: { spec: { containers: [{ name: 'ingress', image: 'edge/ingress:1.1' }] } } } },
  });
  await sim.waitFor(() =>
    (sim.list('Event', 'edge') as { reason?: string }[]).some((e) => e.reason === 'FailedScheduling'),
  );
}

/** Pods of the namespace that serve: not terminating, condition Ready True. */
export function readyPods(sim: Simulator, namespace = 'edge'): number {
  return (sim.list('Pod', namespace) as Pod[]).filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  ).length;
}

/** Done when all three replicas run the new template and are available. */
export function rolledOut(sim: Simulator): boolean {
  const d = sim.get('Deployment', 'edge', 'ingress') as Deployment;
  return d.status?.updatedReplicas === 3 && d.status.availableReplicas === 3 && d.status.replicas === 3;
}
