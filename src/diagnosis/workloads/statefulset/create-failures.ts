/**
 * A StatefulSet whose pods the API server refuses (owner-create-failures.ts). Its
 * controller words the event "create Pod <pod> in StatefulSet <set> failed error:
 * <error>": the error itself is kept.
 */
import type { KubeEvent } from '../../k8s.js';
import type { StatefulSet } from '../../k8s-workloads.js';
import type { CreateFailure, Revisions } from '../../workload-kind.js';
import { ownerCreateFailures } from '../owner-create-failures.js';
import { desiredReplicas } from './statefulset-strategy.js';

export function createFailures(
  sts: StatefulSet,
  events: readonly KubeEvent[],
  revisions: Revisions,
  livePods: number,
): CreateFailure[] {
  return ownerCreateFailures(
    'StatefulSet',
    sts.metadata,
    events,
    revisions,
    desiredReplicas(sts) - livePods,
    (message) => /failed error: (.*)$/s.exec(message)?.[1] ?? message,
  );
}
