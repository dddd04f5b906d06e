/**
 * A StatefulSet reverted while a pod of the bad revision is Pending (it asks more than
 * any node has): what the controller does next decides the verdict
 * (stateful_set_control.go, updateStatefulSet).
 * - Parallel: the update loop deletes a pod whose revision is not the update revision by
 *   itself, so the Pending pod holds nothing up; its replacement at the reverted
 *   revision is what must fit. Moving, not stuck; still Unschedulable where the
 *   replacement fits no node either.
 * - OrderedReady: the monotonic walk waits at the Pending pod forever: the forced
 *   rollback (delete exactly that pod) is offered, since a Pending pod serves nothing.
 * - Below the partition, or OnDelete, nothing replaces it.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { replacedByUpdate } from '../../src/diagnosis/workloads/statefulset/ordered-block.js';
import { isStatefulSetObjects } from '../../src/diagnosis/snapshot/types.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { pendingForGood } from '../../src/diagnosis/forward/pending-for-good.js';
import { makeEvent, makeNode } from '../support/k8s-builders.js';
import {
  makeStatefulSet,
  makeStatefulSetSnapshot,
  makeStsPod,
  makeStsRevision,
} from '../support/statefulset-builders.js';

const GOOD = '65f9b98df4';
const BAD = '5f8cdcfd98';

/** ledger-0 and -1 Ready at GOOD (2 cpu each); ledger-2 Pending at BAD (16 cpu); the template reverted to GOOD. */
function reverted(options: {
  policy: 'OrderedReady' | 'Parallel';
  partition?: number;
  /** The reverted template's cpu (default 2: fits beside the others on 8-cpu nodes). */
  goodCpu?: string;
  onDelete?: true;
  /** spec.replicas (default 3): ledger-3 and up were never created (the walk stopped at ledger-2). */
  replicas?: number;
  /** The API server's gitVersion (default v1.34.3: the MaxUnavailableStatefulSet gate off); null: not read. */
  version?: string | null;
  maxUnavailable?: number;
}) {
  const sts = makeStatefulSet('ledger', {
    policy: options.policy,
    replicas: options.replicas ?? 3,
    ...(options.partition !== undefined ? { partition: options.partition } : {}),
    status: {
      observedGeneration: 3,
      replicas: 3,
      readyReplicas: 2,
      currentReplicas: 2,
      updatedReplicas: 2,
      availableReplicas: 2,
      currentRevision: `ledger-${GOOD}`,
      updateRevision: `ledger-${GOOD}`,
    },
  });
  if (options.onDelete) sts.spec.updateStrategy = { type: 'OnDelete' };
  if (options.maxUnavailable !== undefined)
    sts.spec.updateStrategy = {
      type: 'RollingUpdate',
      rollingUpdate: { partition: options.partition ?? 0, maxUnavailable: options.maxUnavailable },
    };
  const container = sts.spec.template.spec.containers[0];
  if (!container) throw new Error('fixture');
  container.resources = { requests: { cpu: options.goodCpu ?? '2', memory: '1Gi' } };
  const good = makeStsRevision(sts, GOOD, 3);
  const bad = makeStsRevision(sts, BAD, 2);
  const stuck = makeStsPod(sts, bad, 2, 'node-c', { phase: 'Pending' });
  const stuckContainer = stuck.spec.containers[0];
  if (!stuckContainer) throw new Error('fixture');
  stuckContainer.resources = { requests: { cpu: '16', memory: '1Gi' } };
  const message = '0/3 nodes are available: 3 Insufficient cpu.';
  const condition = stuck.status?.conditions?.[0];
  if (condition) condition.message = message;
  const pods = [
    makeStsPod(sts, good, 0, 'node-a', { phase: 'Running' }),
    makeStsPod(sts, good, 1, 'node-b', { phase: 'Running' }),
    stuck,
  ];
  const version = options.version === undefined ? 'v1.34.3' : options.version;
  return makeStatefulSetSnapshot({
    ...(version === null ? {} : { serverVersion: version }),
    statefulSet: sts,
    controllerRevisions: [good, bad],
    pods,
    nodes: ['node-a', 'node-b', 'node-c'].map((n) => makeNode(n)),
    events: [
      makeEvent(
        { kind: 'Pod', name: 'ledger-2', namespace: 'payments', uid: stuck.metadata.uid ?? '' },
        'FailedScheduling',
        message,
        { type: 'Warning', component: 'default-scheduler' },
      ),
    ],
  });
}

