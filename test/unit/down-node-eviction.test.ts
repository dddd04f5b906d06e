/**
 * Pods on a node that stopped reporting, judged by what the taint-eviction controller
 * does with them (pkg/controller/tainteviction processPodOnNode, getMinTolerationTime):
 * a Deployment's pod tolerating the unreachable taint for 300 s (admission's default) is
 * deleted then and the ReplicaSet makes a replacement at once, so a shortfall ends by
 * itself where a node that reports has room; a pod that tolerates it for ever
 * (`operator: Exists`) is never deleted: the shortfall stays, and a rollout that waits
 * for such a new pod is stuck, not "no problem found".
 */
import { describe, expect, it } from 'vitest';
import type { Pod, Toleration } from '../../src/diagnosis/k8s.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { taintEviction } from '../../src/diagnosis/base/taint-eviction.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet, makeSnapshot } from '../support/k8s-builders.js';

const DEFAULT_TOLERATIONS: Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 },
];
const FOR_EVER: Toleration[] = [{ operator: 'Exists' }];

/** n3 silent since 02:58 (the snapshot is read at 03:00), tainted as the node lifecycle controller taints it. */
function deadNode(): ReturnType<typeof makeNode> {
  const node = makeNode('n3', {
    taints: [
      { key: 'node.kubernetes.io/unreachable', effect: 'NoExecute', timeAdded: '2026-11-22T02:58:00Z' },
      { key: 'node.kubernetes.io/unreachable', effect: 'NoSchedule', timeAdded: '2026-11-22T02:58:00Z' },
    ],
  });
  node.status = {
    ...node.status,
    conditions: [
      {
        type: 'Ready',
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
        lastTransitionTime: '2026-11-22T02:58:00Z',
      },
    ],
  };
  return node;
}

/** web, 3 replicas at rest, one on n3; `room`: whether n1 and n2 have room for a fourth pod. */
function steady(tolerations: Toleration[], room = true): DeploymentSnapshot {
  const deployment = makeDeployment('web', {
    namespace: 'shop',
    replicas: 3,
    generation: 1,
    resources: { requests: { cpu: '3' } },
    podSpec: { tolerations },
    status: {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 2,
      availableReplicas: 2,
    },
  });
  const rs = makeReplicaSet(deployment, 'a1', { revision: 1, replicas: 3 });
  const pods = [
    makePod(rs, 'x1', 'n1', { phase: 'Running' }),
    makePod(rs, 'x2', 'n2', { phase: 'Running' }),
    makePod(rs, 'x3', 'n3', { phase: 'Running', ready: false }),
  ];
  const small = room ? {} : { allocatable: { cpu: '4' } };
  return makeSnapshot({
    deployment,
    replicaSets: [rs],
    pods,
    nodes: [makeNode('n1', small), makeNode('n2', small), deadNode()],
  });
}

describe('a node that stopped reporting, under a Deployment at rest', () => {
  it('default tolerations: evicted at 03:03 and replaced where there is room, a warning that it heals itself', () => {
    const [first] = diagnose(steady(DEFAULT_TOLERATIONS)).findings;
    expect(first?.code).toBe('Unavailable');
    expect(first?.severity).toBe('warning');
    expect(first?.summary).toContain(
      'the taint-eviction controller deletes its pod at 2026-11-22T03:03:00Z (it tolerates node.kubernetes.io/unreachable for 300s)',
    );
    expect(first?.summary).toContain('which a node that reports has room for now');
    expect(first?.summary).not.toContain('stays there');
  });

  it('default tolerations but no room on the nodes that report: critical, the replacement stays Pending', () => {
    const [first] = diagnose(steady(DEFAULT_TOLERATIONS, false)).findings;
    expect(first?.severity).toBe('critical');
    expect(first?.summary).toContain('which no node that reports has room for: it stays Pending');
  });

  it('tolerated for ever: nothing evicts it, the pod stays there, critical', () => {
    const [first] = diagnose(steady(FOR_EVER)).findings;
    expect(first?.code).toBe('Unavailable');
    expect(first?.severity).toBe('critical');
    expect(first?.summary).toContain(
      'its pod stays there: it tolerates node.kubernetes.io/unreachable for ever (no tolerationSeconds), so nothing evicts it',
    );
  });
});

