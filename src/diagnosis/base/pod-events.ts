/** What the events and conditions of a pod say, newest first: why it could not be scheduled. */
import type { Condition, KubeEvent, Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';

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
function schedulingFailures(snapshot: Pick<WorkloadSnapshot, 'events'>, pod: Pod): SchedulingFailure[] {
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
export function latestSchedulingFailure(
  snapshot: Pick<WorkloadSnapshot, 'events'>,
  pod: Pod,
): SchedulingFailure | undefined {
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
