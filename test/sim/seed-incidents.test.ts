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

const pods = (s: Simulator, ns: string): Pod[] => s.list('Pod', ns) as Pod[];

async function patch(s: Simulator, path: string, type: string, body: unknown): Promise<Response> {
  return fetch(`${s.url}${path}`, {
    method: 'PATCH',
    headers: { 'Content-Type': type },
    body: JSON.stringify(body),
  });
}

describe('seed A: GPU surge deadlock', () => {
  it('runs, deadlocks on the next rollout with the exact FailedScheduling message, and completes after maxSurge 0', async () => {
    sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
    const s = sim;
    await s.waitFor(() =>
      pods(s, 'vision').some((p) =>
        p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'),
      ),
    );
    await s.settle();
    const first = pods(s, 'vision');
    expect(first).toHaveLength(1);
    expect(first[0]?.spec.nodeName).toBe('gpu-node-1');
    const deployPath = '/apis/apps/v1/namespaces/vision/deployments/vision-object-tracker';
    const restart = await patch(s, deployPath, 'application/strategic-merge-patch+json', {
      spec: {
        template: {
          metadata: { annotations: { 'kubectl.kubernetes.io/restartedAt': '2026-11-22T03:00:00Z' } },
        },
      },
    });
    expect(restart.status).toBe(200);
    await s.waitFor(() =>
      (s.list('Event', 'vision') as KubeEvent[]).some((e) => e.reason === 'FailedScheduling'),
    );
    await s.settle();
    const now = pods(s, 'vision');
    expect(now).toHaveLength(2);
    const pending = now.find((p) => !p.spec.nodeName);
    const running = now.find((p) => p.spec.nodeName === 'gpu-node-1');
    expect(running?.metadata.name).toBe(first[0]?.metadata.name);
    expect(pending?.status?.conditions?.find((c) => c.type === 'PodScheduled')).toMatchObject({
      status: 'False',
      reason: 'Unschedulable',
    });
    const event = (s.list('Event', 'vision') as KubeEvent[]).find((e) => e.reason === 'FailedScheduling');
    expect(event?.message).toBe(
      "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. no new claims to deallocate, preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.",
    );
    expect(event?.involvedObject.name).toBe(pending?.metadata.name);
    const stuck = s.get('Deployment', 'vision', 'vision-object-tracker') as Deployment;
    expect(stuck.status).toMatchObject({ replicas: 2, updatedReplicas: 1, availableReplicas: 1 });

    const fix = await patch(s, deployPath, 'application/strategic-merge-patch+json', {
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
    });
    expect(fix.status).toBe(200);
    await s.waitFor(() => {
      const d = s.get('Deployment', 'vision', 'vision-object-tracker') as Deployment;
      return d.status?.updatedReplicas === 1 && d.status.availableReplicas === 1 && d.status.replicas === 1;
    });
    const after = pods(s, 'vision');
    expect(after).toHaveLength(1);
    expect(after[0]?.metadata.name).toBe(pending?.metadata.name);
    expect(after[0]?.spec.nodeName).toBe('gpu-node-1');
    const done = s.get('Deployment', 'vision', 'vision-object-tracker') as Deployment;
    expect(done.status?.conditions?.find((c) => c.type === 'Progressing')?.reason).toBe(
      'NewReplicaSetAvailable',
    );
  });
});

describe('seed B: crash loop on one node', () => {
  it('crash-loops the pod on node-b with growing restarts while the others are Ready', async () => {
    sim = await startSimulator({ scenario: 'sim/scenarios/crashloop-node.yaml', timeScale: 100 });
    const s = sim;
    const onB = (): Pod | undefined => pods(s, 'shop').find((p) => p.spec.nodeName === 'node-b');
    await s.waitFor(() => (onB()?.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 3, SIGNAL_WAIT_MS);
    const all = pods(s, 'shop');
    expect(all.map((p) => p.spec.nodeName).sort()).toEqual(['node-a', 'node-b', 'node-c']);
    for (const p of all.filter((x) => x.spec.nodeName !== 'node-b')) {
      expect(p.status?.conditions?.find((c) => c.type === 'Ready')?.status).toBe('True');
      expect(p.status?.containerStatuses?.[0]?.restartCount).toBe(0);
    }
    const bad = onB();
    const cs = bad?.status?.containerStatuses?.[0];
    expect(cs?.lastState?.terminated).toMatchObject({ exitCode: 132, reason: 'Error' });
    await s.waitFor(
      () => onB()?.status?.containerStatuses?.[0]?.state?.waiting?.reason === 'CrashLoopBackOff',
    );
    expect(onB()?.status?.containerStatuses?.[0]?.state?.waiting?.message).toMatch(
      /^back-off (10|20|40|80)s restarting failed container=checkout pod=checkout-/,
    );
    const backoff = (s.list('Event', 'shop') as KubeEvent[]).find((e) => e.reason === 'BackOff');
    expect(backoff?.message).toMatch(/^Back-off restarting failed container checkout in pod checkout-/);
    const log = await fetch(
      `${s.url}/api/v1/namespaces/shop/pods/${bad?.metadata.name ?? ''}/log?previous=true&tailLines=3`,
    );
    expect(log.status).toBe(200);
    const text = await log.text();
    expect(text.split('\n').filter(Boolean)).toHaveLength(3);
    expect(text).toContain('/src/internal/pricing/model.go:88');
  });
});
