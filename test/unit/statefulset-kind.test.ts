/**
 * The StatefulSet kind (issue 30.1) on API-shaped objects: RolloutStuck at the pod an
 * OrderedReady update waits for, with the forced rollback offered only once the update
 * revision is proven; a partition holding pods back on purpose is not stuck; Parallel
 * needs no forced rollback; kubectl's rollout status lines; the node exclusion warns
 * that a pod keeps its claims.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { workloadKind } from '../../src/diagnosis/workloads/index.js';
import { isStatefulSetObjects } from '../../src/diagnosis/snapshot/types.js';
import { makeEvent, makeNode, makePvc } from '../support/k8s-builders.js';
import type { PersistentVolume } from '../../src/diagnosis/k8s-storage.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

const GOOD = '65f9b98df4';
const BAD = '5f8cdcfd98';
const nodes = ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n));
const crashing = { phase: 'CrashLoopBackOff' as const, restarts: 6, exitCode: 1, reason: 'Error' };

/** ledger-0 and -1 Ready; ledger-2 crash-looping at `stuckAt`; the update goes to `update`. */
function ledger(options: {
  update: 'good' | 'bad';
  stuckAt: 'good' | 'bad';
  partition?: number;
  policy?: 'OrderedReady' | 'Parallel';
  /** ledger-2 Pending, not scheduled, instead of crash-looping. */
  pending?: boolean;
}) {
  const revisionName = (which: 'good' | 'bad'): string => `ledger-${which === 'good' ? GOOD : BAD}`;
  const sts = makeStatefulSet('ledger', {
    ...(options.partition !== undefined ? { partition: options.partition } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: options.update === options.stuckAt ? 1 : 2,
      availableReplicas: 2,
      currentRevision: revisionName('good'),
      updateRevision: revisionName(options.update),
    },
  });
  const good = makeStsRevision(sts, GOOD, options.update === 'good' ? 3 : 1);
  const bad = makeStsRevision(sts, BAD, 2);
  const pods = [
    makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' }),
    makeStsPod(sts, good, 1, 'node-b', { phase: 'Running' }),
    makeStsPod(
      sts,
      options.stuckAt === 'good' ? good : bad,
      2,
      'node-c',
      options.pending ? { phase: 'Pending' } : crashing,
    ),
  ];
  return makeStatefulSetSnapshot({ statefulSet: sts, controllerRevisions: [good, bad], pods, nodes });
}

/**
 * Current GOOD, ledger-1 crash-looping at BAD, and the template changed again to NEXT:
 * deleting ledger-1 recreates it at NEXT, proven only by a Ready pod there. `third`:
 * what ledger-2 runs.
 */
function revertedAgain(third: 'good' | 'next-ready' | 'next-unready') {
  const NEXT = '7c9d0e1f2a';
  const atNext = third !== 'good';
  const sts = makeStatefulSet('ledger', {
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: third === 'next-unready' ? 1 : 2,
      currentReplicas: atNext ? 1 : 2,
      updatedReplicas: atNext ? 1 : 0,
      availableReplicas: third === 'next-unready' ? 1 : 2,
      currentRevision: `ledger-${GOOD}`,
      updateRevision: `ledger-${NEXT}`,
    },
  });
  const good = makeStsRevision(sts, GOOD, 1);
  const bad = makeStsRevision(sts, BAD, 2);
  const next = makeStsRevision(sts, NEXT, 3);
  const pods = [
    makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' }),
    makeStsPod(sts, bad, 1, 'node-b', crashing),
    makeStsPod(sts, atNext ? next : good, 2, 'node-c', { phase: 'Running', ready: third !== 'next-unready' }),
  ];
  return makeStatefulSetSnapshot({ statefulSet: sts, controllerRevisions: [good, bad, next], pods, nodes });
}

