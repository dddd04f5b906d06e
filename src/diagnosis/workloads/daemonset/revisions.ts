/**
 * A DaemonSet's revisions are its ControllerRevisions (pkg/controller/daemon/update.go,
 * constructHistory): each holds the template as a strategic merge patch in `data`
 * ({spec:{template:{…,$patch:replace}}}), is named `<daemonset>-<hash>` and labelled
 * `controller-revision-hash: <hash>`, and the pods made from it carry the same label.
 * The current revision is the one whose data matches the DaemonSet's template; the
 * controller creates it (with the next revision number) on the first sync after a
 * template change. Pods are controlled by the DaemonSet itself, not by the revision.
 */
import { controlledBy } from '../../base/owners.js';
import { semanticEqual } from '../../base/semantic-equal.js';
import type { ControllerRevision, DaemonSet, ObjectMeta, Pod } from '../../k8s.js';
import type { CoverageGap } from '../../snapshot.js';

/** apps.DefaultDaemonSetUniqueLabelKey: on the ControllerRevision and on each pod made from it. */
export const HASH_LABEL = 'controller-revision-hash';

/** The template a ControllerRevision holds (its data's spec.template without the `$patch` directive). */
export function revisionTemplate(revision: ControllerRevision): Record<string, unknown> | undefined {
  const data = revision.data;
  if (data === null || typeof data !== 'object') return undefined;
  const spec = (data as { spec?: unknown }).spec;
  if (spec === null || typeof spec !== 'object') return undefined;
  const template = (spec as { template?: unknown }).template;
  if (template === null || typeof template !== 'object') return undefined;
  const copy = { ...(template as Record<string, unknown>) };
  delete copy.$patch;
  return copy;
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

/**
 * The revision the DaemonSet rolls out to and the others, newest first. Once the
 * controller has observed the current generation, its current revision is the newest:
 * constructHistory (pkg/controller/daemon/update.go) finds the revision matching the
 * template and, when it is not the newest (a rollback to an older template), raises its
 * revision number to the next one, or creates a new revision with that number. Before
 * that, the revision whose template is the DaemonSet's (semantic equality, as the
 * controller's Match compares the patch) is the one it will pick, or none yet.
 */
export function classifyRevisions(
  daemonSet: DaemonSet,
  revisions: readonly ControllerRevision[],
): { current?: ControllerRevision; old: ControllerRevision[] } {
  const sorted = [...revisions].sort(byRevisionDesc);
  const observed = daemonSet.status?.observedGeneration;
  const generation = daemonSet.metadata.generation;
  const settled = observed !== undefined && generation !== undefined && observed >= generation;
  const current = settled
    ? sorted[0]
    : sorted.find((r) => {
        const template = revisionTemplate(r);
        return template !== undefined && semanticEqual(template, daemonSet.spec.template);
      });
  const old = sorted.filter((r) => r !== current);
  return current ? { current, old } : { old };
}

/** Pods made from the revision: the revision's hash label on the pod. */
export function podsOfRevision(pods: readonly Pod[], revision: ControllerRevision): Pod[] {
  const hash = revision.metadata.labels?.[HASH_LABEL];
  if (!hash) return [];
  return pods.filter((pod) => pod.metadata.labels?.[HASH_LABEL] === hash);
}

/** The DaemonSet's ControllerRevisions and pods out of what was read (controller owner reference). */
export function ownRevisions(
  daemonSet: DaemonSet,
  read: { revisions: readonly ControllerRevision[]; pods: readonly Pod[] },
  here: (meta: ObjectMeta) => boolean,
): { revisions: ControllerRevision[]; pods: Pod[] } {
  const revisions = read.revisions
    .filter((r) => here(r.metadata) && controlledBy(r.metadata, 'DaemonSet', daemonSet.metadata))
    .sort(byRevisionDesc);
  const pods = read.pods.filter(
    (p) => here(p.metadata) && controlledBy(p.metadata, 'DaemonSet', daemonSet.metadata),
  );
  return { revisions, pods };
}

/**
 * Revisions the pods name (their hash label) that were not read: the dump (or a read
 * RBAC cut) lacks them, so which pods are old and which are new is not known for
 * those pods. Named as the controller names them, `<daemonset>-<hash>`.
 */
export function missingRevisions(
  daemonSet: DaemonSet,
  pods: readonly Pod[],
  revisions: readonly ControllerRevision[],
): CoverageGap[] {
  const namespace = daemonSet.metadata.namespace ?? '';
  const name = daemonSet.metadata.name ?? '';
  const held = new Set(revisions.map((r) => r.metadata.labels?.[HASH_LABEL]).filter(Boolean));
  const missing = new Map<string, string>();
  for (const pod of pods) {
    if (!controlledBy(pod.metadata, 'DaemonSet', daemonSet.metadata)) continue;
    const hash = pod.metadata.labels?.[HASH_LABEL];
    if (!hash || held.has(hash) || missing.has(hash)) continue;
    missing.set(hash, pod.metadata.name ?? '');
  }
  return [...missing].map(([hash, pod]) => ({
    about: 'replicaSets' as const,
    what: `ControllerRevision ${name}-${hash} (revision of pod ${pod})`,
    reason: 'not-in-dump' as const,
    settle: `kubectl get controllerrevisions -n ${namespace} -o yaml`,
  }));
}

/** The DaemonSet that controls a pod, from its owner reference alone (the pod as a watch delivers it). */
export function daemonSetOfPod(pod: unknown): string | undefined {
  const metadata = field(pod, 'metadata');
  const refs = field(metadata, 'ownerReferences');
  const owner = (Array.isArray(refs) ? refs : []).find(
    (o) => field(o, 'controller') === true && field(o, 'kind') === 'DaemonSet',
  );
  const name = field(owner, 'name');
  return typeof name === 'string' && name !== '' ? name : undefined;
}

function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
