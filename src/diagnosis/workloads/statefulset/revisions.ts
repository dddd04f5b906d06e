/**
 * A StatefulSet's revisions are ControllerRevisions (pkg/controller/statefulset,
 * stateful_set_control.go getStatefulSetRevisions): the controller names the one its
 * current pods run in `status.currentRevision` and the one the update goes to in
 * `status.updateRevision`, and labels each pod `controller-revision-hash: <revision
 * name>` (the full name, where a DaemonSet's pods carry the bare hash). Pods are
 * `<set>-<ordinal>`, controlled by the StatefulSet itself.
 */
import type { ControllerRevision, StatefulSet } from '../../k8s-workloads.js';
import type { Pod } from '../../k8s.js';
import { byRevisionDesc, type RevisionNaming } from '../controller-revisions.js';

export { REVISION_LABEL } from '../controller-revisions.js';

/** A StatefulSet's pods carry the revision's name itself. */
export const STATEFULSET_NAMING: RevisionNaming = {
  podKey: (revision) => revision.metadata.name,
  revisionName: (_owner, name) => name,
};

/** The revision the update goes to (status.updateRevision; the newest when the status names none) and the others. */
export function classifyRevisions(
  statefulSet: StatefulSet,
  revisions: readonly ControllerRevision[],
): { current?: ControllerRevision; old: ControllerRevision[] } {
  const sorted = [...revisions].sort(byRevisionDesc);
  const named = statefulSet.status?.updateRevision;
  const current = named !== undefined ? sorted.find((r) => r.metadata.name === named) : sorted[0];
  const old = sorted.filter((r) => r !== current);
  return current ? { current, old } : { old };
}

/**
 * A pod's place among the set's, as the controller counts it against `replicas` and the
 * partition: its ordinal less `spec.ordinals.start` (StatefulSetStartOrdinal, GA in 1.31;
 * stateful_set_control.go indexes replicas by ord - start). db-5 of a set starting at 5 is
 * the first.
 */
export function ordinalIndex(pod: Pod, sts: Pick<StatefulSet, 'metadata' | 'spec'>): number | undefined {
  const ordinal = ordinalOf(pod, sts.metadata.name ?? '');
  return ordinal === undefined ? undefined : ordinal - startOrdinal(sts);
}

/** The set's first ordinal: `spec.ordinals.start`, 0 by default. */
export const startOrdinal = (sts: Pick<StatefulSet, 'spec'>): number => sts.spec.ordinals?.start ?? 0;

/** A pod's ordinal: the `apps.kubernetes.io/pod-index` label, else the name's suffix. */
export function ordinalOf(pod: Pod, setName: string): number | undefined {
  const label = pod.metadata.labels?.['apps.kubernetes.io/pod-index'];
  const text = label ?? (pod.metadata.name ?? '').slice(setName.length + 1);
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
