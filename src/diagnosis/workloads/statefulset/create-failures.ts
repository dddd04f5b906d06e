/**
 * A StatefulSet whose pods the API server refuses. The StatefulSet controller creates
 * pods itself (stateful_pod_control.go, CreateStatefulPod) and records a Warning
 * `FailedCreate` event on the StatefulSet, "create Pod <pod> in StatefulSet <set>
 * failed error: <error>", for each refusal; it has no condition for it. An event counts
 * while pods are missing and nothing was created after it.
 */
import { eventTime } from '../../base/pod-events.js';
import type { KubeEvent, StatefulSet } from '../../k8s.js';
import type { CreateFailure, Revisions } from '../../workload-kind.js';
import { desiredReplicas } from './strategy.js';

export function createFailures(
  sts: StatefulSet,
  events: readonly KubeEvent[],
  revisions: Revisions,
  livePods: number,
): CreateFailure[] {
  const { uid, name } = sts.metadata;
  const mine = events
    .filter(
      (e) =>
        e.involvedObject.kind === 'StatefulSet' &&
        (uid && e.involvedObject.uid ? e.involvedObject.uid === uid : e.involvedObject.name === name),
    )
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
  const lastFailed = mine.find((e) => e.reason === 'FailedCreate' && e.message);
  const lastCreated = mine.find((e) => e.reason === 'SuccessfulCreate');
  const missing = Math.max(0, desiredReplicas(sts) - livePods);
  if (!lastFailed?.message || missing === 0) return [];
  if (lastCreated !== undefined && eventTime(lastCreated) > eventTime(lastFailed)) return [];
  // The controller's wording wraps the API server's: keep the error itself.
  const message = /failed error: (.*)$/s.exec(lastFailed.message)?.[1] ?? lastFailed.message;
  const current = revisions.current;
  return [
    {
      revision: current?.name ?? name ?? '',
      label: current?.label ?? `StatefulSet ${name ?? ''}`,
      current: true,
      message,
      source: 'event',
      at: eventTime(lastFailed),
      ...(lastFailed.count !== undefined ? { count: lastFailed.count } : {}),
      missing,
    },
  ];
}
