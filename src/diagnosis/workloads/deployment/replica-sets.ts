/**
 * A Deployment's revisions are its ReplicaSets: which one is current, which pods each
 * one controls, and when two templates are the same to the Deployment controller.
 */
import { controlledBy } from '../../base/owners.js';
import { semanticEqual } from '../../base/semantic-equal.js';
import type { Deployment, ReplicaSet } from '../../k8s-workloads.js';
import type { ObjectMeta, Pod, PodTemplateSpec } from '../../k8s.js';
import type { CoverageGap, DeploymentObjects, WorkloadSnapshot } from '../../snapshot/types.js';

/** The annotation carrying a Deployment's (and its ReplicaSets') revision number. */
export const REVISION = 'deployment.kubernetes.io/revision';
/** The label the Deployment controller puts on a ReplicaSet and its pods: the template's hash. */
export const HASH_LABEL = 'pod-template-hash';

interface ClassifiedReplicaSets {
  /** The ReplicaSet whose template is the Deployment's template (the rollout target). */
  current?: ReplicaSet;
  /** Every other ReplicaSet of the Deployment, newest revision first. */
  old: ReplicaSet[];
}

/**
 * Splits the Deployment's ReplicaSets into current and old the way the Deployment
 * controller does (FindNewReplicaSet): the oldest ReplicaSet whose template equals
 * the Deployment's template, ignoring the pod-template-hash label. When no template
 * matches (a hand-edited dump whose template lost its server defaults), the
 * ReplicaSet carrying the Deployment's revision annotation is taken instead.
 */
