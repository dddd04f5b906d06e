/**
 * A rollout the model judges by a bound on room, not a run (forward/final-state.ts: an
 * Argo canary's steps, a StatefulSet held at a Pending pod), beside a neighbour
 * Deployment whose rollout will remove the old pod that holds the room. It was "can never
 * finish"; with the old pod gone the nodes have room, so it "can go on by itself once
 * that rollout removes its old pods" (forward/job-wait.ts, `bound`), and every plan says
 * waiting may be enough, as a bound ("the nodes have room"), never as a run. Where the
 * neighbour's new pod is not Ready, or a volume may tie our pod to a node, nothing is said.
 */
import { describe, expect, it } from 'vitest';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { PersistentVolume } from '../../src/diagnosis/k8s-storage.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makePvc,
  makeReplicaSet,
} from '../support/k8s-builders.js';
import { trackerMidUpdate } from '../support/rollout-builders.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

/** Deployment beta mid-rollout: its old pod on `oldOn`, its new one (Ready or not) on `newOn`. */
function beta(
  namespace: string,
  oldOn: string,
  newOn: string,
  requests: Record<string, string>,
  ready: boolean,
): Pod[] {
  const deployment = makeDeployment('beta', { namespace, replicas: 1 });
  const old = makePod(makeReplicaSet(deployment, 'b1', { replicas: 0 }), 'x1', oldOn, { phase: 'Running' });
  const fresh = makePod(makeReplicaSet(deployment, 'b2', { replicas: 1 }), 'y1', newOn, {
    phase: 'Running',
    ready,
  });
  old.metadata.creationTimestamp = '2026-11-22T01:00:00Z';
  fresh.metadata.creationTimestamp = '2026-11-22T02:40:00Z';
  for (const pod of [old, fresh]) {
    const container = pod.spec.containers[0];
    if (container) container.resources = { requests, limits: requests };
  }
  return [old, fresh];
}

/** tracker's canary pod needs a GPU: gpu-node-1 holds its stable pod, gpu-node-2 beta's old pod, gpu-node-3 beta's new one. */
function canaryBeside(ready: boolean): WorkloadSnapshot {
  const snapshot = trackerMidUpdate();
  snapshot.nodes.push(
    ...['gpu-node-2', 'gpu-node-3'].map((n) => makeNode(n, { allocatable: { 'nvidia.com/gpu': '1' } })),
  );
  snapshot.otherPods = beta('ml', 'gpu-node-2', 'gpu-node-3', { 'nvidia.com/gpu': '1' }, ready);
  return snapshot;
}

const GOOD = '65f9b98df4';
const BAD = '5f8cdcfd98';

/**
 * db-1 of the update revision (7 cpu) Pending: node-a holds db-0 (2 cpu), node-b beta's
 * old pod (4 cpu), node-c beta's new one. With beta's old pod gone node-b takes db-1.
 */
function statefulSetBeside(options: { ready: boolean; pinned?: true }): WorkloadSnapshot {
  const sts = makeStatefulSet('db', {
    replicas: 2,
    status: {
      observedGeneration: 3,
      replicas: 2,
      readyReplicas: 1,
      currentReplicas: 1,
      updatedReplicas: 1,
      availableReplicas: 1,
      currentRevision: `db-${GOOD}`,
      updateRevision: `db-${BAD}`,
    },
  });
  const template = sts.spec.template.spec.containers[0];
  if (template) template.resources = { requests: { cpu: '7', memory: '1Gi' } };
  const good = makeStsRevision(sts, GOOD, 2);
  const bad = makeStsRevision(sts, BAD, 3);
  const db0 = makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' });
  const first = db0.spec.containers[0];
  if (first) first.resources = { requests: { cpu: '2', memory: '1Gi' } };
  const db1 = makeStsPod(sts, bad, 1, 'none', { phase: 'Pending' });
  const message = '0/3 nodes are available: 3 Insufficient cpu.';
  const condition = db1.status?.conditions?.[0];
  if (condition) condition.message = message;
  const namespace = sts.metadata.namespace ?? '';
  // db-1's claim bound to a volume on node-c, which beta's new pod keeps.
  const volumes: PersistentVolume[] = [];
  const pvcs = [];
  if (options.pinned) {
    db1.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-db-1' } }];
    const pvc = makePvc('data-db-1', namespace);
    pvc.spec.volumeName = 'pv-db-1';
    pvcs.push(pvc);
    volumes.push({
      metadata: { name: 'pv-db-1' },
      spec: {
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-c'] }] },
            ],
          },
        },
      },
    } as PersistentVolume);
  }
  const snapshot = makeStatefulSetSnapshot({
    serverVersion: 'v1.34.3',
    statefulSet: sts,
    controllerRevisions: [good, bad],
    pods: [db0, db1],
    nodes: ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n)),
    events: [
      makeEvent(
        { kind: 'Pod', name: 'db-1', namespace, uid: db1.metadata.uid ?? '' },
        'FailedScheduling',
        message,
        {
          type: 'Warning',
          component: 'default-scheduler',
        },
      ),
    ],
  });
  snapshot.otherPods = beta(namespace, 'node-b', 'node-c', { cpu: '4' }, options.ready);
  if (options.pinned) {
    snapshot.pvcs = pvcs;
    snapshot.guards = { ...snapshot.guards, persistentVolumes: volumes };
  }
  return snapshot;
}

