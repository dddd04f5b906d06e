/**
 * The DaemonSet kind (issue 30.2) on objects shaped as the API server returns them: the
 * per-node surge deadlock on the node's only GPU (fixed on spec.updateStrategy, never
 * Recreate, a ReplicaSet scale or a restart), no deadlock without surge or with
 * OnDelete, and a crash loop on one node answered with a node exclusion that says what
 * the node loses without the agent (no pod deletion: the replacement lands on the same
 * node).
 */
import { describe, expect, it } from 'vitest';
import type { DaemonSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { planImpact, planWarnings } from '../../src/remediation/plan-words.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { makeEvent, makeNode } from '../support/k8s-builders.js';
import {
  gpuProbe,
  makeControllerRevision,
  makeDaemonPod,
  makeDaemonSet,
  makeDaemonSetSnapshot,
} from '../support/daemonset-builders.js';

describe('DaemonSet kind module', () => {
  it('resolves updateStrategy per node (percentages round up) and names kubectl rollout status as kubectl prints it', () => {
    const snapshot = gpuProbe({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 },
    });
    const kind = workloadKind(snapshot);
    const object = kind.object(snapshot);
    const strategy = kind.strategy(object);
    expect(strategy.maxSurge?.value).toBe(1);
    expect(strategy.per).toBe('node');
    expect(kind.replacement(strategy, snapshot)).toBe('surge-first');
    expect(kind.rolloutStatus(object).progress.message).toBe(
      'Waiting for daemon set "gpu-probe" rollout to finish: 0 out of 2 new pods have been updated...',
    );
    const { current, old } = kind.revisions(snapshot);
    expect(current?.pods.map((p) => p.metadata.name)).toEqual(['gpu-probe-w2b8n']);
    expect(old.flatMap((r) => r.pods.map((p) => p.spec.nodeName))).toEqual(['gpu-1', 'gpu-2']);
    expect(kind.underWay(snapshot)).toMatch(/older revision/);
  });
});

describe('DaemonSet strategy without a status (a hand-written dump)', () => {
  it('a percentage maxSurge still surges: the node count is unknown, not 0', () => {
    const snapshot = gpuProbe({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: '10%', maxUnavailable: 0 },
    });
    const kind = workloadKind(snapshot);
    const object = kind.object(snapshot);
    delete object.status;
    expect(kind.replacement(kind.strategy(object), snapshot)).toBe('surge-first');
  });
});

