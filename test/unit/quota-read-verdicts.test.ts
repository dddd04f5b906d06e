/**
 * The namespace's ResourceQuotas as read (quota-limits.ts), and a DaemonSet's nodes with
 * no pod of ours left, held against what the controllers will do next:
 * - a quota that has refused nothing yet but cannot admit the next surge pod makes the
 *   rollout stuck, named as a quota that will refuse (not one that did);
 * - a quota whose status counts more than the pods (not replenished yet), a scoped
 *   quota, and a dump without quotas make no such claim;
 * - a DaemonSet is judged on every node its template selects: a node whose pod was
 *   deleted stays in the snapshot, and a snapshot that holds fewer nodes than the
 *   controller's desiredNumberScheduled makes the model say it cannot tell.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject, Node, Pod } from '../../src/diagnosis/k8s.js';
import type { ResourceQuota } from '../../src/diagnosis/k8s-policy.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { runForward } from '../../src/diagnosis/forward/run.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';
import { makeControllerRevision, makeDaemonPod, makeDaemonSet } from '../support/daemonset-builders.js';

/** A pod of another namespace: the dump was taken with -A, so every node's pods count as read. */
function neighbour(): Pod {
  const dns = makeDeployment('dns', { namespace: 'kube-system', replicas: 1 });
  return makePod(makeReplicaSet(dns, 'ccc333'), 'd1', 'node-0', { phase: 'Running' });
}

function quota(
  name: string,
  hard: Record<string, string>,
  used: Record<string, string>,
  scoped = false,
): KubeObject {
  const q: ResourceQuota = {
    apiVersion: 'v1',
    kind: 'ResourceQuota',
    metadata: { name, namespace: 'shop' },
    spec: { hard, ...(scoped ? { scopes: ['NotBestEffort'] } : {}) },
    status: { hard, used },
  };
  return q as unknown as KubeObject;
}

/**
 * web: 3 replicas, maxSurge 1, maxUnavailable 0, rolling from v1 to v2 with no new pod
 * yet: the first surge pod makes 4 pods. Nodes have room for everything.
 */
function surgeRollout(extra: KubeObject[]): KubeObject[] {
  const deployment = makeDeployment('web', {
    namespace: 'shop',
    replicas: 3,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
    image: 'shop/web:2',
  });
  const v1 = structuredClone(deployment.spec.template);
  v1.spec.containers = v1.spec.containers.map((c) => ({ ...c, image: 'shop/web:1' }));
  const old = makeReplicaSet(deployment, 'aaa111', { revision: 1, replicas: 3, template: v1 });
  const fresh = makeReplicaSet(deployment, 'bbb222', { revision: 2, replicas: 0 });
  const nodes: Node[] = ['node-0', 'node-1', 'node-2'].map((n) => makeNode(n, { allocatable: { cpu: '8' } }));
  const pods: Pod[] = ['x1', 'x2', 'x3'].map((s, i) => makePod(old, s, `node-${i}`, { phase: 'Running' }));
  return [deployment, old, fresh, ...nodes, ...pods, neighbour(), ...extra] as unknown as KubeObject[];
}

const WEB = { kind: 'Deployment', namespace: 'shop', name: 'web' } as const;

describe('a ResourceQuota read before it refuses anything', () => {
  it('with no room for the surge pod, the rollout is stuck and the quota named as one that will refuse', () => {
    const snapshot = assembleSnapshot(WEB, surgeRollout([quota('pods', { pods: '3' }, { pods: '3' })]));
    expect(snapshot.resourceQuotas?.map((q) => q.metadata.name)).toEqual(['pods']);
    const outcome = runForward(new AnalysisContext(snapshot), 'as-is');
    expect(outcome).toMatchObject({
      result: 'blocked',
      refused: true,
      quota: { name: 'pods', source: 'status' },
    });
    const stuck = diagnose(snapshot).findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.summary).toContain(
      'ResourceQuota pods, as its status counts it, will refuse the next new pod',
    );
  });

  it('with room for the surge pod, it finishes: no claim', () => {
    const snapshot = assembleSnapshot(WEB, surgeRollout([quota('pods', { pods: '4' }, { pods: '3' })]));
    expect(runForward(new AnalysisContext(snapshot), 'as-is').result).toBe('completes');
  });

  it('a status that counts pods gone since (not replenished yet) is recounted from the pods, never above them', () => {
    const snapshot = assembleSnapshot(WEB, surgeRollout([quota('pods', { pods: '4' }, { pods: '4' })]));
    expect(runForward(new AnalysisContext(snapshot), 'as-is').result).toBe('completes');
  });

  it('a scoped quota, and a dump without quotas, make no claim', () => {
    const scoped = assembleSnapshot(WEB, surgeRollout([quota('pods', { pods: '3' }, { pods: '3' }, true)]));
    expect(runForward(new AnalysisContext(scoped), 'as-is').result).toBe('completes');
    const unread = assembleSnapshot(WEB, surgeRollout([]));
    expect(unread.resourceQuotas).toBeUndefined();
    expect(runForward(new AnalysisContext(unread), 'as-is').result).toBe('completes');
  });
});