describe('StatefulSet rollout', () => {
  it('while the template is bad: RolloutStuck says to fix it first, and offers no deletion', () => {
    const diagnosis = diagnose(ledger({ update: 'bad', stuckAt: 'bad' }));
    expect(diagnosis.findings[0]?.code).toBe('RolloutStuck');
    expect(diagnosis.findings[0]?.explanation).toContain('Fix the template first');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('delete-pods');
  });

  it('a pod of the update revision Pending, not scheduled: held until it is placed, not "forever", room before any revert', () => {
    const stuck = diagnose(ledger({ update: 'bad', stuckAt: 'bad', pending: true })).findings[0];
    expect(stuck?.code).toBe('RolloutStuck');
    expect(stuck?.summary).toBe(
      'Rollout of ledger is held at pod ledger-2 of the update revision ledger-5f8cdcfd98: it is Pending, not scheduled, and the controller goes no further until it is Running and Ready.',
    );
    expect(stuck?.summary).not.toContain('never');
    expect(stuck?.explanation).toContain('waits for this one until the scheduler places it');
    expect(stuck?.explanation).toContain('It waits for room, not for its template to be fixed');
    expect(stuck?.explanation).not.toContain('Fix the template first');
  });

  it('after the revert (forced rollback): delete-pods for exactly the stuck pod', () => {
    const snapshot = ledger({ update: 'good', stuckAt: 'bad' });
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.code).toBe('RolloutStuck');
    const plan = diagnosis.remediations.find((p) => p.kind === 'delete-pods');
    expect(plan?.pods?.map((p) => p.name)).toEqual(['ledger-2']);
    expect(plan?.impact).toContain('keeps its name, its ordinal and its PersistentVolumeClaims');
  });

  it('after the revert, a stuck pod tied to a local volume on a cordoned node: stuck for good, no deletion offered', () => {
    const snapshot = ledger({ update: 'good', stuckAt: 'bad' });
    const stuck = snapshot.pods[2];
    if (!stuck) throw new Error('no ledger-2');
    // ledger-2 was evicted from node-c and waits: its claim is bound to a local volume there, and node-c is cordoned.
    delete stuck.spec.nodeName;
    stuck.status = {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    };
    stuck.spec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: 'data-ledger-2' } }];
    const nodeC = snapshot.nodes.find((n) => n.metadata.name === 'node-c');
    if (!nodeC) throw new Error('no node-c');
    const cordoned = { ...nodeC, spec: { ...nodeC.spec, unschedulable: true } };
    const pvc = makePvc('data-ledger-2', stuck.metadata.namespace ?? '');
    pvc.spec.volumeName = 'local-c-1';
    const volume: PersistentVolume = {
      metadata: { name: 'local-c-1' },
      spec: {
        local: { path: '/mnt/disks/1' },
        nodeAffinity: {
          required: {
            nodeSelectorTerms: [
              { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: ['node-c'] }] },
            ],
          },
        },
      },
    };
    const diagnosis = diagnose({
      ...snapshot,
      nodes: snapshot.nodes.map((n) => (n === nodeC ? cordoned : n)),
      pvcs: [pvc],
      guards: { persistentVolumes: [volume] },
    });
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('delete-pods');
    expect(diagnosis.notOffered?.find((n) => n.kind === 'delete-pods')?.reason).toMatch(
      /its replacement would need the node of volume local-c-1 \(claim data-ledger-2 keeps it there\), which cannot take it/,
    );
    // With the volume not read, nothing says where it must go: the deletion stands.
    const unread = diagnose({
      ...snapshot,
      nodes: snapshot.nodes.map((n) => (n === nodeC ? cordoned : n)),
      pvcs: [pvc],
    });
    expect(unread.remediations.map((p) => p.kind)).toContain('delete-pods');
  });

  it.each([
    ['no pod has run it yet', 'good'],
    ['a pod at it exists but is not Ready', 'next-unready'],
  ] as const)(
    'a revert to a third template nobody has proven (%s): RolloutStuck, no forced rollback',
    (_name, third) => {
      const diagnosis = diagnose(revertedAgain(third));
      expect(diagnosis.findings[0]?.code).toBe('RolloutStuck');
      expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('delete-pods');
    },
  );

  it('the same revert once a pod runs the update revision Ready: the forced rollback is offered', () => {
    const plan = diagnose(revertedAgain('next-ready')).remediations.find((p) => p.kind === 'delete-pods');
    expect(plan?.pods?.map((p) => p.name)).toEqual(['ledger-1']);
  });

  it('names the image that differs between the revisions, in the verdict and in the plan', () => {
    const snapshot = ledger({ update: 'good', stuckAt: 'bad' });
    const stuck = snapshot.pods.find((p) => p.metadata.name === 'ledger-2');
    const container = stuck?.spec.containers[0];
    if (!container) throw new Error('fixture');
    const good = container.image ?? '';
    container.image = 'registry.example.com/payments/ledger:3.5.0';
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings[0]?.summary).toContain(
      `still runs revision ledger-${BAD} (image registry.example.com/payments/ledger:3.5.0), not the update revision ledger-${GOOD} (image ${good})`,
    );
    expect(diagnosis.remediations.find((p) => p.kind === 'delete-pods')?.summary).toBe(
      `Delete pod ledger-2 (revision ledger-${BAD}, image registry.example.com/payments/ledger:3.5.0) so the StatefulSet controller recreates it at ledger-${GOOD} (image ${good}) and the rollout carries on.`,
    );
  });

  it('a pod stuck at the update revision: its image, and the one the current revision runs', () => {
    const snapshot = ledger({ update: 'bad', stuckAt: 'bad' });
    if (!isStatefulSetObjects(snapshot)) throw new Error('fixture');
    const template = snapshot.statefulSet.spec.template.spec.containers[0];
    const stuck = snapshot.pods.find((p) => p.metadata.name === 'ledger-2')?.spec.containers[0];
    if (!template || !stuck) throw new Error('fixture');
    const current = template.image ?? '';
    template.image = 'registry.example.com/payments/ledger:3.5.0';
    stuck.image = template.image;
    expect(diagnose(snapshot).findings[0]?.summary).toContain(
      `stuck at pod ledger-2 of the update revision ledger-${BAD} (image registry.example.com/payments/ledger:3.5.0; the current revision runs ${current})`,
    );
  });

  it('with Parallel the controller deletes an old-revision pod itself: no forced rollback', () => {
    const diagnosis = diagnose(ledger({ update: 'good', stuckAt: 'bad', policy: 'Parallel' }));
    expect(diagnosis.findings.map((f) => f.code)).not.toContain('RolloutStuck');
    expect(diagnosis.remediations.map((p) => p.kind)).not.toContain('delete-pods');
  });

  it('kubectl rollout status as kubectl words it, partition included', () => {
    const snapshot = ledger({ update: 'bad', stuckAt: 'bad', partition: 1 });
    const kind = workloadKind(snapshot);
    expect(kind.rolloutStatus(kind.object(snapshot)).progress.message).toBe(
      'Waiting for 1 pods to be ready...',
    );
    expect(kind.statusSummary(kind.object(snapshot)).text).toContain(
      'partition 1 (pods below ordinal 1 stay on purpose)',
    );
  });

  it('pods held back by the partition are not a stuck rollout', () => {
    // Partition 2: only ledger-2 is updated, and it is Ready; ledger-0 and -1 keep the old revision on purpose.
    const sts = makeStatefulSet('ledger', {
      partition: 2,
      status: {
        observedGeneration: 3,
        replicas: 3,
        readyReplicas: 3,
        currentReplicas: 2,
        updatedReplicas: 1,
        availableReplicas: 3,
        currentRevision: `ledger-${GOOD}`,
        updateRevision: `ledger-${BAD}`,
      },
    });
    const good = makeStsRevision(sts, GOOD, 1);
    const next = makeStsRevision(sts, BAD, 2);
    const snapshot = makeStatefulSetSnapshot({
      statefulSet: sts,
      controllerRevisions: [good, next],
      pods: [
        makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' }),
        makeStsPod(sts, good, 1, 'node-b', { phase: 'Running' }),
        makeStsPod(sts, next, 2, 'node-c', { phase: 'Running' }),
      ],
      nodes,
    });
    const kind = workloadKind(snapshot);
    expect(kind.rolloutStatus(kind.object(snapshot))).toMatchObject({
      state: 'complete',
      progress: { message: 'partitioned roll out complete: 1 new pods have been updated...' },
    });
    expect(diagnose(snapshot).findings).toEqual([]);
  });
});

describe('StatefulSet pods the API server refuses', () => {
  it('takes the error out of the controller\'s "create Pod … failed error:" wording', () => {
    const snapshot = ledger({ update: 'good', stuckAt: 'good' });
    const sts = workloadKind(snapshot).object(snapshot);
    snapshot.pods = snapshot.pods.filter((p) => p.metadata.name !== 'ledger-2');
    snapshot.events = [
      makeEvent(
        { kind: 'StatefulSet', name: 'ledger', namespace: 'payments', uid: sts.metadata.uid },
        'FailedCreate',
        'create Pod ledger-2 in StatefulSet ledger failed error: pods "ledger-2" is forbidden: violates PodSecurity "restricted:latest": runAsNonRoot != true (pod or container "ledger" must set securityContext.runAsNonRoot=true)',
        { type: 'Warning', component: 'statefulset-controller' },
      ),
    ];
    const finding = diagnose(snapshot).findings.find((f) => f.code === 'AdmissionDenied');
    expect(finding?.summary).toContain('PodSecurity');
    expect(JSON.stringify(finding)).not.toContain('create Pod ledger-2 in StatefulSet');
  });
});
