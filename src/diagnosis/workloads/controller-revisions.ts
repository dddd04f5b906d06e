/**
 * What the kinds whose revisions are ControllerRevisions share (DaemonSet, StatefulSet):
 * their own revisions and pods by controller owner reference (the controller owns both
 * directly), revisions that pods name but were not read, and a pod's owner without a
 * read. How a pod names its revision differs: a DaemonSet's pods carry the revision's
 * hash, a StatefulSet's its name (`podKey`).
 */
import { controlledBy } from '../base/owners.js';
import type { ControllerRevision } from '../k8s-workloads.js';
import type { ObjectMeta, Pod } from '../k8s.js';
import type { CoverageGap } from '../snapshot/types.js';
import type { Revision, Revisions } from '../workload-kind.js';

/** The pod label naming its revision (apps.ControllerRevisionHashLabelKey, also DefaultDaemonSetUniqueLabelKey). */
export const REVISION_LABEL = 'controller-revision-hash';

/** How a kind's pods name a revision: the value of their REVISION_LABEL for it, and the revision's name for a value. */
export interface RevisionNaming {
  podKey(revision: ControllerRevision): string | undefined;
  revisionName(owner: string, value: string): string;
}

function revisionNumber(revision: ControllerRevision): number {
  return typeof revision.revision === 'number' ? revision.revision : -1;
}

/** Newest revision first (by number, then by age). */
export function byRevisionDesc(a: ControllerRevision, b: ControllerRevision): number {
  return (
    revisionNumber(b) - revisionNumber(a) ||
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')
  );
}

/** Pods made from the revision. */
function podsOfRevision(pods: readonly Pod[], revision: ControllerRevision, naming: RevisionNaming): Pod[] {
  const key = naming.podKey(revision);
  return key ? pods.filter((pod) => pod.metadata.labels?.[REVISION_LABEL] === key) : [];
}

/** The current and old revisions as the kind module answers them, each with its pods. */
export function revisionsFrom(
  classified: { current?: ControllerRevision; old: ControllerRevision[] },
  pods: readonly Pod[],
  naming: RevisionNaming,
): Revisions {
  const revision = (r: ControllerRevision): Revision => ({
    name: r.metadata.name ?? '',
    hash: naming.podKey(r) ?? '',
    label: `ControllerRevision ${r.metadata.name ?? ''}${typeof r.revision === 'number' ? ` (revision ${r.revision})` : ''}`,
    pods: podsOfRevision(pods, r, naming),
  });
  const { current, old } = classified;
  return { ...(current ? { current: revision(current) } : {}), old: old.map(revision) };
}

/** The workload's ControllerRevisions (newest first) and pods out of what was read. */
export function ownRevisions(
  kind: string,
  owner: { metadata: ObjectMeta },
  read: { revisions: readonly ControllerRevision[]; pods: readonly Pod[] },
  here: (meta: ObjectMeta) => boolean,
): { revisions: ControllerRevision[]; pods: Pod[] } {
  const revisions = read.revisions
    .filter((r) => here(r.metadata) && controlledBy(r.metadata, kind, owner.metadata))
    .sort(byRevisionDesc);
  const pods = read.pods.filter((p) => here(p.metadata) && controlledBy(p.metadata, kind, owner.metadata));
  return { revisions, pods };
}

/**
 * Revisions the pods name that were not read (a dump, or a read RBAC cut): which of
 * those pods are old and which new is then not known.
 */
export function missingRevisions(
  kind: string,
  owner: { metadata: ObjectMeta },
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
  naming: RevisionNaming,
): CoverageGap[] {
  const namespace = owner.metadata.namespace ?? '';
  const held = new Set(revisions.map((r) => naming.podKey(r)).filter(Boolean));
  const missing = new Map<string, string>();
  for (const pod of pods) {
    if (!controlledBy(pod.metadata, kind, owner.metadata)) continue;
    const value = pod.metadata.labels?.[REVISION_LABEL];
    if (!value || held.has(value) || missing.has(value)) continue;
    missing.set(value, pod.metadata.name ?? '');
  }
  return [...missing].map(([value, pod]) => ({
    about: 'replicaSets' as const,
    what: `ControllerRevision ${naming.revisionName(owner.metadata.name ?? '', value)} (revision of pod ${pod})`,
    reason: 'not-in-dump' as const,
    settle: `kubectl get controllerrevisions -n ${namespace} -o yaml`,
  }));
}

/** The workload of `kind` that controls a pod directly, from its owner reference alone (the pod as a watch delivers it). */
export function directOwnerOfPod(kind: string, pod: unknown): string | undefined {
  const metadata = field(pod, 'metadata');
  const refs = field(metadata, 'ownerReferences');
  const owner = (Array.isArray(refs) ? refs : []).find(
    (o) => field(o, 'controller') === true && field(o, 'kind') === kind,
  );
  const name = field(owner, 'name');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