describe('a DaemonSet with a node whose pod is gone', () => {
  /** agent on node-0..2 (desired 3), rolling v1 → v2: node-0 updated, node-1 old, node-2's old pod deleted. */
  function agent(): KubeObject[] {
    const ds = makeDaemonSet('agent', {
      namespace: 'shop',
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      status: {
        observedGeneration: 2,
        desiredNumberScheduled: 3,
        currentNumberScheduled: 2,
        numberReady: 2,
        numberAvailable: 2,
        updatedNumberScheduled: 1,
        numberMisscheduled: 0,
        numberUnavailable: 1,
      },
    });
    const v1 = makeControllerRevision(ds, 'v1hash', 1, {
      ...ds.spec.template,
      spec: {
        ...ds.spec.template.spec,
        containers: [{ name: 'agent', image: 'registry.example/agent:1.0' }],
      },
    });
    const v2 = makeControllerRevision(ds, 'v2hash', 2);
    const nodes = ['node-0', 'node-1', 'node-2'].map((n) => makeNode(n));
    const pods = [
      makeDaemonPod(ds, v2, 'n0', 'node-0', { phase: 'Running' }),
      makeDaemonPod(ds, v1, 'n1', 'node-1', { phase: 'Running' }),
    ];
    return [ds, v1, v2, ...nodes, ...pods, neighbour()] as unknown as KubeObject[];
  }
  const AGENT = { kind: 'DaemonSet', namespace: 'shop', name: 'agent' } as const;

  it('keeps the node in the snapshot: the template selects it, though no pod of ours runs there', () => {
    const snapshot = assembleSnapshot(AGENT, agent());
    expect(snapshot.nodes.map((n) => n.metadata.name).sort()).toEqual(['node-0', 'node-1', 'node-2']);
  });

  it('fewer nodes than the controller wants pods on: the model cannot tell when it is done', () => {
    const snapshot = assembleSnapshot(AGENT, agent());
    const short = { ...snapshot, nodes: snapshot.nodes.filter((n) => n.metadata.name !== 'node-2') };
    expect(runForward(new AnalysisContext(short), 'as-is')).toEqual({
      result: 'unknown',
      why: 'the DaemonSet wants pods on nodes the snapshot does not hold',
    });
    expect(runForward(new AnalysisContext(snapshot), 'as-is').result).toBe('completes');
  });
});

/** The quota's refusal of the new ReplicaSet's first pod, as the ReplicaSet controller records it. */
function refusedCreate(): KubeObject {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'web-bbb222.1', namespace: 'shop' },
    involvedObject: { kind: 'ReplicaSet', name: 'web-bbb222', namespace: 'shop' },
    reason: 'FailedCreate',
    type: 'Warning',
    message:
      'Error creating: pods "web-bbb222-q7x2z" is forbidden: exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3',
    count: 4,
    lastTimestamp: '2026-11-22T02:59:00Z',
    source: { component: 'replicaset-controller' },
  } as unknown as KubeObject;
}

describe('a paused rollout the quota holds back', () => {
  it('judged as resumed: maxUnavailable 1 frees the quota, so it is paused, not stuck (RolloutPaused)', () => {
    // Paused after the new ReplicaSet asked for its first pod and the quota refused it.
    const objects = surgeRollout([quota('pods', { pods: '3' }, { pods: '3' }), refusedCreate()]);
    const deployment = objects[0] as unknown as { spec: { paused?: boolean; strategy: unknown } };
    deployment.spec.paused = true;
    deployment.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } };
    const fresh = objects[2] as unknown as { spec: { replicas: number } };
    fresh.spec.replicas = 1;
    const d = diagnose(assembleSnapshot(WEB, objects));
    expect(d.findings.map((f) => [f.code, f.severity])).toEqual([['RolloutPaused', 'info']]);
  });

  it('judged as resumed: with maxUnavailable 0 nothing frees the quota, and the pause is named with the verdict', () => {
    const objects = surgeRollout([quota('pods', { pods: '3' }, { pods: '3' })]);
    (objects[0] as unknown as { spec: { paused?: boolean } }).spec.paused = true;
    const d = diagnose(assembleSnapshot(WEB, objects));
    // The pause is named once, with what the resume meets; the verdict stands beside it.
    const paused = d.findings.filter((f) => f.code === 'RolloutPaused');
    expect(paused).toHaveLength(1);
    expect(paused[0]?.summary).toMatch(
      /is paused mid-rollout \(spec\.paused\).*once resumed, it can never finish/,
    );
    expect(d.findings.some((f) => f.severity !== 'info')).toBe(true);
  });
});
