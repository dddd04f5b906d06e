/**
 * An Argo Rollout's Pending pod of an old revision, while a newer revision exists, does
 * not hold the rollout up: the controller scales that ReplicaSet away without waiting
 * for it (src/diagnosis/analyzers/unschedulable.ts), so no finding explains it. The
 * analyzer knows the kind from its resolved strategy (`argo`), not from its name.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import { makeEvent } from '../support/k8s-builders.js';
import { makeRolloutPod, trackerMidUpdate } from '../support/rollout-builders.js';
import type { ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import { isRolloutObjects } from '../../src/diagnosis/snapshot/types.js';

const GPU_MESSAGE =
  '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

describe("an Argo Rollout's Pending pod of an old revision", () => {
  it("is not explained as holding the rollout up; the new revision's Pending pod still is", () => {
    const snapshot = trackerMidUpdate();
    if (!isRolloutObjects(snapshot)) throw new Error('not a Rollout snapshot');
    const stable = snapshot.replicaSets.find((rs: ReplicaSet) => rs.metadata.name?.endsWith('a1'));
    if (!stable) throw new Error('no stable ReplicaSet');
    const oldPending = makeRolloutPod(stable, 'old9', undefined, { phase: 'Pending' });
    const event = makeEvent(
      { kind: 'Pod', name: oldPending.metadata.name, namespace: 'vision', uid: oldPending.metadata.uid },
      'FailedScheduling',
      GPU_MESSAGE,
      { type: 'Warning', component: 'default-scheduler' },
    );
    const d = diagnose({
      ...snapshot,
      pods: [...snapshot.pods, oldPending],
      events: [...snapshot.events, event],
    });
    const said = JSON.stringify(d.findings);
    expect(said).not.toContain(oldPending.metadata.name);
    const canaryPending = snapshot.pods.find((p) => p.status?.phase === 'Pending');
    expect(said).toContain(canaryPending?.metadata.name);
  });
});