export function classifyReplicaSets(snapshot: DeploymentObjects): ClassifiedReplicaSets {
  const sets = [...snapshot.replicaSets].sort(
    (a, b) => (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') || 0,
  );
  const template = snapshot.deployment.spec.template;
  let current = sets.find(
    (rs) => rs.spec.template !== undefined && templatesEqual(rs.spec.template, template),
  );
  if (!current) {
    const revision = snapshot.deployment.metadata.annotations?.[REVISION];
    current = revision ? sets.find((rs) => rs.metadata.annotations?.[REVISION] === revision) : undefined;
  }
  const old = sets.filter((rs) => rs !== current).sort((a, b) => revisionOf(b) - revisionOf(a));
  return current ? { current, old } : { old };
}

function revisionOf(rs: ReplicaSet): number {
  const value = Number.parseInt(rs.metadata.annotations?.[REVISION] ?? '', 10);
  return Number.isNaN(value) ? 0 : value;
}

/**
 * EqualIgnoreHash with Kubernetes' semantic equality (nil and empty maps/lists are
 * equal); an Argo Rollout's ReplicaSets carry their hash under another label.
 */
export function templatesEqual(a: PodTemplateSpec, b: PodTemplateSpec, hashLabel = HASH_LABEL): boolean {
  return semanticEqual(withoutHash(a, hashLabel), withoutHash(b, hashLabel));
}

function withoutHash(template: PodTemplateSpec, hashLabel: string): PodTemplateSpec {
  const labels = { ...template.metadata?.labels };
  delete labels[hashLabel];
  return { ...template, metadata: { ...template.metadata, labels } };
}

/** Pods controlled by the ReplicaSet (owner uid; by name and hash label when uids are missing). */
export function podsOfReplicaSet(
  snapshot: Pick<WorkloadSnapshot, 'pods'>,
  rs: ReplicaSet,
  hashLabel = HASH_LABEL,
): Pod[] {
  const uid = rs.metadata.uid;
  const hash = rs.metadata.labels?.[hashLabel];
  return snapshot.pods.filter((pod) => {
    const owner = pod.metadata.ownerReferences?.find((ref) => ref.controller && ref.kind === 'ReplicaSet');
    if (owner && uid && owner.uid) return owner.uid === uid;
    if (owner) return owner.name === rs.metadata.name;
    return hash !== undefined && pod.metadata.labels?.[hashLabel] === hash;
  });
}

/**
 * The Deployment's ReplicaSets (controller owner reference) and their pods out of what
 * was read, newest revision first: what the collector, scan and a dump keep as ours.
 */
export function ownReplicaSets(
  deployment: Pick<Deployment, 'metadata'>,
  read: { revisions: readonly ReplicaSet[]; pods: readonly Pod[] },
  here: (meta: ObjectMeta) => boolean,
  ownerKind: 'Deployment' | 'Rollout' = 'Deployment',
  revisionAnnotation = REVISION,
): { revisions: ReplicaSet[]; pods: Pod[] } {
  const revisions = read.revisions
    .filter((rs) => here(rs.metadata) && controlledBy(rs.metadata, ownerKind, deployment.metadata))
    .sort((a, b) => byRevisionDesc(a, b, revisionAnnotation));
  const pods = read.pods.filter(
    (p) => here(p.metadata) && revisions.some((rs) => controlledBy(p.metadata, 'ReplicaSet', rs.metadata)),
  );
  return { revisions, pods };
}

function revisionNumber(rs: ReplicaSet, annotation: string): number {
  const value = Number(rs.metadata.annotations?.[annotation]);
  return Number.isFinite(value) ? value : -1;
}

function byRevisionDesc(a: ReplicaSet, b: ReplicaSet, annotation: string): number {
  return (
    revisionNumber(b, annotation) - revisionNumber(a, annotation) ||
    (b.metadata.creationTimestamp ?? '').localeCompare(a.metadata.creationTimestamp ?? '')
  );
}

/**
 * A pod whose controller is a ReplicaSet of this Deployment (named
 * `<deployment>-<its pod-template-hash>`, as the Deployment controller names them) that
 * the dump lacks: the ReplicaSets were cut (a dump saved in several commands, a filter),
 * not deleted (the garbage collector removes the pods of a deleted one). Such a pod is
 * not selected as ours, so what it holds must not count as another workload's: the
 * ReplicaSets are partial, and the gap names the one to read.
 */
export function missingReplicaSets(
  deployment: Pick<Deployment, 'metadata'>,
  pods: readonly Pod[],
  replicaSets: readonly ReplicaSet[],
  hashLabel = HASH_LABEL,
): CoverageGap[] {
  const namespace = deployment.metadata.namespace ?? '';
  const name = deployment.metadata.name ?? '';
  const held = new Set(
    replicaSets
      .filter((rs) => (rs.metadata.namespace ?? namespace) === namespace)
      .map((rs) => rs.metadata.name ?? ''),
  );
  const missing = new Map<string, string>();
  for (const pod of pods) {
    if ((pod.metadata.namespace ?? namespace) !== namespace) continue;
    const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller && o.kind === 'ReplicaSet');
    const hash = pod.metadata.labels?.[hashLabel];
    if (!owner || !hash || held.has(owner.name) || owner.name !== `${name}-${hash}`) continue;
    if (!missing.has(owner.name)) missing.set(owner.name, pod.metadata.name ?? '');
  }
  return [...missing].map(([rs, pod]) => ({
    about: 'replicaSets' as const,
    what: `ReplicaSet ${rs} (controller of pod ${pod})`,
    reason: 'not-in-dump' as const,
    settle: `kubectl get replicasets -n ${namespace} -o yaml`,
  }));
}

/**
 * The Deployment that owns a pod, without a request: a Deployment names its
 * ReplicaSets `<deployment>-<pod-template-hash>` and labels their pods with that hash.
 * Undefined for pods of bare ReplicaSets, StatefulSets, Jobs and bare pods. The pod is
 * taken as the watch delivers it: nothing about its shape is assumed.
 */
export function deploymentOfPod(pod: unknown, hashLabel = HASH_LABEL): string | undefined {
  const metadata = field(pod, 'metadata');
  const refs = field(metadata, 'ownerReferences');
  const owner = (Array.isArray(refs) ? refs : []).find(
    (o) => field(o, 'controller') === true && field(o, 'kind') === 'ReplicaSet',
  );
  const rs = field(owner, 'name');
  const hash = field(field(metadata, 'labels'), hashLabel);
  if (typeof rs !== 'string' || typeof hash !== 'string' || hash === '') return undefined;
  const suffix = `-${hash}`;
  return rs.endsWith(suffix) && rs.length > suffix.length ? rs.slice(0, -suffix.length) : undefined;
}

/** `value[key]` when value is a plain object, else undefined. */
function field(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}
