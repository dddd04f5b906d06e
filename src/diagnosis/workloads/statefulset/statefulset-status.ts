/**
 * Where a StatefulSet's rollout stands: `kubectl rollout status` (kubectl
 * polymorphichelpers/rollout_status.go, StatefulSetStatusViewer: with a partition set,
 * which API defaulting always does, it reports the partitioned roll out; the lines are
 * checked against the real kubectl in test/integration/kubectl.test.ts), the status in
 * a line, and whether an update is under way. No progress deadline: never "stalled".
 */
import type { StatefulSet } from '../../k8s-workloads.js';
import type { RolloutVerdict } from '../../workload-kind.js';
import { desiredReplicas, partitionOf } from './statefulset-strategy.js';

export function rolloutProgress(statefulSet: StatefulSet, sinceGeneration = 0): RolloutVerdict {
  const generation = statefulSet.metadata.generation ?? 0;
  const status = statefulSet.status ?? {};
  const observed = status.observedGeneration ?? 0;
  const replicas = desiredReplicas(statefulSet);
  const ready = status.readyReplicas ?? 0;
  const updated = status.updatedReplicas ?? 0;
  const base = {
    generation,
    observedGeneration: observed,
    replicas,
    updated,
    ready,
    available: status.availableReplicas ?? 0,
    statusRead: statefulSet.status !== undefined,
  };
  const waiting = (message: string): RolloutVerdict => ({
    state: 'progressing',
    progress: { ...base, message },
  });
  if (observed === 0 || observed < generation || observed < sinceGeneration) {
    return waiting('Waiting for statefulset spec update to be observed...');
  }
  if (ready < replicas) return waiting(`Waiting for ${replicas - ready} pods to be ready...`);
  const rolling = statefulSet.spec.updateStrategy?.rollingUpdate;
  if (
    (statefulSet.spec.updateStrategy?.type ?? 'RollingUpdate') === 'RollingUpdate' &&
    rolling?.partition !== undefined
  ) {
    const want = replicas - partitionOf(statefulSet);
    if (updated < want) {
      return waiting(
        `Waiting for partitioned roll out to finish: ${updated} out of ${want} new pods have been updated...`,
      );
    }
    return {
      state: 'complete',
      progress: {
        ...base,
        message: `partitioned roll out complete: ${updated} new pods have been updated...`,
      },
    };
  }
  if (status.updateRevision !== status.currentRevision) {
    return waiting(
      `waiting for statefulset rolling update to complete ${updated} pods at revision ${status.updateRevision ?? ''}...`,
    );
  }
  return {
    state: 'complete',
    progress: {
      ...base,
      message: `statefulset rolling update complete ${status.currentReplicas ?? 0} pods at revision ${status.currentRevision ?? ''}...`,
    },
  };
}

export function statusSummary(statefulSet: StatefulSet): { text: string; complete: boolean } {
  const status = statefulSet.status ?? {};
  const replicas = desiredReplicas(statefulSet);
  const ready = status.readyReplicas ?? 0;
  const updated = status.updatedReplicas ?? 0;
  const partition = partitionOf(statefulSet);
  const observed = (status.observedGeneration ?? 0) >= (statefulSet.metadata.generation ?? 0);
  const complete = observed && ready >= replicas && updated >= replicas - partition;
  const parts = [`${ready} of ${replicas} pods ready`, `${updated} at the update revision`];
  if (partition > 0) parts.push(`partition ${partition} (pods below ordinal ${partition} stay on purpose)`);
  if (!observed) parts.push('its latest spec not yet observed');
  return { text: `${parts.join(', ')}${complete ? '' : ' (the rollout is not complete)'}`, complete };
}
