/**
 * Shared views of a Deployment's workload: which ReplicaSet is current, which pods
 * belong to which ReplicaSet, and why a pod could not be scheduled.
 */
import type { Condition, KubeEvent, Pod, PodTemplateSpec, ReplicaSet } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot.js';

const REVISION = 'deployment.kubernetes.io/revision';
const HASH_LABEL = 'pod-template-hash';

export interface ClassifiedReplicaSets {
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
export function classifyReplicaSets(
  snapshot: Pick<WorkloadSnapshot, 'deployment' | 'replicaSets'>,
): ClassifiedReplicaSets {
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

/** EqualIgnoreHash with Kubernetes' semantic equality (nil and empty maps/lists are equal). */
export function templatesEqual(a: PodTemplateSpec, b: PodTemplateSpec): boolean {
  return semanticEqual(withoutHash(a), withoutHash(b));
}

function withoutHash(template: PodTemplateSpec): PodTemplateSpec {
  const labels = { ...template.metadata?.labels };
  delete labels[HASH_LABEL];
  return { ...template, metadata: { ...template.metadata, labels } };
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isEmpty(a) && isEmpty(b)) return true;
  if (typeof a === 'number' || typeof b === 'number') return String(a) === String(b);
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => semanticEqual(item, b[i]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = new Set([...Object.keys(left), ...Object.keys(right)]);
  for (const key of keys) if (!semanticEqual(left[key], right[key])) return false;
  return true;
}

/** Pods controlled by the ReplicaSet (owner uid; by name and hash label when uids are missing). */
export function podsOfReplicaSet(snapshot: Pick<WorkloadSnapshot, 'pods'>, rs: ReplicaSet): Pod[] {
  const uid = rs.metadata.uid;
  const hash = rs.metadata.labels?.[HASH_LABEL];
  return snapshot.pods.filter((pod) => {
    const owner = pod.metadata.ownerReferences?.find((ref) => ref.controller && ref.kind === 'ReplicaSet');
    if (owner && uid && owner.uid) return owner.uid === uid;
    if (owner) return owner.name === rs.metadata.name;
    return hash !== undefined && pod.metadata.labels?.[HASH_LABEL] === hash;
  });
}

/** A pod that is gone or going: terminal phase or deletion requested. */
export function isTerminating(pod: Pod): boolean {
  return pod.metadata.deletionTimestamp !== undefined;
}

/** How long past its deletion deadline a terminating pod may take before it counts as stuck. */
const STUCK_AFTER_MS = 60_000;

/**
 * A terminating pod still there well after its deadline (`deletionTimestamp` is the
 * deletion request plus the grace period): a finalizer nobody removes, or a kubelet
 * that cannot confirm. It will not go away by itself, so what it holds is not about
 * to be freed.
 */
export function isStuckTerminating(pod: Pod, now: string): boolean {
  const deadline = Date.parse(pod.metadata.deletionTimestamp ?? '');
  const at = Date.parse(now);
  return Number.isFinite(deadline) && Number.isFinite(at) && at - deadline > STUCK_AFTER_MS;
}

/** Succeeded/Failed pods hold nothing; the scheduler drops them from its cache. */
export function isTerminal(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Bound to a node and still holding what it asked for. */
export function holdsResources(pod: Pod): boolean {
  return Boolean(pod.spec.nodeName) && !isTerminal(pod);
}

/** Pending and not bound to any node. */
export function isUnscheduled(pod: Pod): boolean {
  return !pod.spec.nodeName && !isTerminal(pod) && !isTerminating(pod);
}

/** The pod's Ready condition is True. */
export function isReady(pod: Pod): boolean {
  return pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
}

export interface SchedulingFailure {
  message: string;
  source: 'condition' | 'event';
  /** When it was last seen (event lastTimestamp/eventTime, condition lastTransitionTime). */
  at?: string;
  /** How many times the event was reported. */
  count?: number;
}

/**
 * Why the scheduler refused the pod, most current first: the PodScheduled=False
 * condition (the scheduler rewrites its message on every attempt), then the pod's
 * FailedScheduling events newest first. Empty when the pod was never refused.
 */
export function schedulingFailures(snapshot: WorkloadSnapshot, pod: Pod): SchedulingFailure[] {
  const failures: SchedulingFailure[] = [];
  const condition = pod.status?.conditions?.find(isUnschedulableCondition);
  if (condition?.message) {
    failures.push({
      message: condition.message,
      source: 'condition',
      ...(condition.lastTransitionTime ? { at: condition.lastTransitionTime } : {}),
    });
  }
  const events = eventsOfPod(snapshot.events, pod)
    .filter((event) => event.reason === 'FailedScheduling' && event.message)
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
  for (const event of events) {
    const at = eventTime(event);
    failures.push({
      message: event.message ?? '',
      source: 'event',
      ...(at ? { at } : {}),
      ...(event.count !== undefined ? { count: event.count } : {}),
    });
  }
  return failures;
}

/** The most current scheduling failure message of the pod, if any. */
export function latestSchedulingFailure(snapshot: WorkloadSnapshot, pod: Pod): SchedulingFailure | undefined {
  return schedulingFailures(snapshot, pod)[0];
}

function isUnschedulableCondition(condition: Condition): boolean {
  return condition.type === 'PodScheduled' && condition.status === 'False';
}

/** Events about the pod (by uid when both have one, else by name and namespace). */
export function eventsOfPod(events: readonly KubeEvent[], pod: Pod): KubeEvent[] {
  const { uid, name, namespace } = pod.metadata;
  return events.filter((event) => {
    const involved = event.involvedObject;
    if (involved.kind && involved.kind !== 'Pod') return false;
    if (uid && involved.uid) return involved.uid === uid;
    return involved.name === name && (!involved.namespace || !namespace || involved.namespace === namespace);
  });
}

/** When the event was last seen (a series' last occurrence, not its first). */
export function eventTime(event: KubeEvent): string {
  return (
    event.lastTimestamp ??
    seriesLast(event) ??
    event.eventTime ??
    event.firstTimestamp ??
    event.metadata.creationTimestamp ??
    ''
  );
}

/** A series' last occurrence, when the dump holds it as text. */
function seriesLast(event: KubeEvent): string | undefined {
  const last: unknown = event.series?.lastObservedTime;
  return typeof last === 'string' && last !== '' ? last : undefined;
}
