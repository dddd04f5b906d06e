import { describe, expect, it } from 'vitest';
import { rolloutAtRisk } from '../../src/diagnosis/analyzers/rollout-at-risk.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import {
  makeDeployment,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

/** The seed tracker before anyone rolls it out: one ReplicaSet, one running pod. */
function steadyTracker(
  options: { gpus?: string; strategy?: Deployment['spec']['strategy']; complete?: boolean } = {},
) {
  const deployment = makeDeployment('object-tracker', {
    namespace: 'vision',
    replicas: 1,
    resources: { limits: { 'nvidia.com/gpu': '1' } },
    podSpec: { nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' } },
    ...(options.strategy ? { strategy: options.strategy } : {}),
  });
  const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2 });
  return makeSnapshot({
    deployment,
    replicaSets: [rs],
    pods: [makePod(rs, 'x2kqp', 'tracker-node', { phase: 'Running' })],
    nodes: [
      makeNode('tracker-node', { allocatable: { 'nvidia.com/gpu': options.gpus ?? '1' } }),
      makeNode('gpu-a100-1', { allocatable: { 'nvidia.com/gpu': '4' } }),
      makeNode('cpu-node-1'),
    ],
    nodesComplete: options.complete ?? true,
  });
}

describe('RolloutAtRisk', () => {
  it("names the quota where it refuses the next surge pod that this Deployment's own pods fill", () => {
    const snapshot = steadyTracker();
    const hard = { 'requests.nvidia.com/gpu': '1' };
    snapshot.resourceQuotas = [
      {
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'vision-gpus', namespace: 'vision' },
        spec: { hard },
        status: { hard, used: { 'requests.nvidia.com/gpu': '1' } },
      },
    ];
    const finding = diagnose(snapshot).findings.find((f) => f.code === 'RolloutAtRisk');
    expect(finding?.summary).toBe(
      "Next rollout of object-tracker will deadlock: ResourceQuota vision-gpus, as its status counts it, will refuse its first new pod while this Deployment's own pods count against it, and maxSurge 25% (default) = 1, maxUnavailable 25% (default) = 0 at 1 replica creates the new pod before any old one goes.",
    );
    expect(finding?.evidence.some((e) => e.type === 'node-capacity')).toBe(false);
    // Without the quota, the room on the node is the deadlock, as before.
    snapshot.resourceQuotas = [];
    expect(diagnose(snapshot).findings.find((f) => f.code === 'RolloutAtRisk')?.summary).toContain(
      'has no room for one more pod',
    );
  });

  it('predicts the seed deadlock before any rollout, as a warning', () => {
    const [finding] = rolloutAtRisk.analyze(new AnalysisContext(steadyTracker()));
    expect(finding?.code).toBe('RolloutAtRisk');
    expect(finding?.severity).toBe('warning');
    expect(finding?.summary).toContain('Next rollout of object-tracker will deadlock');
    expect(finding?.summary).toContain(
      'the only node it may use (tracker-node) has no room for one more pod',
    );
    expect(finding?.summary).toContain('nvidia.com/gpu');
    const rows = finding?.evidence.find((e) => e.type === 'node-capacity');
    expect(rows?.type === 'node-capacity' && rows.rows[0]).toMatchObject({ node: 'tracker-node', free: '0' });
  });

  it('says "have" of several full nodes', () => {
    const deployment = makeDeployment('object-tracker', {
      namespace: 'vision',
      replicas: 2,
      resources: { limits: { 'nvidia.com/gpu': '1' } },
      podSpec: { nodeSelector: { pool: 'tracker' } },
    });
    const rs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2 });
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [
        makePod(rs, 'x2kqp', 'tracker-1', { phase: 'Running' }),
        makePod(rs, 'k4p9w', 'tracker-2', { phase: 'Running' }),
      ],
      nodes: ['tracker-1', 'tracker-2'].map((name) =>
        makeNode(name, { allocatable: { 'nvidia.com/gpu': '1' }, labels: { pool: 'tracker' } }),
      ),
    });
    const [finding] = rolloutAtRisk.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain(
      'the 2 nodes it may use (tracker-1, tracker-2) have no room for one more pod',
    );
  });

  it('offers the preventive strategy change without a restart', () => {
    const result = diagnose(steadyTracker());
    const finding = result.findings.find((f) => f.code === 'RolloutAtRisk');
    const plans = result.remediations.filter((p) => finding?.remediations.includes(p.id));
    expect(plans.map((p) => p.kind)).toEqual(['set-rolling-update']);
    expect(plans[0]?.patch?.body).toEqual({
      spec: { strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } },
    });
    expect(plans[0]?.impact).toContain('Nothing restarts now');
  });

  it('is silent when the node has a spare GPU for the surge pod', () => {
    expect(rolloutAtRisk.analyze(new AnalysisContext(steadyTracker({ gpus: '2' })))).toEqual([]);
  });

  it('is silent when the strategy does not surge', () => {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    expect(rolloutAtRisk.analyze(new AnalysisContext(steadyTracker({ strategy })))).toEqual([]);
    expect(
      rolloutAtRisk.analyze(new AnalysisContext(steadyTracker({ strategy: { type: 'Recreate' } }))),
    ).toEqual([]);
  });

  it('does not claim "no room anywhere" from a capped node list', () => {
    expect(rolloutAtRisk.analyze(new AnalysisContext(steadyTracker({ complete: false })))).toEqual([]);
  });

  it('does not double-report a rollout that is already stuck', () => {
    const codes = diagnose(seedIncidentA()).findings.map((f) => f.code);
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('RolloutAtRisk');
  });

  describe('while a rollout is under way', () => {
    /**
     * A healthy rollout of the tracker on a node with two GPUs: the surge pod is bound
     * and pulling its (large) image, so both GPUs are held for now; the old pod goes
     * once the new one is Ready.
     */
    function midRollout(options: { oldTerminating?: boolean; oldReplicas?: number } = {}) {
      const deployment = makeDeployment('object-tracker', {
        namespace: 'vision',
        replicas: 1,
        resources: { limits: { 'nvidia.com/gpu': '1' } },
        podSpec: { nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' } },
        status: {
          observedGeneration: 2,
          replicas: 2,
          updatedReplicas: 1,
          readyReplicas: 1,
          availableReplicas: 1,
        },
      });
      const oldTemplate = structuredClone(deployment.spec.template);
      const [container] = oldTemplate.spec.containers;
      if (container) container.image = 'registry.example.com/vision/tracker:1.8.2';
      const oldRs = makeReplicaSet(deployment, '7f9b8c6d5b', {
        revision: 1,
        replicas: options.oldReplicas ?? 1,
        template: oldTemplate,
      });
      const newRs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 2 });
      const oldPod = makePod(oldRs, 'x2kqp', 'tracker-node', { phase: 'Running' });
      if (options.oldTerminating) oldPod.metadata.deletionTimestamp = '2026-11-20T10:05:00Z';
      const surge = makePod(newRs, 'm7zvt', 'tracker-node', {
        phase: 'Waiting',
        reason: 'ContainerCreating',
      });
      return makeSnapshot({
        deployment,
        replicaSets: [oldRs, newRs],
        pods: [oldPod, surge],
        nodes: [makeNode('tracker-node', { allocatable: { 'nvidia.com/gpu': '2' } }), makeNode('cpu-node-1')],
        nodesComplete: true,
      });
    }

    it('stays silent and offers no strategy change while the surge pod pulls its image', () => {
      const result = diagnose(midRollout());
      expect(result.findings.map((f) => f.code)).not.toContain('RolloutAtRisk');
      expect(result.remediations.map((p) => p.kind)).not.toContain('set-rolling-update');
    });

    it('stays silent while the old pod is still terminating after its ReplicaSet went to 0', () => {
      const snapshot = midRollout({ oldTerminating: true, oldReplicas: 0 });
      expect(rolloutAtRisk.analyze(new AnalysisContext(snapshot))).toEqual([]);
    });

    it('judges the steady state once the rollout is done: one GPU held, one free', () => {
      expect(rolloutAtRisk.analyze(new AnalysisContext(steadyTracker({ gpus: '2' })))).toEqual([]);
      // and the seed shape (one GPU) is still predicted once settled
      expect(rolloutAtRisk.analyze(new AnalysisContext(steadyTracker())).map((f) => f.code)).toEqual([
        'RolloutAtRisk',
      ]);
    });
  });

  it('ignores templates that ask for nothing scarce', () => {
    const deployment = makeDeployment('web', { replicas: 1, resources: { requests: { cpu: '7' } } });
    const rs = makeReplicaSet(deployment, 'aa11', { revision: 2 });
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [makePod(rs, 'p1', 'n1', { phase: 'Running' })],
      nodes: [makeNode('n1')],
    });
    expect(rolloutAtRisk.analyze(new AnalysisContext(snapshot))).toEqual([]);
  });

  it('warns about a ReadWriteOnce volume when a surge pod could land on another node', () => {
    const deployment = makeDeployment('db-admin', {
      replicas: 1,
      podSpec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'data' } }] },
    });
    const rs = makeReplicaSet(deployment, 'aa11', { revision: 2 });
    const snapshot = makeSnapshot({
      deployment,
      replicaSets: [rs],
      pods: [makePod(rs, 'p1', 'node-a', { phase: 'Running' })],
      nodes: [makeNode('node-a'), makeNode('node-b')],
      pvcs: [makePvc('data', 'default')],
    });
    const [finding] = rolloutAtRisk.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('may deadlock');
    expect(finding?.summary).toContain('ReadWriteOnce volume data');
    const single = { ...snapshot, nodes: [makeNode('node-a')] };
    expect(rolloutAtRisk.analyze(new AnalysisContext(single))).toEqual([]);
  });
});