/** web mid-rollout (maxSurge 1, maxUnavailable 0): new web-b2 at 3, its third pod on n3; one old pod left. */
function rolling(tolerations: Toleration[]): DeploymentSnapshot {
  const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } };
  const deployment = makeDeployment('web', {
    namespace: 'shop',
    replicas: 3,
    image: 'web:2',
    strategy,
    podSpec: { tolerations },
    status: {
      observedGeneration: 2,
      replicas: 4,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
    },
  });
  const old = makeReplicaSet(
    makeDeployment('web', { namespace: 'shop', replicas: 3, strategy, podSpec: { tolerations } }),
    'a1',
    { revision: 1, replicas: 1 },
  );
  const current = makeReplicaSet(deployment, 'b2', { revision: 2, replicas: 3 });
  const pods: Pod[] = [
    makePod(old, 'x1', 'n1', { phase: 'Running' }),
    makePod(current, 'y1', 'n1', { phase: 'Running' }),
    makePod(current, 'y2', 'n2', { phase: 'Running' }),
    makePod(current, 'y3', 'n3', { phase: 'Running', ready: false }),
  ];
  return makeSnapshot({
    deployment,
    replicaSets: [old, current],
    pods,
    nodes: [makeNode('n1'), makeNode('n2'), deadNode()],
  });
}

describe('a rollout waiting for a new pod on a node that stopped reporting', () => {
  it('tolerated for ever: the rollout is stuck on that pod, with the delete that moves it on', () => {
    const d = diagnose(rolling(FOR_EVER));
    const stuck = d.findings.find((f) => f.code === 'RolloutStuck');
    expect(stuck?.severity).toBe('critical');
    expect(stuck?.summary).toContain('held by new pod web-b2-y3 on node n3, which stopped reporting');
    expect(stuck?.explanation).toContain('kubectl delete pod web-b2-y3 -n shop');
  });

  it('default tolerations: it moves on by itself once the pod is evicted, said as progress', () => {
    const d = diagnose(rolling(DEFAULT_TOLERATIONS));
    expect(d.findings.map((f) => f.code)).toEqual(['RolloutProgressing']);
    expect(d.findings[0]?.summary).toContain('deletes them at 2026-11-22T03:03:00Z');
  });
});

describe('taintEviction (getMinTolerationTime over GetMatchingTolerations)', () => {
  const pod = (tolerations: Toleration[]): Pod => ({
    metadata: { name: 'p' },
    spec: { containers: [], tolerations },
  });

  it('a NoExecute taint no toleration matches: deleted now', () => {
    expect(taintEviction(pod([]), deadNode())?.when).toBe('now');
  });

  it('the least seconds among the first toleration of each taint, counted from the taint', () => {
    const node = deadNode();
    node.spec = {
      taints: [
        ...(node.spec?.taints ?? []),
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: '2026-11-22T02:58:00Z' },
      ],
    };
    const e = taintEviction(
      pod([
        {
          key: 'node.kubernetes.io/unreachable',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 600,
        },
        {
          key: 'node.kubernetes.io/not-ready',
          operator: 'Exists',
          effect: 'NoExecute',
          tolerationSeconds: 60,
        },
      ]),
      node,
    );
    expect(e).toEqual({
      when: 'at',
      at: '2026-11-22T02:59:00Z',
      seconds: 60,
      taint: 'node.kubernetes.io/not-ready',
    });
  });

  it('no toleration with seconds: never', () => {
    expect(taintEviction(pod(FOR_EVER), deadNode())?.when).toBe('never');
  });
});
