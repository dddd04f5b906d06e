/**
 * What the worker waits for after a plan that deletes pods (delete-pods, taint-device):
 * the replacements becoming Ready, read from the pods. A deletion leaves the
 * Deployment's generation and, until its controller catches up, its status as they
 * were: the rollout status can say "successfully rolled out" before any replacement
 * exists.
 */
import { describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { watchReplacements } from '../../src/kube/watch/rollout-watcher.js';
import { makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const deployment = makeDeployment('detector', { namespace: 'vision', replicas: 3 }) as Deployment;
// As the API server still shows it right after the deletion: 3 of 3 available.
deployment.status = {
  observedGeneration: deployment.metadata.generation ?? 1,
  replicas: 3,
  updatedReplicas: 3,
  readyReplicas: 3,
  availableReplicas: 3,
};
const rs = makeReplicaSet(deployment, '5d8f7c9b6', { revision: 1, replicas: 3 });
const ready = (suffix: string, node: string): Pod => makePod(rs, suffix, node, { phase: 'Running' });
const starting = (suffix: string, node: string): Pod => {
  const pod = ready(suffix, node);
  pod.status = {
    ...pod.status,
    conditions: [{ type: 'Ready', status: 'False' }],
    containerStatuses: (pod.status?.containerStatuses ?? []).map((c) => ({ ...c, ready: false })),
  };
  return pod;
};

/** A client that answers the Deployment and, per list call, the next pod list of `lists`. */
function scripted(lists: Pod[][]): { client: KubeClient; calls: () => number } {
  let listed = 0;
  const client: KubeClient = {
    server: 'https://127.0.0.1:6443',
    context: 'test',
    namespace: 'vision',
    async call<T>(call: ApiCall): Promise<T> {
      if (call.resource === 'deployments') return structuredClone(deployment) as T;
      const items = lists[Math.min(listed, lists.length - 1)] ?? [];
      listed += 1;
      return { apiVersion: 'v1', kind: 'PodList', metadata: {}, items } as T;
    },
    text: async () => '',
    watch: async () => 0,
  };
  return { client, calls: () => listed };
}

describe('watchReplacements', () => {
  const gone = ready('x2kqp', 'gpu-node-1');
  gone.metadata.deletionTimestamp = '2026-11-22T03:00:30Z';
  const replaced = [{ name: gone.metadata.name ?? '', uid: gone.metadata.uid ?? '' }];
  const others = [ready('b7rtn', 'gpu-node-2'), ready('mm4zc', 'gpu-node-3')];

  it('waits, whatever the rollout status says, until the replacement is Ready', async () => {
    const { client, calls } = scripted([
      [gone, ...others],
      [gone, ...others, starting('q9wvd', 'gpu-node-1')],
      [...others, ready('q9wvd', 'gpu-node-1')],
    ]);
    const outcome = await watchReplacements(
      client,
      { kind: 'Deployment', namespace: 'vision', name: 'detector' },
      { timeoutMs: 10_000, pollMs: 1, replaced },
    );
    expect(outcome).toEqual({
      outcome: 'complete',
      summary: 'the replacement pods are Ready (3 of 3 pods Ready)',
    });
    expect(calls()).toBe(3);
  });

  it('a replacement that crash-loops fails the watch; a pod crash-looping from before does not', async () => {
    const crash = (pod: Pod): Pod => {
      pod.status = {
        ...pod.status,
        conditions: [{ type: 'Ready', status: 'False' }],
        containerStatuses: (pod.status?.containerStatuses ?? []).map((c) => ({
          ...c,
          ready: false,
          restartCount: 4,
          state: { waiting: { reason: 'CrashLoopBackOff' } },
          lastState: { terminated: { exitCode: 1, reason: 'Error' } },
        })),
      };
      return pod;
    };
    const before = crash(ready('zz9kk', 'gpu-node-4'));
    const { client } = scripted([
      [gone, ...others, before],
      [...others, before, crash(ready('q9wvd', 'gpu-node-1'))],
    ]);
    const outcome = await watchReplacements(
      client,
      { kind: 'Deployment', namespace: 'vision', name: 'detector' },
      { timeoutMs: 10_000, pollMs: 1, replaced },
    );
    expect(outcome.outcome).toBe('failed');
    expect(outcome.reason).toContain('q9wvd');
  });
});
