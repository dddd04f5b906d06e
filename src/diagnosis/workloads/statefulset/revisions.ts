/**
 * A StatefulSet's revisions are ControllerRevisions (pkg/controller/statefulset,
 * stateful_set_control.go getStatefulSetRevisions): the controller names the one its
 * current pods run in `status.currentRevision` and the one the update goes to in
 * `status.updateRevision`, and labels each pod `controller-revision-hash: <revision
 * name>` (the full name, where a DaemonSet's pods carry the bare hash). Pods are
 * `<set>-<ordinal>`, controlled by the StatefulSet itself.
 */
import { controlledBy } from '../../base/owners.js';
import type { ControllerRevision, ObjectMeta, Pod, StatefulSet } from '../../k8s.js';
import type { CoverageGap } from '../../snapshot.js';
import { byRevisionDesc } from '../daemonset/revisions.js';

/** The pod label naming its revision (apps.ControllerRevisionHashLabelKey): the revision's name. */
export const REVISION_LABEL = 'controller-revision-hash';

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

export function podsOfRevision(pods: readonly Pod[], revision: ControllerRevision): Pod[] {
  const name = revision.metadata.name;
  return name ? pods.filter((p) => p.metadata.labels?.[REVISION_LABEL] === name) : [];
}

export function ownRevisions(
  statefulSet: StatefulSet,
  read: { revisions: readonly ControllerRevision[]; pods: readonly Pod[] },
  here: (meta: ObjectMeta) => boolean,
): { revisions: ControllerRevision[]; pods: Pod[] } {
  const revisions = read.revisions
    .filter((r) => here(r.metadata) && controlledBy(r.metadata, 'StatefulSet', statefulSet.metadata))
    .sort(byRevisionDesc);
  const pods = read.pods.filter(
    (p) => here(p.metadata) && controlledBy(p.metadata, 'StatefulSet', statefulSet.metadata),
  );
  return { revisions, pods };
}

/** Revisions the pods name that were not read: which pods are current is then not known for them. */
export function missingRevisions(
  statefulSet: StatefulSet,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
): CoverageGap[] {
  const namespace = statefulSet.metadata.namespace ?? '';
  const held = new Set(revisions.map((r) => r.metadata.name));
  const missing = new Map<string, string>();
  for (const pod of pods) {
    if (!controlledBy(pod.metadata, 'StatefulSet', statefulSet.metadata)) continue;
    const name = pod.metadata.labels?.[REVISION_LABEL];
    if (!name || held.has(name) || missing.has(name)) continue;
    missing.set(name, pod.metadata.name ?? '');
  }
  return [...missing].map(([name, pod]) => ({
    about: 'replicaSets' as const,
    what: `ControllerRevision ${name} (revision of pod ${pod})`,
    reason: 'not-in-dump' as const,
    settle: `kubectl get controllerrevisions -n ${namespace} -o yaml`,
  }));
}

/** The StatefulSet that controls a pod, from its owner reference alone. */
export function statefulSetOfPod(pod: unknown): string | undefined {
  const metadata = field(pod, 'metadata');
  const refs = field(metadata, 'ownerReferences');
  const owner = (Array.isArray(refs) ? refs : []).find(
    (o) => field(o, 'controller') === true && field(o, 'kind') === 'StatefulSet',
  );
  const name = field(owner, 'name');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** A pod's ordinal: the `apps.kubernetes.io/pod-index` label, else the name's suffix. */
export function ordinalOf(pod: Pod, setName: string): number | undefined {
  const label = pod.metadata.labels?.['apps.kubernetes.io/pod-index'];
  const text = label ?? (pod.metadata.name ?? '').slice(setName.length + 1);
  return /^\d+$/.test(text) ? Number(text) : undefined;
}