const lead = (snapshot: WorkloadSnapshot, code: string) => {
  const report = diagnose(snapshot);
  const finding = report.findings.find((f) => f.code === code);
  return { finding, plans: report.remediations.filter((p) => finding?.remediations.includes(p.id)) };
};

describe('a rollout judged by a bound, beside a neighbour whose rollout removes the old pod that holds the room', () => {
  it('an Argo canary: "can go on by itself" once that rollout removes its old pods, and each plan says waiting may be enough as a bound', () => {
    const { finding, plans } = lead(canaryBeside(true), 'RolloutSurgeDeadlock');
    expect(finding?.summary).toContain(
      'cannot finish while the rollout of deployment ml/beta holds its old pods',
    );
    expect(finding?.summary).toContain('It can go on by itself once that rollout removes its old pods');
    expect(finding?.summary).not.toContain('can never finish');
    expect(finding?.waitsFor).toMatchObject({ holders: 'rollouts', names: ['ml/beta'], bound: true });
    // The note names the pod, and says a bound on room, not a run.
    const note = finding?.evidence
      .map((e) => ('text' in e ? e.text : ''))
      .find((t) => t.startsWith('Old pods of'));
    expect(note).toContain('beta-b1-x1 on gpu-node-2');
    expect(note).toContain('a bound on room: the steps are not run one by one');
    expect(note).not.toContain('Run forward with them gone');
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans) {
      expect(plan.warnings[0]).toContain('Waiting may be enough: the rollout can go on by itself once');
      expect(plan.warnings[0]).toContain('(with those pods gone, the nodes have room for it)');
    }
  });

  it('an Argo canary beside a neighbour whose new pod is not Ready: its rollout may not go on, "can never finish" stands', () => {
    const { finding, plans } = lead(canaryBeside(false), 'RolloutSurgeDeadlock');
    expect(finding?.summary).toContain('can never finish');
    expect(finding?.waitsFor).toBeUndefined();
    for (const plan of plans) expect(plan.warnings.join(' ')).not.toContain('Waiting may be enough');
  });

  it('a StatefulSet held at a Pending pod: the same wait is said', () => {
    const { finding } = lead(statefulSetBeside({ ready: true }), 'RolloutStuck');
    expect(finding?.summary).toContain(
      'It can go on by itself once the rollout of deployment payments/beta removes its old pods',
    );
    expect(finding?.waitsFor).toMatchObject({ names: ['payments/beta'], bound: true });
    // Not Ready: nothing promised.
    expect(lead(statefulSetBeside({ ready: false }), 'RolloutStuck').finding?.waitsFor).toBeUndefined();
  });

  it('a StatefulSet whose Pending pod has a volume tied to a node: no wait is said (a bound places pods anywhere), and only that node is its to use', () => {
    const { finding } = lead(statefulSetBeside({ ready: true, pinned: true }), 'RolloutStuck');
    expect(finding).toBeDefined();
    expect(finding?.waitsFor).toBeUndefined();
    expect(finding?.summary).not.toContain('It can go on by itself');
    // The volume rules the other nodes out as the scheduler's VolumeBinding does: node-c is
    // the only node db-1 may use, and what holds it there is beta's new pod, not the old one.
    const unschedulable = lead(statefulSetBeside({ ready: true, pinned: true }), 'Unschedulable').finding;
    expect(unschedulable?.summary).toContain('node-c, the only node it may use, has no room for it');
    expect(unschedulable?.explanation).toContain('free what other workloads hold (beta-b2-y1)');
    expect(unschedulable?.explanation).not.toContain('beta-b1-x1');
    // Unpinned, node-b is its to use too (beta's old pod goes): no such claim.
    expect(lead(statefulSetBeside({ ready: true }), 'Unschedulable').finding).toBeUndefined();
  });
});
