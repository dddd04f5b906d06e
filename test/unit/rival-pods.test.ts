/**
 * Several rollouts at once (issue 63.3, DESIGN.md §4e): another workload's Pending pod
 * waits in the scheduler's queue with ours (forward/rivals.ts). Seed incident A, with a
 * pod of deployment/batch waiting for the tracker node's one GPU too: at the same
 * priority the freed GPU goes to whichever the queue takes first, so a plan that frees
 * it reaches its goal only in one order and says so, naming batch; above our priority
 * batch takes it in every order, so no plan that frees it is offered; below ours it
 * never matters. A neighbour's terminating pod is gone at the first step: room its
 * progress frees is room.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { proofSentence } from '../../src/remediation/proof-text.js';
import { makeDeployment, makePod, makeReplicaSet } from '../support/k8s-builders.js';
import { seedIncidentA } from '../support/rollout-scenarios.js';

/** A pod of deployment/batch asking for the tracker node's GPU, at `priority`. */
function batchPod(
  state: 'pending' | 'terminating',
  priority?: number,
  deletedAt = '2026-11-22T03:00:00Z',
): Pod {
  const deployment = makeDeployment('batch', {
    namespace: 'vision',
    resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
    podSpec: { nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' } },
  });
  const rs = makeReplicaSet(deployment, '7f9c6d');
  const pod =
    state === 'pending'
      ? makePod(rs, 'x2k4p', undefined, { phase: 'Pending' })
      : makePod(rs, 'x2k4p', 'tracker-node', { phase: 'Running' });
  if (priority !== undefined) pod.spec.priority = priority;
  if (state === 'terminating') {
    pod.metadata.deletionTimestamp = deletedAt;
  }
  return pod;
}

function withRival(priority?: number): DeploymentSnapshot {
  const snapshot = seedIncidentA();
  return { ...snapshot, pendingPods: [batchPod('pending', priority)] };
}

describe('another workload waits for the room a plan frees', () => {
  it('at our priority: the strategy fix is offered, saying it depends on the order and naming deployment/batch', () => {
    const d = diagnose(withRival());
    expect(d.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    const fix = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(fix?.proof?.dependsOnOrder?.rivals).toBe('deployment/batch');
    expect(fix?.proof?.dependsOnOrder?.otherwise).toMatch(
      /the rollout still stops \(1 new pod\(s\) find no room\)/,
    );
    expect(
      proofSentence(fix?.proof ?? { method: 'run', serving: { now: 0, lowest: 0, wanted: 0 }, steps: [] }),
    ).toContain(
      'It depends on the order the scheduler takes pending pods in: deployment/batch waits for room at the same priority',
    );
    expect(fix?.warnings.join(' ')).toContain('deployment/batch');
  });

  it('above our priority: batch takes the freed GPU in every order, so no plan that frees it is offered, and the verdict names it', () => {
    const d = diagnose(withRival(1000));
    expect(
      d.remediations.filter((p) => p.kind === 'set-rolling-update' || p.kind === 'set-recreate'),
    ).toEqual([]);
    expect(d.findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(d.findings[0]?.summary).toContain(
      'the room they free goes first to Pending pods of deployment/batch (a higher priority)',
    );
  });

  it('below our priority: it never takes the room first; the fix is proved without a word of it', () => {
    const d = diagnose(withRival(-10));
    const fix = d.remediations.find((p) => p.kind === 'set-rolling-update');
    expect(fix?.proof?.dependsOnOrder).toBeUndefined();
    expect(fix?.warnings.join(' ')).not.toContain('deployment/batch');
  });

  it("none waits: no order to depend on (the seed incident's own answer)", () => {
    const fix = diagnose(seedIncidentA()).remediations.find((p) => p.kind === 'set-rolling-update');
    expect(fix?.proof?.method).toBe('run');
    expect(fix?.proof?.dependsOnOrder).toBeUndefined();
  });
});

describe('another workload waits, and the plans cannot be run (pods not read on every node)', () => {
  /** The incident with batch's pod Pending, read as `kubectl get pods -n` reads: the other nodes' pods unknown. */
  function unrun(rival: Pod): DeploymentSnapshot {
    const snapshot = seedIncidentA();
    const held = snapshot.pods.flatMap((p) => (p.spec.nodeName ? [p.spec.nodeName] : []));
    return { ...snapshot, pendingPods: [rival], coverage: { ...snapshot.coverage, podsReadOn: held } };
  }

  it('at our priority, for a node ours hold: the checked plan says it depends on the order, naming batch', () => {
    const fix = diagnose(unrun(batchPod('pending'))).remediations.find(
      (p) => p.kind === 'set-rolling-update',
    );
    expect(fix?.proof?.method).toBe('checked');
    expect(fix?.proof?.dependsOnOrder?.rivals).toBe('deployment/batch');
    expect(fix?.warnings.join(' ')).toContain('deployment/batch');
  });

  it('for a node none of ours run on: the room the plan frees is not room it can take, so no word of it', () => {
    const elsewhere = batchPod('pending');
    elsewhere.spec.nodeSelector = { 'kubernetes.io/hostname': 'other-node' };
    const fix = diagnose(unrun(elsewhere)).remediations.find((p) => p.kind === 'set-rolling-update');
    expect(fix?.proof?.method).toBe('checked');
    expect(fix?.proof?.dependsOnOrder).toBeUndefined();
  });
});

describe("a neighbour's terminating pod", () => {
  /** The tracker node with a second GPU, held by batch's pod, terminating since `deletedAt`. */
  function leaving(deletedAt: string): DeploymentSnapshot {
    const base = seedIncidentA();
    const nodes = base.nodes.map((n) =>
      n.metadata.name === 'tracker-node'
        ? { ...n, status: { ...n.status, allocatable: { ...n.status?.allocatable, 'nvidia.com/gpu': '2' } } }
        : n,
    );
    return { ...base, nodes, otherPods: [...base.otherPods, batchPod('terminating', undefined, deletedAt)] };
  }

  it('frees its room at the first step: the rollout waiting for it is moving, not deadlocked', () => {
    const d = diagnose(leaving(base().capturedAt));
    const codes = d.findings.map((f) => f.code);
    expect(codes).not.toContain('RolloutSurgeDeadlock');
    expect(codes).not.toContain('Unschedulable');
    expect(d.remediations.filter((p) => p.kind === 'set-rolling-update')).toEqual([]);
  });

  it('stuck past its deadline (a finalizer, a kubelet that cannot confirm): it keeps the room, the deadlock stands', () => {
    const hourAgo = new Date(Date.parse(base().capturedAt) - 3_600_000).toISOString();
    const d = diagnose(leaving(hourAgo));
    expect(d.findings.map((f) => f.code)).toContain('RolloutSurgeDeadlock');
  });
});

function base(): DeploymentSnapshot {
  return seedIncidentA();
}
