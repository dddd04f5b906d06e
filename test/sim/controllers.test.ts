import { afterEach, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { KubeEvent, Pod } from '../../src/diagnosis/k8s.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const node = (
  name: string,
  extra: Record<string, unknown> = {},
  allocatable: Record<string, string> = {},
): object => ({
  apiVersion: 'v1',
  kind: 'Node',
  metadata: { name, labels: { 'kubernetes.io/hostname': name } },
  spec: extra,
  status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110', ...allocatable } },
});

const deploy = (
  name: string,
  spec: Record<string, unknown>,
  podSpec: Record<string, unknown> = {},
): object => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, namespace: 'ns' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: {
      metadata: { labels: { app: name } },
      spec: { containers: [{ name: 'c', image: `${name}:1` }], ...podSpec },
    },
    ...spec,
  },
});

const events = (s: Simulator, reason: string): KubeEvent[] =>
  (s.list('Event', 'ns') as KubeEvent[]).filter((e) => e.reason === reason);

async function patch(s: Simulator, name: string, body: unknown): Promise<number> {
  const res = await fetch(`${s.url}/apis/apps/v1/namespaces/ns/deployments/${name}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    body: JSON.stringify(body),
  });
  return res.status;
}

const restart = {
  spec: {
    template: { metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T03:00:00Z' } } },
  },
};

describe('deployment controller', () => {
  it('sets Progressing=False ProgressDeadlineExceeded when a rollout makes no progress', async () => {
    sim = await startSimulator({
      scenario: [
        node('gpu', {}, { 'nvidia.com/gpu': '1' }),
        deploy(
          't',
          { progressDeadlineSeconds: 30 },
          { containers: [{ name: 'c', image: 't:1', resources: { limits: { 'nvidia.com/gpu': 1 } } }] },
        ),
      ],
      timeScale: 50,
    });
    const s = sim;
    const d = (): Deployment => s.get('Deployment', 'ns', 't') as Deployment;
    await s.waitFor(() => d().status?.availableReplicas === 1);
    expect(await patch(s, 't', restart)).toBe(200);
    await s.waitFor(
      () => d().status?.conditions?.some((c) => c.reason === 'ProgressDeadlineExceeded') ?? false,
      SIGNAL_WAIT_MS,
    );
    const progressing = d().status?.conditions?.find((c) => c.type === 'Progressing');
    expect(progressing).toMatchObject({ status: 'False', reason: 'ProgressDeadlineExceeded' });
    expect(progressing?.message).toMatch(/^ReplicaSet "t-\w+" has timed out progressing\.$/);
    expect(d().status?.conditions?.find((c) => c.type === 'Available')?.status).toBe('True');
  });

  it('Recreate scales the old ReplicaSet to zero before the new one scales up, and records revisions', async () => {
    sim = await startSimulator({
      scenario: [node('n1'), deploy('r', { replicas: 2, strategy: { type: 'Recreate' } })],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => (s.get('Deployment', 'ns', 'r') as Deployment).status?.availableReplicas === 2);
    expect(await patch(s, 'r', restart)).toBe(200);
    await s.waitFor(() => {
      const d = s.get('Deployment', 'ns', 'r') as Deployment;
      return d.status?.updatedReplicas === 2 && d.status.availableReplicas === 2 && d.status.replicas === 2;
    });
    const scaling = events(s, 'ScalingReplicaSet')
      .sort((a, b) => Number(a.metadata.resourceVersion) - Number(b.metadata.resourceVersion))
      .map((e) => e.message ?? '');
    expect(scaling).toHaveLength(3);
    expect(scaling[1]).toMatch(/^Scaled down replica set r-\w+ from 2 to 0$/);
    expect(scaling[2]).toMatch(/^Scaled up replica set r-\w+ from 0 to 2$/);
    const revisions = s
      .list('ReplicaSet', 'ns')
      .map(
        (rs) =>
          (rs as { metadata: { annotations?: Record<string, string> } }).metadata.annotations?.[
            'deployment.kubernetes.io/revision'
          ],
      );
    expect(revisions.sort()).toEqual(['1', '2']);
  });

  it('rolls out with the fencepost math: replicas 4, 25%/25% keeps at most 5 pods and at least 3 available', async () => {
    sim = await startSimulator({ scenario: [node('n1'), deploy('f', { replicas: 4 })], timeScale: 20 });
    const s = sim;
    await s.waitFor(() => (s.get('Deployment', 'ns', 'f') as Deployment).status?.availableReplicas === 4);
    let maxPods = 0;
    let minAvailable = 4;
    const stop = setInterval(() => {
      // Terminating pods are not the controller's any more (surge counts ReplicaSet replicas).
      const pods = (s.list('Pod', 'ns') as Pod[]).filter((p) => !p.metadata.deletionTimestamp);
      maxPods = Math.max(maxPods, pods.length);
      minAvailable = Math.min(
        minAvailable,
        pods.filter((p) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'))
          .length,
      );
    }, 1);
    expect(await patch(s, 'f', restart)).toBe(200);
    await s.waitFor(() => {
      const d = s.get('Deployment', 'ns', 'f') as Deployment;
      return d.status?.updatedReplicas === 4 && d.status.availableReplicas === 4 && d.status.replicas === 4;
    });
    clearInterval(stop);
    expect(maxPods).toBe(5);
    expect(minAvailable).toBeGreaterThanOrEqual(3);
  });
});

describe('scheduler', () => {
  it('words taint and node-affinity failures like kube-scheduler and marks the pod Unschedulable', async () => {
    sim = await startSimulator({
      scenario: [
        node('tainted', { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] }),
        node('other'),
        deploy('x', {}, { nodeSelector: { 'kubernetes.io/hostname': 'nowhere' } }),
      ],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => events(s, 'FailedScheduling').length > 0);
    expect(events(s, 'FailedScheduling')[0]?.message).toBe(
      "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, 1 node(s) had untolerated taint {dedicated: gpu}. no new claims to deallocate, preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
    );
    const pod = (s.list('Pod', 'ns') as Pod[])[0];
    expect(pod?.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
    });
  });

  it('preempts only lower-priority pods', async () => {
    const gpuSpec = (priority: number) => ({
      priority,
      containers: [{ name: 'c', image: 'g:1', resources: { limits: { 'nvidia.com/gpu': 1 } } }],
    });
    sim = await startSimulator({
      scenario: [node('gpu', {}, { 'nvidia.com/gpu': '1' }), deploy('low', {}, gpuSpec(0))],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => (s.get('Deployment', 'ns', 'low') as Deployment).status?.availableReplicas === 1);
    s.apply(deploy('same', {}, gpuSpec(0)));
    await s.waitFor(() => events(s, 'FailedScheduling').length > 0);
    expect(events(s, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. no new claims to deallocate, preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.',
    );
    s.apply(deploy('high', {}, gpuSpec(1000)));
    await s.waitFor(() => events(s, 'Preempted').length > 0);
    // schedule_one.go: a PostFilter that nominated a node still ends the cycle Unschedulable,
    // so the preemptor gets FailedScheduling too, without a preemption part (success has no message).
    const highPod = (s.list('Pod', 'ns') as Pod[]).find((p) => p.metadata.labels?.['app'] === 'high');
    const highFailures = events(s, 'FailedScheduling').filter(
      (e) => (e as { involvedObject?: { name?: string } }).involvedObject?.name === highPod?.metadata.name,
    );
    expect(highFailures[0]?.message).toBe('0/1 nodes are available: 1 Insufficient nvidia.com/gpu.');
    await s.waitFor(() => (s.get('Deployment', 'ns', 'high') as Deployment).status?.availableReplicas === 1);
    const onNode = (s.list('Pod', 'ns') as Pod[]).filter((p) => p.spec.nodeName === 'gpu');
    expect(onNode).toHaveLength(1);
    expect(onNode[0]?.metadata.labels?.['app']).toBe('high');
  });

  it('words a pod that may not preempt as a 1.34 scheduler does: DRA text, then preemption, one period', async () => {
    sim = await startSimulator({
      scenario: [
        node('small', {}, { cpu: '1' }),
        deploy(
          'big',
          {},
          {
            preemptionPolicy: 'Never',
            containers: [{ name: 'c', image: 'b:1', resources: { requests: { cpu: '2' } } }],
          },
        ),
      ],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => events(s, 'FailedScheduling').length > 0);
    // As a 1.34 cluster writes it (kube-scheduler FitError since 1.30 adds no period after
    // the PostFilter text; DynamicResources' "no new claims to deallocate" comes first).
    expect(events(s, 'FailedScheduling')[0]?.message).toBe(
      '0/1 nodes are available: 1 Insufficient cpu. no new claims to deallocate, preemption: not eligible due to preemptionPolicy=Never.',
    );
  });

  it('deleting a pod frees its node resources for a pending pod', async () => {
    const gpuSpec = {
      containers: [{ name: 'c', image: 'g:1', resources: { limits: { 'nvidia.com/gpu': 1 } } }],
    };
    sim = await startSimulator({
      scenario: [node('gpu', {}, { 'nvidia.com/gpu': '1' }), deploy('a', {}, gpuSpec)],
      timeScale: 50,
    });
    const s = sim;
    await s.waitFor(() => (s.get('Deployment', 'ns', 'a') as Deployment).status?.availableReplicas === 1);
    s.apply(deploy('b', {}, gpuSpec));
    await s.waitFor(() => events(s, 'FailedScheduling').length > 0);
    const res = await fetch(`${s.url}/apis/apps/v1/namespaces/ns/deployments/a`, { method: 'DELETE' });
    expect(res.status).toBe(200);
    await s.waitFor(
      () => (s.get('Deployment', 'ns', 'b') as Deployment | undefined)?.status?.availableReplicas === 1,
    );
    expect(
      s
        .list('ReplicaSet', 'ns')
        .map((r) => (r as { metadata: { name: string } }).metadata.name)
        .every((n) => n.startsWith('b-')),
    ).toBe(true);
  });
});
