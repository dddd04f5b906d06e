/**
 * Pods refused by the API server, for a kind whose controller creates its pods itself
 * (DaemonSet: daemon_controller.go syncNodes; StatefulSet: stateful_pod_control.go
 * CreateStatefulPod). Both record a Warning `FailedCreate` event on the workload for
 * each refusal and have no condition for it. The latest one counts while pods are
 * missing and nothing was created after it (a later `SuccessfulCreate` means the
 * refusal passed). The pods they create are of the current revision.
 */
import { eventTime } from '../base/pod-events.js';
import type { KubeEvent, ObjectMeta } from '../k8s.js';
import type { CreateFailure, Revisions } from '../workload-kind.js';

export function ownerCreateFailures(
  kind: 'DaemonSet' | 'StatefulSet',
  meta: ObjectMeta,
  events: readonly KubeEvent[],
  revisions: Revisions,
  missing: number,
  /** The API server's error out of the controller's event text (the StatefulSet controller wraps it). */
  errorOf: (message: string) => string = (message) => message,
): CreateFailure[] {
  const { uid, name } = meta;
  const mine = events
    .filter(
      (e) =>
        e.involvedObject.kind === kind &&
        (uid && e.involvedObject.uid ? e.involvedObject.uid === uid : e.involvedObject.name === name),
    )
    .sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
  const lastFailed = mine.find((e) => e.reason === 'FailedCreate' && e.message);
  const lastCreated = mine.find((e) => e.reason === 'SuccessfulCreate');
  if (!lastFailed?.message || missing <= 0) return [];
  if (lastCreated !== undefined && eventTime(lastCreated) > eventTime(lastFailed)) return [];
  const current = revisions.current;
  return [
    {
      revision: current?.name ?? name ?? '',
      label: current?.label ?? `${kind} ${name ?? ''}`,
      current: true,
      message: errorOf(lastFailed.message),
      source: 'event',
      at: eventTime(lastFailed),
      ...(lastFailed.count !== undefined ? { count: lastFailed.count } : {}),
      missing,
    },
  ];
}
