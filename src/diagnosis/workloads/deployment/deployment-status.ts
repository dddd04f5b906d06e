/**
 * Where a Deployment's rollout stands, in the controller's and kubectl's own terms:
 * `kubectl rollout status` (kubectl polymorphichelpers/rollout_status.go,
 * DeploymentStatusViewer), the status counts in a line, and the controller's
 * ProgressDeadlineExceeded. Pure.
 */
import type { Condition } from '../../k8s.js';
import type { Deployment, ReplicaSet } from '../../k8s-workloads.js';
import type { DeploymentObjects } from '../../snapshot/types.js';
import type { RolloutVerdict, StalledRollout } from '../../workload-kind.js';
import { classifyReplicaSets } from './replica-sets.js';

export function rolloutProgress(deployment: Deployment, sinceGeneration = 0): RolloutVerdict {
  const name = deployment.metadata.name ?? '';
  const generation = deployment.metadata.generation ?? 0;
  const status = deployment.status ?? {};
  const observed = status.observedGeneration ?? 0;
  const replicas = deployment.spec.replicas ?? 1;
  const updated = status.updatedReplicas ?? 0;
  const total = status.replicas ?? 0;
  const available = status.availableReplicas ?? 0;
  const base = {
    generation,
    observedGeneration: observed,
    replicas,
    updated,
    ready: status.readyReplicas ?? 0,
    available,
    statusRead: deployment.status !== undefined,
  };
  const waiting = (text: string): RolloutVerdict => ({
    state: 'progressing',
    progress: { ...base, message: `Waiting for deployment "${name}" rollout to finish: ${text}` },
  });
  if (observed < generation || observed < sinceGeneration) {
    return {
      state: 'progressing',
      progress: { ...base, message: 'Waiting for deployment spec update to be observed...' },
    };
  }
  const progressing = (status.conditions ?? []).find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return {
      state: 'failed',
      progress: { ...base, message: `deployment "${name}" exceeded its progress deadline` },
      reason: progressing.message ?? 'ProgressDeadlineExceeded',
    };
  }
  if (updated < replicas) return waiting(`${updated} out of ${replicas} new replicas have been updated...`);
  if (total > updated) return waiting(`${total - updated} old replicas are pending termination...`);
  if (available < updated) return waiting(`${available} of ${updated} updated replicas are available...`);
  return {
    state: 'complete',
    progress: { ...base, message: `deployment "${name}" successfully rolled out` },
  };
}

/** The Deployment's status counts in a line, and whether they say the rollout is done. */
export function statusSummary(deployment: Deployment): { text: string; complete: boolean } {
  const replicas = deployment.spec.replicas ?? 1;
  const status = deployment.status ?? {};
  const updated = status.updatedReplicas ?? 0;
  const available = status.availableReplicas ?? 0;
  const total = status.replicas ?? 0;
  const unavailable = status.unavailableReplicas ?? 0;
  const observed = (status.observedGeneration ?? 0) >= (deployment.metadata.generation ?? 0);
  const complete =
    observed && updated === replicas && available === replicas && total === replicas && unavailable === 0;
  const parts = [`${updated} of ${replicas} replicas updated`, `${available} available`];
  if (unavailable > 0) parts.push(`${unavailable} unavailable`);
  if (total !== replicas) parts.push(`${total} pods in all`);
  if (!observed) parts.push('its latest spec not yet observed');
  return { text: `${parts.join(', ')}${complete ? '' : ' (the rollout is not complete)'}`, complete };
}

/**
 * ProgressDeadlineExceeded: the Deployment controller gave up waiting for the rollout
 * (condition Progressing=False, reason ProgressDeadlineExceeded, after
 * spec.progressDeadlineSeconds, 600 by default). It only reports: nothing is rolled
 * back or stopped.
 */
export function stalledRollout(snapshot: DeploymentObjects): StalledRollout | undefined {
  const { deployment } = snapshot;
  return replicaSetsStall(
    deployment.status?.conditions,
    snapshot.replicaSets,
    () => classifyReplicaSets(snapshot).current,
    deployment.spec.replicas ?? 1,
    deployment.spec.progressDeadlineSeconds ?? 600,
  );
}

/**
 * The stall a controller of ReplicaSets records (a Deployment's, an Argo Rollout's: both
 * write `ReplicaSet "web-5d8f7c9b4" has timed out progressing.`), with the ReplicaSet it
 * names, or the current one.
 */
export function replicaSetsStall(
  conditions: readonly Condition[] | undefined,
  replicaSets: readonly ReplicaSet[],
  current: () => ReplicaSet | undefined,
  desired: number,
  deadlineSeconds: number,
): StalledRollout | undefined {
  const condition = conditions?.find(
    (c) => c.type === 'Progressing' && c.status === 'False' && c.reason === 'ProgressDeadlineExceeded',
  );
  if (!condition) return undefined;
  const named = /ReplicaSet "([^"]+)"/.exec(condition.message ?? '')?.[1];
  const rs = replicaSets.find((r) => r.metadata.name === named) ?? current();
  return {
    condition: {
      type: condition.type,
      status: condition.status,
      reason: condition.reason ?? 'ProgressDeadlineExceeded',
      ...(condition.message ? { message: condition.message } : {}),
    },
    revision: named ?? rs?.metadata.name ?? 'the new ReplicaSet',
    ready: rs?.status?.readyReplicas ?? 0,
    desired,
    deadlineSeconds,
  };
}
