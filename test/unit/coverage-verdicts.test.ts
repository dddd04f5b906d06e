/**
 * Unknown is not empty (issue 13, items 1-3): what the snapshot did not read is
 * never free or absent; a proof on one node stands; constraints come from the pods
 * as admitted. Each class beside the look-alike that keeps today's verdict.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Coverage, DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { fullCoverage } from '../../src/diagnosis/snapshot/types.js';
import type { Pod, Toleration } from '../../src/diagnosis/k8s.js';
import { makeNode, makePod } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout, seedIncidentA } from '../support/rollout-scenarios.js';

const NODES_UNREAD: Coverage = {
  ...fullCoverage(),
  nodes: 'unread',
  podsReadOn: [],
  gaps: [
    { about: 'nodes', what: 'nodes', reason: 'forbidden', settle: 'grant list on nodes (cluster-wide)' },
  ],
};

function codes(snapshot: DeploymentSnapshot): string[] {
  return diagnose(snapshot).findings.map((f) => f.code);
}

function planKinds(snapshot: DeploymentSnapshot): string[] {
  return diagnose(snapshot).remediations.map((p) => p.kind);
}

describe('nodes that could not be read (namespace-scoped RBAC, a dump without Node objects)', () => {
  it("proves the seed GPU deadlock from the scheduler's counts and the old pod, and offers the fix", () => {
    const snapshot = { ...seedIncidentA(), nodes: [], nodesComplete: false, coverage: NODES_UNREAD };
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    const [finding] = result.findings;
    expect(finding?.summary).toMatch(
      /^Rollout of object-tracker can never finish: .* needs nvidia\.com\/gpu on tracker-node/,
    );
    expect(finding?.explanation).toContain("the scheduler's message settles it");
    expect(result.remediations.map((p) => p.kind)).toEqual([
      'set-rolling-update',
      'set-recreate',
      'scale-old-replicaset',
    ]);
  });

  it('is IncompleteEvidence, not Unschedulable, when the new template asks for more than the old pod holds', () => {
    const base = seedIncidentA();
    const pending = base.parts.newPods[0] as Pod;
    const container = pending.spec.containers[0];
    if (container) container.resources = { limits: { 'nvidia.com/gpu': '2' } };
    const snapshot = { ...base, nodes: [], nodesComplete: false, coverage: NODES_UNREAD };
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(result.findings[0]?.summary).toContain('the nodes');
    expect(result.findings[0]?.explanation).toContain('No change is offered');
    expect(result.remediations).toEqual([]);
  });

  it('is IncompleteEvidence when the counts do not pin the nodes down (a node failing two reasons)', () => {
    const base = seedIncidentA();
    // 11 reasons for 10 nodes: the GPU node may also carry the taint, and then freeing its GPU is not enough.
    const message =
      "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) had untolerated taint {dedicated: gpu}, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.";
    const snapshot = {
      ...pendingRolloutSnapshot(base.parts, [], message),
      nodesComplete: false,
      coverage: NODES_UNREAD,
    };
    expect(codes(snapshot)).toEqual(['IncompleteEvidence']);
    expect(planKinds(snapshot)).toEqual([]);
  });

  describe("an untolerated taint on every node, proved by the scheduler's counts", () => {
    const TAINT_ONLY =
      '0/1 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling.';
    const taintSnapshot = (at: { pod?: string; message?: string } = {}) => {
      const parts = rollout('web', { oldNodes: ['node-1'] });
      const pending = parts.newPods[0] as Pod;
      pending.metadata.creationTimestamp = at.pod ?? '2026-11-22T02:39:30Z';
      const snapshot = {
        ...pendingRolloutSnapshot(parts, [], TAINT_ONLY),
        nodesComplete: false,
        coverage: NODES_UNREAD,
      };
      const when = at.message ?? '2026-11-22T02:40:00Z';
      const condition = pending.status?.conditions?.[0];
      if (condition) condition.lastTransitionTime = when;
      for (const e of snapshot.events) e.lastTimestamp = when;
      return snapshot;
    };

    it('single node, nodes forbidden: Unschedulable, saying the nodes were unread and the proof is the message', () => {
      const result = diagnose(taintSnapshot());
      expect(result.findings.map((f) => f.code)).toEqual(['Unschedulable']);
      const [finding] = result.findings;
      expect(finding?.summary).toContain('the nodes were not read');
      expect(finding?.summary).toContain("the proof is the scheduler's message");
      expect(finding?.summary).toContain('1 node(s) had untolerated taint {dedicated: gpu}');
      expect(finding?.explanation).toContain('add a toleration for dedicated=gpu');
      // No strategy change is offered: old pods leaving frees nothing.
      expect(result.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
    });

    it('look-alike: a message older than the pod (stale) stays IncompleteEvidence', () => {
      const result = diagnose(
        taintSnapshot({ pod: '2026-11-22T02:41:00Z', message: '2026-11-22T02:40:00Z' }),
      );
      expect(result.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    });

    it('look-alike: counts that do not cover every node stay IncompleteEvidence', () => {
      const snapshot = taintSnapshot();
      const message =
        '0/2 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.';
      const pod = snapshot.pods.find((p) => !p.spec.nodeName);
      const condition = pod?.status?.conditions?.[0];
      if (condition) condition.message = message;
      for (const e of snapshot.events) e.message = message;
      expect(codes(snapshot)).toEqual(['IncompleteEvidence']);
    });
  });

  it('look-alike: with every node read the same message stays an Unschedulable or a deadlock, never incomplete', () => {
    expect(codes(seedIncidentA())).toEqual(['RolloutSurgeDeadlock']);
    expect(codes(seedIncidentA({ newNodeSelector: 'gpu-a100-9' }))).toEqual(['Unschedulable']);
  });
});

describe('other workloads whose pods on a node were not read', () => {
  it("says 'probably' and offers no change when the old pod frees less than the new pod asks for", () => {
    const base = seedIncidentA();
    const node = base.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (node?.status?.allocatable) node.status.allocatable['nvidia.com/gpu'] = '2';
    const pending = base.parts.newPods[0] as Pod;
    const container = pending.spec.containers[0];
    if (container) container.resources = { limits: { 'nvidia.com/gpu': '2' } };
    // A dump of one namespace: who else holds the node's second GPU is unknown.
    const snapshot = { ...base, coverage: { ...fullCoverage(), podsReadOn: [] } };
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    expect(result.findings[0]?.summary).toContain('probably can never finish');
    expect(result.findings[0]?.explanation).toContain('no strategy change is offered');
    expect(result.remediations).toEqual([]);
    // Look-alike: every pod read, the same state is proved and the fix offered.
    const proved = diagnose({ ...snapshot, coverage: fullCoverage() });
    expect(proved.findings[0]?.summary).toContain('Rollout of object-tracker can never finish');
    expect(proved.remediations.map((p) => p.kind)).toEqual([
      'set-rolling-update',
      'set-recreate',
      'scale-old-replicaset',
    ]);
  });

  const edge = (): ReturnType<typeof rollout> =>
    rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
  const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
  const message =
    "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";

  it('does not call an unread node free: the deadlock proved on edge-1 stands, edge-3 is a caveat', () => {
    const snapshot = pendingRolloutSnapshot(edge(), nodes, message, {
      coverage: { ...fullCoverage(), podsReadOn: ['edge-1', 'edge-2'] },
    });
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    const notes = result.findings[0]?.evidence.flatMap((e) => (e.type === 'note' ? [e.text] : []));
    expect(notes).toContain('Caveat: who else holds room on edge-3 was not read.');
    // No managedFields in the fixture: the strategy's drift is unknown, so the scale that
    // no owner reverts ranks first (src/remediation/plan-order.ts).
    expect(result.remediations.map((p) => p.kind)).toEqual([
      'scale-old-replicaset',
      'scale-old-replicaset',
      'set-rolling-update',
      'set-recreate',
    ]);
  });

  it('a proof on one node stands when another node looks free for a reason the model does not capture', () => {
    const snapshot = pendingRolloutSnapshot(edge(), nodes, message);
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    const notes = result.findings[0]?.evidence.flatMap((e) => (e.type === 'note' ? [e.text] : []));
    expect(notes?.some((n) => n.startsWith('Caveat: edge-3 looks free for this pod'))).toBe(true);
    expect(result.remediations.map((p) => p.kind)).toEqual([
      'scale-old-replicaset',
      'scale-old-replicaset',
      'set-rolling-update',
      'set-recreate',
    ]);
  });

  it('look-alike: nothing proved anywhere and room unread is incomplete, not "the snapshot shows room"', () => {
    const parts = edge();
    // The new template asks for a port the old pods do not hold: no release proves anything.
    const pending = parts.newPods[0] as Pod;
    const ports = pending.spec.containers[0]?.ports;
    if (ports?.[0]) ports[0].hostPort = 9090;
    const snapshot = pendingRolloutSnapshot(parts, [nodes[2] as ReturnType<typeof makeNode>], message, {
      coverage: { ...fullCoverage(), podsReadOn: [] },
    });
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(result.findings[0]?.summary).toContain('edge-3');
  });
});

describe('constraints from the pods as admitted', () => {
  // GKE's ExtendedResourceToleration admission plugin adds this to every GPU pod.
  const gpuToleration: Toleration = { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' };
  const tainted = (): DeploymentSnapshot & { parts: ReturnType<typeof seedIncidentA>['parts'] } => {
    const snapshot = seedIncidentA();
    const node = snapshot.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (node?.spec) node.spec.taints = [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }];
    else if (node)
      node.spec = { taints: [{ key: 'nvidia.com/gpu', value: 'present', effect: 'NoSchedule' }] };
    return snapshot;
  };

  it('a toleration added at admission keeps the tainted GPU node eligible: the deadlock, not a missing toleration', () => {
    const snapshot = tainted();
    for (const pod of snapshot.pods) pod.spec.tolerations = [...(pod.spec.tolerations ?? []), gpuToleration];
    expect(snapshot.deployment.spec.template.spec.tolerations ?? []).toEqual([]);
    expect(codes(snapshot)).toEqual(['RolloutSurgeDeadlock']);
  });

  it('look-alike: pods without the toleration are Unschedulable for the taint', () => {
    const result = diagnose(tainted());
    expect(result.findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(result.findings[0]?.summary).toContain('nvidia.com/gpu=present:NoSchedule');
  });

  it('the next-rollout prediction uses the live pod of the current template, toleration included', () => {
    const base = tainted();
    const { deployment, newRs } = base.parts;
    const running = makePod(newRs, 'q7zxw', 'tracker-node', { phase: 'Running' });
    running.spec.tolerations = [gpuToleration];
    const steady = {
      ...base,
      deployment: { ...deployment, status: { ...deployment.status, replicas: 1, updatedReplicas: 1 } },
      replicaSets: [newRs],
      pods: [running],
      events: [],
    };
    expect(codes(steady)).toContain('RolloutAtRisk');
    running.spec.tolerations = [];
    expect(codes({ ...steady, pods: [running] })).not.toContain('RolloutAtRisk');
  });
});