const codes = (snapshot: ReturnType<typeof reverted>) => diagnose(snapshot).findings.map((f) => f.code);

describe('a StatefulSet reverted with a Pending pod of the bad revision', () => {
  it('Parallel: the controller replaces the pod itself and the replacement fits: moving, not Unschedulable', () => {
    const snapshot = reverted({ policy: 'Parallel' });
    const diagnosis = diagnose(snapshot);
    expect(diagnosis.findings.map((f) => f.code)).toEqual(['RolloutProgressing']);
    expect(diagnosis.remediations).toEqual([]);
  });

  it('Parallel, but the reverted template fits no node either: Unschedulable stands', () => {
    expect(codes(reverted({ policy: 'Parallel', goodCpu: '12' }))).toContain('Unschedulable');
  });

  it.each([
    ['OrderedReady', { policy: 'OrderedReady' as const }],
    ['below the partition', { policy: 'Parallel' as const, partition: 3 }],
    ['OnDelete', { policy: 'Parallel' as const, onDelete: true as const }],
  ])('%s: nothing replaces the pod by itself, so its Pending is the verdict', (_name, options) => {
    const snapshot = reverted(options);
    expect(codes(snapshot)).toContain('Unschedulable');
    if (!isStatefulSetObjects(snapshot)) throw new Error('fixture');
    const pod = snapshot.pods.find((p) => p.metadata.name === 'ledger-2');
    if (!pod) throw new Error('fixture');
    expect(replacedByUpdate(snapshot, pod)).toBeUndefined();
  });

  it('Parallel at or above the partition: the update revision is what replaces it', () => {
    const snapshot = reverted({ policy: 'Parallel', partition: 2 });
    if (!isStatefulSetObjects(snapshot)) throw new Error('fixture');
    const [ready, , pending] = snapshot.pods;
    if (!ready || !pending) throw new Error('fixture');
    expect(replacedByUpdate(snapshot, pending)).toEqual({
      known: true,
      updateRevision: `ledger-${GOOD}`,
      now: true,
    });
    // A pod already at the update revision is not replaced.
    expect(replacedByUpdate(snapshot, ready)).toBeUndefined();
    // Below a pod of another revision (deleted first): replaced later, not now.
    const whole = reverted({ policy: 'Parallel' });
    const middle = whole.pods[1];
    if (!isStatefulSetObjects(whole) || !middle?.metadata.labels) throw new Error('fixture');
    middle.metadata.labels['controller-revision-hash'] = `ledger-${BAD}`;
    expect(replacedByUpdate(whole, middle)).toEqual({
      known: true,
      updateRevision: `ledger-${GOOD}`,
      now: false,
    });
    // A status the controller has not caught up with says nothing.
    snapshot.statefulSet.status = { ...snapshot.statefulSet.status, observedGeneration: 2 };
    expect(replacedByUpdate(snapshot, pending)).toBeUndefined();
  });

  it('stuck for good is judged on what replaces the pod: its replacement under Parallel, the pod itself under OrderedReady', () => {
    const names = (snapshot: ReturnType<typeof reverted>) =>
      pendingForGood(new AnalysisContext(snapshot)).map((p) => p.metadata.name);
    expect(names(reverted({ policy: 'Parallel' }))).toEqual([]);
    expect(names(reverted({ policy: 'Parallel', goodCpu: '12' }))).toEqual(['ledger-2']);
    expect(names(reverted({ policy: 'OrderedReady' }))).toEqual(['ledger-2']);
  });

  it.each([
    ['v1.35.2, maxUnavailable unset (1)', { version: 'v1.35.2' }, false],
    ['v1.37.0, maxUnavailable 1', { version: 'v1.37.0', maxUnavailable: 1 }, false],
    ['v1.35.2, maxUnavailable 2', { version: 'v1.35.2', maxUnavailable: 2 }, true],
    ['v1.35.4 (the gate off again)', { version: 'v1.35.4' }, true],
    ['a version not read', { version: null }, false],
  ] as const)(
    'Parallel with the MaxUnavailableStatefulSet gate by its default, %s: replaced by itself = %s',
    (_name, options, replaced) => {
      const snapshot = reverted({ policy: 'Parallel', ...options });
      const found = codes(snapshot);
      // With the gate on, the Pending pod itself spends maxUnavailable 1: nothing is deleted
      // (kubernetes#137409); not knowing the gate, the pod's own Pending is the verdict.
      if (replaced) expect(found).toEqual(['RolloutProgressing']);
      else expect(found).toContain('Unschedulable');
      const pending = snapshot.pods[2];
      if (!isStatefulSetObjects(snapshot) || !pending) throw new Error('fixture');
      expect(replacedByUpdate(snapshot, pending)?.known === true).toBe(replaced);
    },
  );

  it('Parallel with the version not read: Unschedulable says the controller may replace the pod, and on what it depends', () => {
    const unknown = diagnose(reverted({ policy: 'Parallel', version: null }));
    const notes = (diagnosis: typeof unknown) =>
      diagnosis.findings
        .find((f) => f.code === 'Unschedulable')
        ?.evidence.flatMap((e) => (e.type === 'note' ? [e.text] : [])) ?? [];
    expect(notes(unknown).join('\n')).toMatch(
      /Whether the StatefulSet controller replaces ledger-2 by itself depends on the MaxUnavailableStatefulSet feature gate: .* recreates it at ledger-65f9b98df4; .*The API server's version was not read \(a dump has none\)\./,
    );
    // A gate it knows says nothing of the kind: on (1.35.2) nothing replaces it.
    expect(notes(diagnose(reverted({ policy: 'Parallel', version: 'v1.35.2' }))).join('\n')).not.toContain(
      'MaxUnavailableStatefulSet',
    );
  });

  it('Parallel with the version not read: stuck only if the gate is on, so a warning where the replacement fits, critical where it fits nowhere either', () => {
    const unschedulable = (diagnosis: ReturnType<typeof diagnose>) =>
      diagnosis.findings.find((f) => f.code === 'Unschedulable');
    const fits = unschedulable(diagnose(reverted({ policy: 'Parallel', version: null })));
    expect(fits?.severity).toBe('warning');
    expect(fits?.summary).toContain(
      `Whether it stays Pending is not known: where the StatefulSet controller replaces it by itself (the note says when), its replacement at ledger-${GOOD} fits a node.`,
    );
    // The reverted template itself needs more than any node has: stuck whatever the gate.
    const never = unschedulable(diagnose(reverted({ policy: 'Parallel', version: null, goodCpu: '16' })));
    expect(never?.severity).toBe('critical');
    expect(never?.summary).not.toContain('Whether it stays Pending');
    // A gate it knows: on (1.35.2) nothing replaces it, and the claim stands.
    expect(unschedulable(diagnose(reverted({ policy: 'Parallel', version: 'v1.35.2' })))?.severity).toBe(
      'critical',
    );
  });

  it('OrderedReady: the forced rollback deletes exactly the Pending pod (it serves nothing)', () => {
    const diagnosis = diagnose(reverted({ policy: 'OrderedReady' }));
    expect(diagnosis.findings[0]?.code).toBe('RolloutStuck');
    const plan = diagnosis.remediations.find((p) => p.kind === 'delete-pods');
    expect(plan?.pods?.map((p) => p.name)).toEqual(['ledger-2']);
    expect(diagnosis.notOffered ?? []).toEqual([]);
  });

  it('OrderedReady where the end state fits no node: the forced rollback still gets the walk going', () => {
    // 4 replicas of 6 cpu on three 8-cpu nodes: ledger-3 will wait for room, but only
    // after ledger-2 is recreated at the reverted revision, which deleting it allows.
    const diagnosis = diagnose(reverted({ policy: 'OrderedReady', replicas: 4, goodCpu: '6' }));
    expect(diagnosis.findings.map((f) => f.code)).toContain('RolloutStuck');
    const plan = diagnosis.remediations.find((p) => p.kind === 'delete-pods');
    expect(plan?.pods?.map((p) => p.name)).toEqual(['ledger-2']);
  });
});
