import { plainCodeSpans } from '../../src/text/code-span.js';
import { describe, expect, it } from 'vitest';
import { unschedulable } from '../../src/diagnosis/analyzers/unschedulable.js';
import { diagnose } from '../../src/engine/diagnose.js';
import {
  makeDeployment,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';
import { seedIncidentA, unschedulablePod } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

const STRATEGY_KINDS = ['set-rolling-update', 'set-recreate'];

describe('Unschedulable', () => {
  it('nodeSelector naming a node without GPUs: says what must change, proposes no strategy change', () => {
    const snapshot = seedIncidentA({ newNodeSelector: 'cpu-node-3' });
    const [finding] = unschedulable.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('Unschedulable');
    expect(finding?.summary).toContain('cpu-node-3, the only node it may use, has no nvidia.com/gpu');
    expect(finding?.explanation).toContain('not a rollout-strategy problem');
    const note = finding?.evidence.find((e) => e.type === 'note');
    expect(note?.type === 'note' && note.text).toContain('select nodes that have nvidia.com/gpu');
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
    expect(result.remediations.filter((p) => STRATEGY_KINDS.includes(p.kind))).toEqual([]);
  });

  it('a GPU node whose device is unhealthy (capacity 1, allocatable 0): repair the device, never drop the request', () => {
    const deployment = makeDeployment('object-tracker', {
      namespace: 'vision',
      replicas: 1,
      resources: { limits: { 'nvidia.com/gpu': '1' } },
      podSpec: { nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' } },
    });
    const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 1, replicas: 1 });
    const { pod: pending, event } = unschedulablePod(
      makePod(rs, 'h8v2n', undefined, { phase: 'Pending' }),
      "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    const sick = makeNode('tracker-node', { allocatable: { 'nvidia.com/gpu': '0' } });
    sick.status = { ...sick.status, capacity: { ...sick.status?.capacity, 'nvidia.com/gpu': '1' } };
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [pending],
      events: [event],
      nodes: [sick, makeNode('cpu-1'), makeNode('cpu-2')],
    });
    const finding = diagnose(snapshot).findings.find((f) => f.code === 'Unschedulable');
    expect(finding?.summary).toContain('tracker-node has nvidia.com/gpu but none allocatable');
    const note = finding?.evidence.find((e) => e.type === 'note');
    expect(note?.type === 'note' && note.text).toContain('repair the nvidia.com/gpu device');
    expect(JSON.stringify(finding)).not.toMatch(/drop the nvidia.com\/gpu request|has no nvidia.com\/gpu/);
  });

  it('names a cordoned node that matches the pod and has room: uncordon is the way out without downtime', () => {
    const deployment = makeDeployment('object-tracker', {
      namespace: 'vision',
      replicas: 2,
      resources: { limits: { 'nvidia.com/gpu': '1' } },
      podSpec: { nodeSelector: { pool: 'gpu' } },
    });
    const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2, replicas: 2 });
    const running = makePod(rs, 'x2kqp', 'gpu-1', { phase: 'Running' });
    const { pod: pending, event } = unschedulablePod(
      makePod(rs, 'h8v2n', undefined, { phase: 'Pending' }),
      "0/4 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) were unschedulable, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 1 No preemption victims found for incoming pod, 3 Preemption is not helpful for scheduling.",
    );
    const cordon = [{ key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' as const }];
    const gpuNode = (name: string, extra: object = {}) =>
      makeNode(name, { labels: { pool: 'gpu' }, allocatable: { 'nvidia.com/gpu': '1' }, ...extra });
    const verdict = (spare: ReturnType<typeof makeNode>) =>
      diagnose(
        makeSnapshot({
          deployment,
          replicaSets: [rs],
          pods: [running, pending],
          events: [event],
          nodes: [gpuNode('gpu-1'), spare, makeNode('cpu-1'), makeNode('cpu-2')],
        }),
      ).findings.find((f) => f.code === 'Unschedulable');
    const withRoom = verdict(gpuNode('gpu-2', { unschedulable: true, taints: cordon }));
    expect(plainCodeSpans(JSON.stringify(withRoom?.evidence))).toContain(
      'Cordoned node gpu-2 matches this pod and has room for it now: `kubectl uncordon gpu-2`',
    );
    // Look-alikes: a cordoned node without room, or with another taint, is not offered.
    const full = gpuNode('gpu-2', {
      unschedulable: true,
      taints: cordon,
      allocatable: { 'nvidia.com/gpu': '0' },
    });
    expect(JSON.stringify(verdict(full)?.evidence)).not.toContain('uncordon');
    const tainted = gpuNode('gpu-2', {
      unschedulable: true,
      taints: [...cordon, { key: 'maintenance', effect: 'NoSchedule' as const }],
    });
    expect(JSON.stringify(verdict(tainted)?.evidence)).not.toContain('uncordon');
  });

  it('replicas raised beyond capacity (no rollout): lower replicas or add capacity', () => {
    const deployment = makeDeployment('object-tracker', {
      namespace: 'vision',
      replicas: 2,
      resources: { limits: { 'nvidia.com/gpu': '1' } },
      podSpec: { nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' } },
    });
    const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2, replicas: 2 });
    const running = makePod(rs, 'x2kqp', 'tracker-node', { phase: 'Running' });
    const { pod: pending, event } = unschedulablePod(
      makePod(rs, 'h8v2n', undefined, { phase: 'Pending' }),
      "0/3 nodes are available: 1 Insufficient nvidia.com/gpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.",
    );
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [running, pending],
      events: [event],
      nodes: [
        makeNode('tracker-node', { allocatable: { 'nvidia.com/gpu': '1' } }),
        makeNode('cpu-1'),
        makeNode('cpu-2'),
      ],
    });
    const result = diagnose(snapshot);
    const finding = result.findings.find((f) => f.code === 'Unschedulable');
    expect(finding?.summary).toContain('1 nvidia.com/gpu (1 allocatable, 1 in use)');
    const note = finding?.evidence.find((e) => e.type === 'note');
    expect(note?.type === 'note' && note.text).toContain(
      'lower replicas (1 replica of this Deployment already hold',
    );
    expect(result.findings.map((f) => f.code)).not.toContain('RolloutSurgeDeadlock');
    expect(result.remediations.filter((p) => STRATEGY_KINDS.includes(p.kind))).toEqual([]);
  });

  it('taint without toleration: add a toleration or remove the taint', () => {
    const snapshot = seedIncidentA({ trackerTaint: true });
    const [finding] = unschedulable.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('dedicated=gpu:NoSchedule without a matching toleration');
    const note = finding?.evidence.find((e) => e.type === 'note');
    expect(note?.type === 'note' && note.text).toContain('add a toleration for dedicated=gpu:NoSchedule');
    expect(diagnose(snapshot).remediations.filter((p) => STRATEGY_KINDS.includes(p.kind))).toEqual([]);
  });

  it('no node matches the selector at all', () => {
    const snapshot = seedIncidentA({ newNodeSelector: 'gpu-node-99' });
    const [finding] = unschedulable.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('no node matches its nodeSelector kubernetes.io/hostname=gpu-node-99');
  });

  it('unbound PVC', () => {
    const deployment = makeDeployment('report', {
      namespace: 'vision',
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const rs = makeReplicaSet(deployment, 'abc12', { revision: 2 });
    const { pod, event } = unschedulablePod(
      makePod(rs, 'q1', undefined, { phase: 'Pending' }),
      '0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.',
    );
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [pod],
      events: [event],
      nodes: [makeNode('a'), makeNode('b'), makeNode('c')],
      pvcs: [makePvc('data', 'vision', { phase: 'Pending' })],
    });
    const [finding] = unschedulable.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('PersistentVolumeClaim "data", which is not bound');
  });

  it('stays silent for the seed deadlock (the deadlock analyzer speaks)', () => {
    expect(unschedulable.analyze(new AnalysisContext(seedIncidentA()))).toEqual([]);
  });

  it('reports the scheduler reasons when the snapshot shows room it cannot explain', () => {
    const snapshot = seedIncidentA();
    const node = snapshot.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (node?.status?.allocatable) node.status.allocatable['nvidia.com/gpu'] = '2';
    const [finding] = unschedulable.analyze(new AnalysisContext(snapshot));
    expect(finding?.severity).toBe('warning');
    expect(finding?.summary).toContain('1 Insufficient nvidia.com/gpu');
    expect(finding?.summary).toContain('room on tracker-node');
  });
});

