/**
 * A capped node list is not the cluster (DESIGN.md §2: unknown is not empty). The
 * collector lists every node for an unconstrained template with a Pending pod, at
 * most one page of 500; when the API server leaves a continue token, the nodes past
 * the page may take the pod. With none of the listed nodes eligible and a scheduler
 * message that does not settle it, the verdict is IncompleteEvidence naming the read,
 * never Unschedulable. A fast test through the real collector on an in-memory API
 * (no simulator): issue 28 item 5, "a capped node list read as complete".
 */
import { describe, expect, it } from 'vitest';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { KubeEvent, Node, Pod } from '../../src/diagnosis/k8s.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';
import { unschedulablePod } from '../support/rollout-scenarios.js';

// 500 of 600 nodes are tainted for batch; the other 100 lack cpu. The counts cannot
// settle it either way without the nodes: a node past the page may have room.
const MESSAGE =
  '0/600 nodes are available: 100 Insufficient cpu, 500 node(s) had untolerated taint {dedicated: batch}. preemption: 0/600 nodes are available: 100 No preemption victims found for incoming pod, 500 Preemption is not helpful for scheduling.';

function cluster(nodePage: { items: Node[]; continue?: string }): { client: KubeClient; calls: string[] } {
  const deployment = makeDeployment('web', { namespace: 'shop', resources: { requests: { cpu: '2' } } });
  const rs = makeReplicaSet(deployment, '7b9f8c5d4f');
  const { pod, event } = unschedulablePod(makePod(rs, 'h8v2n', undefined, { phase: 'Pending' }), MESSAGE);
  const calls: string[] = [];
  const list = <T>(items: T[], more?: string) => ({
    items,
    metadata: { resourceVersion: '1000', ...(more ? { continue: more } : {}) },
  });
  const client: KubeClient = {
    server: 'https://in-memory',
    context: 'test',
    namespace: 'shop',
    async call<T>(call: ApiCall): Promise<T> {
      const key = `${call.verb} ${call.resource}${call.name ? `/${call.name}` : ''}`;
      calls.push(key);
      const answers: Record<string, unknown> = {
        'get deployments/web': deployment,
        'list replicasets': list([rs]),
        'list pods': list<Pod>([pod]),
        'list events': list<KubeEvent>([event]),
        'list nodes': list(nodePage.items, nodePage.continue),
        'list resourcequotas': list([]),
        'list poddisruptionbudgets': list([]),
        'list horizontalpodautoscalers': list([]),
      };
      if (!(key in answers)) throw new Error(`unexpected read: ${key}`);
      return answers[key] as T;
    },
    text: () => Promise.reject(new Error('no logs here')),
    watch: () => Promise.reject(new Error('no watch here')),
  };
  return { client, calls };
}

const tainted = (name: string): Node =>
  makeNode(name, { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] });

describe('a capped node list', () => {
  it('with no eligible node on its page is IncompleteEvidence naming the read, not Unschedulable', async () => {
    const { client, calls } = cluster({
      items: [tainted('batch-1'), tainted('batch-2')],
      continue: 'page-2',
    });
    const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(calls).toContain('list nodes');
    expect(snapshot.coverage.nodes).toBe('partial');
    expect(snapshot.nodesComplete).toBe(false);
    expect(snapshot.coverage.gaps).toContainEqual(
      expect.objectContaining({ about: 'nodes', reason: 'capped', what: 'nodes past the first 2' }),
    );
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(diagnosis.findings[0]?.summary).toContain('the nodes this pod may use (the node list was capped');
    expect(diagnosis.remediations).toEqual([]);
  });

  it('look-alike: the same page read whole (no continue token) is Unschedulable', async () => {
    const { client } = cluster({ items: [tainted('batch-1'), tainted('batch-2')] });
    const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'shop', name: 'web' });
    expect(snapshot.coverage.nodes).toBe('complete');
    expect(diagnose(snapshot).findings.map((f) => f.code)).toEqual(['Unschedulable']);
  });
});