describe('DaemonSet surge deadlock', () => {
  it("is RolloutSurgeDeadlock when the surge pod waits for the node's only GPU, fixed with maxSurge 0 on spec.updateStrategy", () => {
    const diagnosis = diagnose(
      gpuProbe({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }),
    );
    const [finding] = diagnosis.findings;
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toContain('held by old pod gpu-probe-x7k2p of this DaemonSet');
    expect(finding?.explanation).toContain('on spec.updateStrategy (a DaemonSet has no Recreate)');
    expect(diagnosis.remediations.map((p) => p.kind)).toEqual(['set-rolling-update']);
    expect(diagnosis.remediations[0]?.patch?.body).toEqual({
      spec: { updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
    });
    expect(diagnosis.manifestChanges?.[0]?.diff).toContain('+  updateStrategy:');
  });

  it('is no deadlock where the old pods are not Ready: beside a surge pod the controller replaces such a pod (podsShouldBeOnNode)', () => {
    const snapshot = gpuProbe({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const unready = (p: Pod): Pod => ({
      ...p,
      status: {
        ...p.status,
        conditions: (p.status?.conditions ?? []).map((c) =>
          c.type === 'Ready' || c.type === 'ContainersReady' ? { ...c, status: 'False' } : c,
        ),
        containerStatuses: (p.status?.containerStatuses ?? []).map((c) => ({ ...c, ready: false })),
      },
    });
    // Both old pods: a Ready one on the other node would hold its GPU against the next surge pod.
    const pods = snapshot.pods.map((p) =>
      p.metadata.name?.includes('-x7k2p') || p.metadata.name?.includes('-q9m4t') ? unready(p) : p,
    );
    const diagnosis = diagnose({ ...snapshot, pods });
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
  });

  it("warns that a node runs without its device plugin while the pod is replaced, in the reader's language", () => {
    const plainProbe = diagnose(
      gpuProbe({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } }),
    ).remediations[0];
    expect(plainProbe?.warnings.join(' ')).not.toContain('runs without this DaemonSet');
    const snapshot = gpuProbe({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const kind = workloadKind(snapshot);
    kind.podTemplate(kind.object(snapshot)).spec.volumes = [
      { name: 'device-plugin', hostPath: { path: '/var/lib/kubelet/device-plugins' } },
    ];
    const plan = diagnose(snapshot).remediations[0];
    if (!plan) throw new Error('no plan');
    const gap = plan.warnings.find((w) => w.startsWith('While a node'));
    expect(gap).toBe(
      "While a node's pod is replaced the node runs without this DaemonSet: it is a device plugin (it registers in the kubelet's device-plugins directory): a node without it stops offering its devices, so pods that request them cannot start there. maxUnavailable 1 keeps that to 1 node at a time, each until its new pod is Ready.",
    );
    expect(planWarnings(plan, 'ko')).toContain(
      '노드의 파드를 교체하는 동안 그 노드는 이 DaemonSet 없이 돌아갑니다: 장치 플러그인입니다(kubelet의 장치 플러그인 디렉터리에 등록합니다): 이 플러그인이 없는 노드는 장치를 더 이상 제공하지 않으므로, 장치를 요청하는 파드가 그 노드에서 시작하지 못합니다. maxUnavailable 1이므로 한 번에 노드 1개까지, 각각 새 파드가 Ready가 될 때까지만 그렇습니다.',
    );
  });

  it('is no deadlock without surge or with OnDelete: the old pod goes first (or only when deleted)', () => {
    for (const strategy of [
      { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } },
      { type: 'OnDelete' },
    ]) {
      const codes = diagnose(gpuProbe(strategy)).findings.map((f) => f.code);
      expect(codes, strategy.type).not.toContain('RolloutSurgeDeadlock');
    }
  });
});

describe('DaemonSet crash loop on one node', () => {
  /** A CSI node plugin that crash-loops only on the node with the other kernel. */
  function csiNode() {
    const nodes = [
      makeNode('node-a'),
      makeNode('node-b', { kernelVersion: '6.8.0-1009-aws' }),
      makeNode('node-c'),
    ];
    const ds = makeDaemonSet('csi-node', {
      podSpec: {
        containers: [{ name: 'csi-node', image: 'registry.example/csi-node:2.0' }],
        volumes: [
          {
            name: 'registration',
            hostPath: { path: '/var/lib/kubelet/plugins_registry', type: 'Directory' },
          },
        ],
      },
      status: {
        observedGeneration: 2,
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        numberAvailable: 2,
        numberUnavailable: 1,
        updatedNumberScheduled: 3,
        numberMisscheduled: 0,
      },
    });
    const rev = makeControllerRevision(ds, '7c9d8f6b5', 1);
    const pods = [
      makeDaemonPod(ds, rev, 'a1b2c', 'node-a', { phase: 'Running' }),
      makeDaemonPod(ds, rev, 'd4f5g', 'node-b', { phase: 'CrashLoopBackOff', restarts: 9, exitCode: 1 }),
      makeDaemonPod(ds, rev, 'h6j7k', 'node-c', { phase: 'Running' }),
    ];
    return makeDaemonSetSnapshot({ daemonSet: ds, controllerRevisions: [rev], pods, nodes });
  }

  it('blames the node, offers the exclusion in the DaemonSet affinity with what the node loses, and no pod deletion', () => {
    const diagnosis = diagnose(csiNode());
    expect(diagnosis.findings[0]?.code).toBe('CrashLoopOnNode');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('delete-pods');
    const exclude = diagnosis.remediations.find((p) => p.kind === 'exclude-node');
    expect(exclude?.impact).toContain('csi-node stops running on node-b');
    expect(exclude?.impact).toContain('CSI node plugin');
    expect(exclude?.warnings.join(' ')).toContain('deleted, not moved');
  });

  it('says the exclusion in Korean where every node was read, and its English counts the nodes that keep the agent', () => {
    const exclude = diagnose(csiNode()).remediations.find((p) => p.kind === 'exclude-node');
    if (!exclude) throw new Error('expected an exclude-node plan');
    expect(exclude.impact).toMatch(
      /^csi-node stops running on node-b: the DaemonSet controller deletes its pod there and starts none elsewhere; 2 of 3 eligible node\(s\) keep it\. Losing it matters: it is a CSI node plugin .*Cordon or repair the excluded node rather than leave it serving without it\. /,
    );
    const ko = planImpact(exclude, 'ko');
    expect(ko).toMatch(
      /^csi-node 파드는 node-b 노드에서 더 이상 실행되지 않습니다: DaemonSet 컨트롤러가 그 노드의 파드를 삭제하고 다른 노드에 새로 만들지 않습니다\. 배치할 수 있는 노드 3개 중 2개에는 그대로 남습니다\. 이 파드가 없으면 문제가 됩니다: CSI 노드 플러그인입니다/,
    );
    expect(ko).toContain('후 끝납니다');
    expect(planWarnings(exclude, 'ko')).toContain(
      'node-b 노드의 파드는 옮겨지지 않고 삭제됩니다: DaemonSet은 고른 노드마다 파드를 정확히 하나씩 실행합니다.',
    );
  });
});

/** The agent settled on three nodes; node-d joined without room for it (its pod Pending there). */
function newNodeFull() {
  const nodes = [
    makeNode('node-a'),
    makeNode('node-b'),
    makeNode('node-c'),
    makeNode('node-d', { allocatable: { cpu: '100m' } }),
  ];
  const ds = makeDaemonSet('log-shipper', {
    podSpec: {
      containers: [
        {
          name: 'log-shipper',
          image: 'registry.example/log-shipper:2.0',
          resources: { requests: { cpu: '500m' } },
        },
      ],
    },
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: 4,
      currentNumberScheduled: 4,
      numberReady: 3,
      numberAvailable: 3,
      numberUnavailable: 1,
      updatedNumberScheduled: 4,
      numberMisscheduled: 0,
    },
  });
  const rev = makeControllerRevision(ds, '7c9d8f6b5', 1);
  const pods = ['node-a', 'node-b', 'node-c'].map((n, i) =>
    makeDaemonPod(ds, rev, ['a1b2c', 'd4f5g', 'h6j7k'][i] ?? 'x', n, { phase: 'Running' }),
  );
  const pending = makeDaemonPod(ds, rev, 'm8n9p', 'node-d', { phase: 'Pending' });
  const event = makeEvent(
    {
      kind: 'Pod',
      name: pending.metadata.name,
      namespace: ds.metadata.namespace,
      uid: pending.metadata.uid,
    },
    'FailedScheduling',
    "0/4 nodes are available: 1 Insufficient cpu, 3 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
    { type: 'Warning', component: 'default-scheduler' },
  );
  return makeDaemonSetSnapshot({
    daemonSet: ds,
    controllerRevisions: [rev],
    pods: [...pods, pending],
    events: [event],
    nodes,
  });
}

describe('DaemonSet rollout held up by a node', () => {
  it('a pod that cannot be scheduled on a new node is Unschedulable on that node, not a surge deadlock', () => {
    const diagnosis = diagnose(newNodeFull());
    const [finding] = diagnosis.findings;
    expect(finding?.code).toBe('Unschedulable');
    expect(finding?.summary).toContain('node-d');
    expect(finding?.summary).toMatch(/cpu/);
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
  });

  it('a pod on a node that stopped reporting makes the DaemonSet Unavailable with the node named', () => {
    const snapshot = newNodeFull();
    const node = snapshot.nodes.find((n) => n.metadata.name === 'node-c');
    const ready = node?.status?.conditions?.find((c) => c.type === 'Ready');
    if (ready)
      Object.assign(ready, {
        status: 'Unknown',
        reason: 'NodeStatusUnknown',
        message: 'Kubelet stopped posting node status.',
      });
    const findings = diagnose(snapshot).findings;
    expect(findings.map((f) => f.code)).toContain('Unavailable');
    expect(findings.find((f) => f.code === 'Unavailable')?.summary).toContain('node-c');
  });
});

describe('DaemonSet pods that are not Ready', () => {
  function notReady(createdAt?: string) {
    const ds = makeDaemonSet('metrics-agent', {
      status: {
        observedGeneration: 2,
        desiredNumberScheduled: 3,
        currentNumberScheduled: 3,
        numberReady: 2,
        numberAvailable: 2,
        numberUnavailable: 1,
        updatedNumberScheduled: 3,
        numberMisscheduled: 0,
      },
    });
    const rev = makeControllerRevision(ds, '7c9d8f6b5', 1);
    const pods = ['node-a', 'node-b', 'node-c'].map((n, i) =>
      makeDaemonPod(ds, rev, ['a1b2c', 'd4f5g', 'h6j7k'][i] ?? 'x', n, { phase: 'Running', ready: i !== 2 }),
    );
    const last = pods[2];
    if (last && createdAt) last.metadata.creationTimestamp = createdAt;
    return makeDaemonSetSnapshot({
      daemonSet: ds,
      controllerRevisions: [rev],
      pods,
      nodes: ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n)),
    });
  }

  it('long unready with nothing to explain it is Unavailable (never "no problem found")', () => {
    expect(diagnose(notReady()).findings.map((f) => f.code)).toEqual(['Unavailable']);
  });

  it('a pod created a minute ago is still coming up: no verdict yet', () => {
    expect(diagnose(notReady('2026-11-22T02:59:00Z')).findings).toEqual([]);
  });
});

describe('DaemonSet pods the API server refuses', () => {
  it('a FailedCreate on the DaemonSet while nodes lack its pod is the refusal, named by its rule', () => {
    const snapshot = newNodeFull();
    const ds = workloadKind(snapshot).object(snapshot) as DaemonSet;
    if (ds.status) ds.status.updatedNumberScheduled = 3;
    snapshot.pods = snapshot.pods.filter((p) => p.spec.nodeName !== undefined);
    snapshot.events = [
      makeEvent(
        { kind: 'DaemonSet', name: ds.metadata.name, namespace: ds.metadata.namespace, uid: ds.metadata.uid },
        'FailedCreate',
        'Error creating: pods "log-shipper-m8n9p" is forbidden: violates PodSecurity "baseline:latest": hostPath volumes (volume "varlog")',
        { type: 'Warning', component: 'daemonset-controller' },
      ),
    ];
    const finding = diagnose(snapshot).findings.find((f) => f.code === 'AdmissionDenied');
    expect(finding?.summary).toContain('PodSecurity');
  });
});
