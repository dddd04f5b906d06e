/**
 * A DaemonSet's pod as its controller makes it: with the tolerations it adds to every one.
 * Pure.
 */
import type { Pod, Toleration } from '../k8s.js';
import { withToleration } from '../base/node-match.js';

/**
 * Tolerations the DaemonSet controller adds to its pods (daemon/util AddOrUpdateDaemonPodTolerations),
 * network-unavailable only to a pod on the host's network. The simulator keeps its own
 * copy on purpose (sim/controllers/daemonset-nodes.ts): it stands in for the cluster, and
 * a shared list would share a mistake with the engine it tests.
 */
const DAEMON_TOLERATIONS: readonly Toleration[] = [
  { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/unreachable', operator: 'Exists', effect: 'NoExecute' },
  { key: 'node.kubernetes.io/disk-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/memory-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/pid-pressure', operator: 'Exists', effect: 'NoSchedule' },
  { key: 'node.kubernetes.io/unschedulable', operator: 'Exists', effect: 'NoSchedule' },
];
const NETWORK_UNAVAILABLE: Toleration = {
  key: 'node.kubernetes.io/network-unavailable',
  operator: 'Exists',
  effect: 'NoSchedule',
};

export function withDaemonTolerations(pod: Pod): Pod {
  const added = pod.spec.hostNetwork ? [...DAEMON_TOLERATIONS, NETWORK_UNAVAILABLE] : DAEMON_TOLERATIONS;
  const tolerations = added.reduce(withToleration, pod.spec.tolerations ?? []);
  return { ...pod, spec: { ...pod.spec, tolerations } };
}
