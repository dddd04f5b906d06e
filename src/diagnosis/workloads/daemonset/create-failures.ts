/** A DaemonSet whose pods the API server refuses: nodes still lacking a current pod (owner-create-failures.ts). */
import type { DaemonSet } from '../../k8s-workloads.js';
import type { KubeEvent } from '../../k8s.js';
import type { CreateFailure, Revisions } from '../../workload-kind.js';
import { ownerCreateFailures } from '../owner-create-failures.js';
import { desiredPods } from './daemonset-strategy.js';

export function createFailures(
  daemonSet: DaemonSet,
  events: readonly KubeEvent[],
  revisions: Revisions,
): CreateFailure[] {
  const missing = desiredPods(daemonSet) - (daemonSet.status?.updatedNumberScheduled ?? 0);
  return ownerCreateFailures('DaemonSet', daemonSet.metadata, events, revisions, missing);
}
