/**
 * A DaemonSet whose pods the API server refuses to create. The DaemonSet controller
 * creates pods itself (pkg/controller/daemon/daemon_controller.go, syncNodes, through
 * controller.RealPodControl), which records a Warning `FailedCreate` event "Error
 * creating: <error>" on the DaemonSet for each refused create; it has no condition
 * for it. An event counts while nodes still lack a current pod and nothing was
 * created after it (a later `SuccessfulCreate` means the refusal passed). The pods
 * it creates are always of the current revision.
 */
import { eventTime } from '../../base/pod-events.js';
import type { DaemonSet, KubeEvent } from '../../k8s.js';
import type { CreateFailure, Revisions } from '../../workload-kind.js';
import { desiredPods } from './strategy.js';

function eventsOf(events: readonly KubeEvent[], daemonSet: DaemonSet): KubeEvent[] {
  const { uid, name } = daemonSet.metadata;
  return events.filter(
    (e) =>
      e.involvedObject.kind === 'DaemonSet' &&
      (uid && e.involvedObject.uid ? e.involvedObject.uid === uid : e.involvedObject.name === name),
  );
}

export function createFailures(
  daemonSet: DaemonSet,
  events: readonly KubeEvent[],
  revisions: Revisions,
): CreateFailure[] {
  const desired = desiredPods(daemonSet);
  const updated = daemonSet.status?.updatedNumberScheduled ?? 0;
  const missing = Math.max(0, desired - updated);
  const sorted = eventsOf(events, daemonSet).sort((a, b) => eventTime(b).localeCompare(eventTime(a)));
  const lastFailed = sorted.find((e) => e.reason === 'FailedCreate' && e.message);
  const lastCreated = sorted.find((e) => e.reason === 'SuccessfulCreate');
  if (!lastFailed?.message || missing === 0) return [];
  if (lastCreated !== undefined && eventTime(lastCreated) > eventTime(lastFailed)) return [];
  const current = revisions.current;
  return [
    {
      revision: current?.name ?? daemonSet.metadata.name ?? '',
      label: current?.label ?? `DaemonSet ${daemonSet.metadata.name ?? ''}`,
      current: true,
      message: lastFailed.message,
      source: 'event',
      at: eventTime(lastFailed),
      ...(lastFailed.count !== undefined ? { count: lastFailed.count } : {}),
      missing,
    },
  ];
}
