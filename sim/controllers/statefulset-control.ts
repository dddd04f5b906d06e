/**
 * updateStatefulSet of k8s.io/kubernetes pkg/controller/statefulset/stateful_set_control.go
 * (processReplica, processCondemned, then the rolling update with the
 * MaxUnavailableStatefulSet gate off, as at v1.34): which pods to create, delete or
 * relabel this round. OrderedReady (monotonic) stops at the first pod that is not
 * Running, Ready and available, and deletes only Failed or Succeeded pods; Parallel
 * neither waits nor stops. The pod writes go through `PodControl`.
 */
import type { Pod } from '../../src/diagnosis/k8s.js';
import { isRunningAndAvailable, isUnavailable, ordinalOf, REVISION_LABEL } from './statefulset-pods.js';
import type { StatefulSet } from './workload-types.js';

/** StatefulPodControl: the writes a round makes. */
export interface PodControl {
  /** CreateStatefulPod: claims, then the pod for the ordinal (undefined when refused). */
  create(ordinal: number): Pod | undefined;
  remove(pod: Pod): void;
  /** createMissingPersistentVolumeClaims for a pending pod. */
  ensureClaims(ordinal: number): void;
  /** UpdateStatefulPod when the identity labels are missing. */
  fixIdentity(pod: Pod, ordinal: number): void;
}

interface Round {
  set: StatefulSet;
  control: PodControl;
  monotonic: boolean;
  unavailable: (pod: Pod | undefined) => boolean;
  available: (pod: Pod) => boolean;
}

const phaseDone = (pod: Pod): boolean => pod.status?.phase === 'Failed' || pod.status?.phase === 'Succeeded';

/** processReplica for each ordinal; false when a monotonic round must stop here. */
function processReplicas(round: Round, replicas: (Pod | undefined)[], start: number): boolean {
  const { control, monotonic } = round;
  for (let i = 0; i < replicas.length; i += 1) {
    let pod = replicas[i];
    if (pod && phaseDone(pod)) {
      // The pod is recreated in a later round, once it is gone.
      if (!pod.metadata.deletionTimestamp) control.remove(pod);
      if (monotonic) return false;
      continue;
    }
    if (!pod) {
      pod = control.create(start + i);
      replicas[i] = pod;
      if (monotonic) return false;
      if (!pod) continue;
    }
    if (pod.status?.phase === 'Pending') control.ensureClaims(start + i);
    // Terminating, or not Running, Ready and available: a monotonic round waits.
    if (monotonic && (pod.metadata.deletionTimestamp || !round.available(pod))) return false;
    control.fixIdentity(pod, start + i);
  }
  return true;
}

/** processCondemned, highest ordinal first; false when a monotonic round must stop here. */
function processCondemned(round: Round, condemned: Pod[], firstUnhealthy: Pod | undefined): boolean {
  for (const pod of condemned) {
    if (pod.metadata.deletionTimestamp) {
      if (round.monotonic) return false;
      continue;
    }
    if (round.monotonic && pod !== firstUnhealthy && !round.available(pod)) return false;
    round.control.remove(pod);
    if (round.monotonic) return false;
  }
  return true;
}

/**
 * One round of updateStatefulSet over the set's member pods. The rolling update
 * deletes the highest-ordinal pod not at the update revision, at or above the
 * partition, and only while every pod above it is available; the next round recreates
 * it at the update revision.
 */
export function updateStatefulSet(
  set: StatefulSet,
  pods: readonly Pod[],
  updateRevision: string,
  control: PodControl,
  timeScale: number,
): void {
  const minReady = set.spec.minReadySeconds ?? 0;
  const start = set.spec.ordinals?.start ?? 0;
  const count = set.spec.replicas ?? 1;
  const replicas: (Pod | undefined)[] = new Array<Pod | undefined>(count).fill(undefined);
  const condemned: Pod[] = [];
  const ordinal = (p: Pod): number => ordinalOf(p.metadata.name ?? '', set.metadata.name);
  for (const pod of pods) {
    const ord = ordinal(pod);
    if (ord >= start && ord < start + count) replicas[ord - start] = pod;
    else if (ord >= 0) condemned.push(pod);
  }
  condemned.sort((a, b) => ordinal(b) - ordinal(a));
  const round: Round = {
    set,
    control,
    monotonic: set.spec.podManagementPolicy !== 'Parallel',
    unavailable: (p) => isUnavailable(p, minReady, timeScale),
    available: (p) => isRunningAndAvailable(p, minReady, timeScale),
  };
  const firstUnhealthy =
    replicas.find(round.unavailable) ?? [...condemned].reverse().find((p) => round.unavailable(p));
  if (set.metadata.deletionTimestamp) return;
  if (!processReplicas(round, replicas, start)) return;
  if (!processCondemned(round, condemned, firstUnhealthy)) return;
  if (set.spec.updateStrategy?.type === 'OnDelete') return;
  // Upstream compares the partition with the index into the replicas, not the ordinal.
  const partition = set.spec.updateStrategy?.rollingUpdate?.partition ?? 0;
  for (let target = count - 1; target >= partition; target -= 1) {
    const pod = replicas[target];
    if (pod && pod.metadata.labels?.[REVISION_LABEL] !== updateRevision && !pod.metadata.deletionTimestamp) {
      control.remove(pod);
      return;
    }
    if (round.unavailable(pod)) return;
  }
}
