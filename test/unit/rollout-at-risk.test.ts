import { describe, expect, it } from 'vitest';
import { rolloutAtRisk } from '../../src/diagnosis/analyzers/rollout-at-risk.js';
import { diagnose } from '../../src/diagnosis/run.js';
import type { Deployment } from '../../src/diagnosis/k8s.js';
import {
  makeDeployment,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
  makeSnapshot,
} from '../support/k8s-builders.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

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
  it('predicts the seed deadlock before any rollout, as a warning', () => {
    const [finding] = rolloutAtRisk.analyze(steadyTracker());
    expect(finding?.code).toBe('RolloutAtRisk');
    expect(finding?.severity).toBe('warning');
    expect(finding?.summary).toContain('Next rollout of object-tracker will deadlock');
    expect(finding?.summary).toContain('tracker-node');
    expect(finding?.summary).toContain('nvidia.com/gpu');
    const rows = finding?.evidence.find((e) => e.type === 'node-capacity');
    expect(rows?.type === 'node-capacity' && rows.rows[0]).toMatchObject({ node: 'tracker-node', free: '0' });
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
    expect(rolloutAtRisk.analyze(steadyTracker({ gpus: '2' }))).toEqual([]);
  });

  it('is silent when the strategy does not surge', () => {
    const strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    expect(rolloutAtRisk.analyze(steadyTracker({ strategy }))).toEqual([]);
    expect(rolloutAtRisk.analyze(steadyTracker({ strategy: { type: 'Recreate' } }))).toEqual([]);
  });

  it('does not claim "no room anywhere" from a capped node list', () => {
    expect(rolloutAtRisk.analyze(steadyTracker({ complete: false }))).toEqual([]);
  });

  it('does not double-report a rollout that is already stuck', () => {
    const codes = diagnose(seedIncidentA()).findings.map((f) => f.code);
    expect(codes).toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('RolloutAtRisk');
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
    expect(rolloutAtRisk.analyze(snapshot)).toEqual([]);
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
    const [finding] = rolloutAtRisk.analyze(snapshot);
    expect(finding?.summary).toContain('may deadlock');
    expect(finding?.summary).toContain('ReadWriteOnce volume data');
    const single = { ...snapshot, nodes: [makeNode('node-a')] };
    expect(rolloutAtRisk.analyze(single)).toEqual([]);
  });
});