describe('a holder stuck terminating', () => {
  /** Seed incident A after the old pod was deleted: `minutesAgo` past its deletion deadline. */
  function deletedOldPod(minutesAgo: number, finalizers?: string[]) {
    const snapshot = seedIncidentA();
    const old = snapshot.pods.find((p) => p.spec.nodeName);
    if (!old) throw new Error('fixture has a bound old pod');
    const deadline = Date.parse(snapshot.capturedAt) - minutesAgo * 60_000;
    old.metadata.deletionTimestamp = new Date(deadline).toISOString().replace('.000Z', 'Z');
    if (finalizers) old.metadata.finalizers = finalizers;
    return { snapshot, old };
  }

  it('is named with its finalizer, and no strategy change is offered', () => {
    const { snapshot, old } = deletedOldPod(28, ['example.com/block']);
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(result.findings[0]?.summary).toContain(
      `${old.metadata.name ?? ''}, deleted but stuck terminating`,
    );
    expect(result.findings[0]?.summary).toContain('finalizers example.com/block');
    expect(result.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
  });

  it('look-alike: a pod still inside its grace period is about to free the GPU, not stuck', () => {
    const { snapshot } = deletedOldPod(-0.25);
    const codes = diagnose(snapshot).findings.map((f) => f.code);
    expect(codes).not.toContain('Unschedulable');
  });
});
