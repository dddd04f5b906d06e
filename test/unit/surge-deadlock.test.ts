import { describe, expect, it } from 'vitest';
import { surgeDeadlock } from '../../src/diagnosis/analyzers/surge-deadlock.js';
import type { Evidence } from '../../src/diagnosis/finding.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeEvent, makeNode, makePod, makePvc, makeSnapshot } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout, seedIncidentA } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

function evidence<T extends Evidence['type']>(list: Evidence[], type: T): Extract<Evidence, { type: T }> {
  const found = list.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} evidence`);
  return found as Extract<Evidence, { type: T }>;
}

describe('RolloutSurgeDeadlock on seed incident A', () => {
  const snapshot = seedIncidentA();
  const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));

  it('names the deadlock, the GPU, the node and the old pod', () => {
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.severity).toBe('critical');
    expect(finding?.summary).toContain('object-tracker-7b9f8c5d4f-h8v2n');
    expect(finding?.summary).toContain('nvidia.com/gpu');
    expect(finding?.summary).toContain('tracker-node');
    expect(finding?.summary).toContain('object-tracker-6d4cf56db6-x2kqp');
  });

  it('resolves the default strategy to surge 1 / unavailable 0 and says it is the default', () => {
    const strategy = evidence(finding?.evidence ?? [], 'strategy');
    expect(strategy.replicas).toBe(1);
    expect(strategy.strategy.maxSurge).toEqual({ raw: '25%', value: 1, source: 'default' });
    expect(strategy.strategy.maxUnavailable).toEqual({ raw: '25%', value: 0, source: 'default' });
  });

  it('shows the only eligible node with its GPU held by the old pod of this Deployment', () => {
    const rows = evidence(finding?.evidence ?? [], 'node-capacity').rows;
    expect(rows).toEqual([
      {
        node: 'tracker-node',
        resource: 'nvidia.com/gpu',
        allocatable: '1',
        used: '1',
        free: '0',
        holders: [{ pod: 'object-tracker-6d4cf56db6-x2kqp', amount: '1', ownedByThisDeployment: true }],
      },
    ]);
  });

  it('carries the parsed scheduler message', () => {
    const scheduling = evidence(finding?.evidence ?? [], 'scheduling');
    expect(scheduling.parsed?.total).toBe(10);
    expect(scheduling.parsed?.reasons.map((r) => r.count)).toEqual([1, 9]);
    expect(scheduling.parsed?.reasons[0]?.resource).toBe('nvidia.com/gpu');
  });

  it('explains the misleading kubectl output in plain words', () => {
    expect(finding?.explanation).toContain(
      'Waiting for deployment "object-tracker" rollout to finish: 1 old replicas are pending termination...',
    );
    expect(finding?.explanation).toContain('"25% max unavailable, 25% max surge"');
    expect(finding?.explanation).toContain('maxSurge 1');
  });

  it('runs end to end: one deadlock finding, no Unschedulable, strategy plans linked', () => {
    const result = diagnose(snapshot);
    const codes = result.findings.map((f) => f.code);
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
    expect(codes).not.toContain('RolloutAtRisk');
    const deadlock = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    const kinds = deadlock?.remediations.map((id) => result.remediations.find((p) => p.id === id)?.kind);
    expect(kinds).toEqual(['set-rolling-update', 'set-recreate', 'scale-old-replicaset']);
  });
});

describe('RolloutSurgeDeadlock variants', () => {
  it('hostPort held by the old pod on every eligible node', () => {
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
    });
    const snapshot = pendingRolloutSnapshot(
      parts,
      nodes,
      "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toContain('hostPort 8080/TCP');
    const strategy = evidence(finding?.evidence ?? [], 'strategy').strategy;
    expect([strategy.maxSurge?.value, strategy.maxUnavailable?.value]).toEqual([1, 0]);
    expect(
      evidence(finding?.evidence ?? [], 'node-capacity')
        .rows.map((r) => r.node)
        .sort(),
    ).toEqual(['edge-1', 'edge-2', 'edge-3']);
  });

  it('ReadWriteOnce volume attached to the old pod node (Multi-Attach)', () => {
    const nodes = [makeNode('node-a'), makeNode('node-b')];
    const parts = rollout('db-admin', {
      oldNodes: ['node-a'],
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const stuck = makePod(parts.newRs, 'h8v2n', 'node-b', { phase: 'Waiting', reason: 'ContainerCreating' });
    const event = makeEvent(
      { kind: 'Pod', name: stuck.metadata.name, namespace: 'vision', uid: stuck.metadata.uid },
      'FailedAttachVolume',
      `Multi-Attach error for volume "pvc-0a1b2c" Volume is already used by pod(s) ${parts.oldPods[0]?.metadata.name}`,
      { component: 'attachdetach-controller' },
    );
    const snapshot = makeSnapshot({
      deployment: parts.deployment,
      replicaSets: [parts.newRs, parts.oldRs],
      pods: [...parts.oldPods, stuck],
      events: [event],
      nodes,
      pvcs: [makePvc('data', 'vision')],
    });
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    expect(finding?.summary).toContain('ReadWriteOnce volume data');
    expect(finding?.evidence.some((e) => e.type === 'note' && e.text.includes('Multi-Attach'))).toBe(true);
    const plans = diagnose(snapshot).remediations.map((p) => p.kind);
    expect(plans).toEqual(['set-rolling-update', 'set-recreate']);
  });

  it('a ReadWriteMany volume is no deadlock', () => {
    const parts = rollout('shared', {
      oldNodes: ['node-a'],
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const stuck = makePod(parts.newRs, 'h8v2n', 'node-b', { phase: 'Waiting', reason: 'ContainerCreating' });
    const snapshot = makeSnapshot({
      deployment: parts.deployment,
      replicaSets: [parts.newRs, parts.oldRs],
      pods: [...parts.oldPods, stuck],
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pvcs: [makePvc('data', 'vision', { accessModes: ['ReadWriteMany'] })],
    });
    expect(surgeDeadlock.analyze(new AnalysisContext(snapshot))).toEqual([]);
  });

  it('required hostname anti-affinity with as many replicas as eligible nodes', () => {
    const nodes = ['w1', 'w2', 'w3'].map((n) => makeNode(n));
    const parts = rollout('zk', {
      oldNodes: ['w1', 'w2', 'w3'],
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      podSpec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              { labelSelector: { matchLabels: { app: 'zk' } }, topologyKey: 'kubernetes.io/hostname' },
            ],
          },
        },
      },
    });
    const snapshot = pendingRolloutSnapshot(
      parts,
      nodes,
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.",
    );
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    const strategy = evidence(finding?.evidence ?? [], 'strategy').strategy;
    expect(strategy.maxSurge).toEqual({ raw: 1, value: 1, source: 'explicit' });
  });

  it('required zone anti-affinity: a surge pod has no free zone until an old pod goes', () => {
    const nodes = [
      makeNode('a1', { labels: { 'topology.kubernetes.io/zone': 'a' } }),
      makeNode('a2', { labels: { 'topology.kubernetes.io/zone': 'a' } }),
      makeNode('b1', { labels: { 'topology.kubernetes.io/zone': 'b' } }),
    ];
    const parts = rollout('quorum', {
      oldNodes: ['a1', 'b1'],
      podSpec: {
        affinity: {
          podAntiAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'quorum' } },
                topologyKey: 'topology.kubernetes.io/zone',
              },
            ],
          },
        },
      },
    });
    const snapshot = pendingRolloutSnapshot(
      parts,
      nodes,
      "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.",
    );
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    const rows = evidence(finding?.evidence ?? [], 'node-capacity').rows;
    expect(rows.find((r) => r.node === 'a2')?.holders.map((h) => h.pod)).toEqual(['quorum-6d4cf56db6-x2kqp']);
  });

  it('cpu on a full node pool, with another workload on the nodes', () => {
    const nodes = ['pool-1', 'pool-2'].map((n) => makeNode(n, { allocatable: { cpu: '4', memory: '16Gi' } }));
    const parts = rollout('api', {
      oldNodes: ['pool-1', 'pool-2'],
      resources: { requests: { cpu: '3', memory: '2Gi' } },
    });
    const otherRs = rollout('sidecar-agent', {
      oldNodes: ['pool-1', 'pool-2'],
      resources: { requests: { cpu: '500m' } },
    });
    const snapshot = pendingRolloutSnapshot(
      parts,
      nodes,
      '0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.',
      { otherPods: otherRs.oldPods },
    );
    const [finding] = surgeDeadlock.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('RolloutSurgeDeadlock');
    const rows = evidence(finding?.evidence ?? [], 'node-capacity').rows;
    const pool1 = rows.find((r) => r.node === 'pool-1');
    expect(pool1).toMatchObject({ resource: 'cpu', allocatable: '4', used: '3500m', free: '500m' });
    expect(pool1?.holders.map((h) => h.ownedByThisDeployment)).toEqual([true, false]);
  });
});

describe('look-alikes that are not a surge deadlock', () => {
  it('nodeSelector pointing at a node with no GPU', () => {
    expect(
      surgeDeadlock.analyze(new AnalysisContext(seedIncidentA({ newNodeSelector: 'cpu-node-3' }))),
    ).toEqual([]);
  });

  it('taint not tolerated', () => {
    expect(surgeDeadlock.analyze(new AnalysisContext(seedIncidentA({ trackerTaint: true })))).toEqual([]);
  });

  it('maxSurge 0 already', () => {
    const snapshot = seedIncidentA();
    snapshot.deployment.spec.strategy = {
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
    };
    expect(surgeDeadlock.analyze(new AnalysisContext(snapshot))).toEqual([]);
    const codes = diagnose(snapshot).findings.map((f) => f.code);
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
  });

  it('the old pod is already terminating: transient, nothing to fix', () => {
    const snapshot = seedIncidentA();
    const old = snapshot.parts.oldPods[0];
    if (!old) throw new Error('no old pod');
    old.metadata.deletionTimestamp = '2026-11-22T02:59:50Z';
    expect(surgeDeadlock.analyze(new AnalysisContext(snapshot))).toEqual([]);
  });

  it('another workload also holds the GPU so the emptied node still lacks room', () => {
    const snapshot = seedIncidentA();
    const node = snapshot.nodes.find((n) => n.metadata.name === 'tracker-node');
    if (node?.status?.allocatable) node.status.allocatable['nvidia.com/gpu'] = '2';
    const container = snapshot.deployment.spec.template.spec.containers[0];
    if (container?.resources?.limits) container.resources.limits['nvidia.com/gpu'] = '2';
    for (const pod of snapshot.parts.newPods) {
      const c = pod.spec.containers[0];
      if (c?.resources) c.resources = { limits: { 'nvidia.com/gpu': '2' } };
    }
    const other = rollout('notebook', {
      oldNodes: ['tracker-node'],
      resources: { limits: { 'nvidia.com/gpu': '1' } },
    });
    const withOther = { ...snapshot, otherPods: other.oldPods };
    expect(surgeDeadlock.analyze(new AnalysisContext(withOther))).toEqual([]);
    const result = diagnose(withOther);
    expect(result.findings.map((f) => f.code)).toContain('Unschedulable');
    expect(
      result.remediations.filter((p) => p.kind === 'set-rolling-update' || p.kind === 'set-recreate'),
    ).toEqual([]);
  });
});
