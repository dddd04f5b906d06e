/**
 * What kubectl itself prints for a Deployment, reproduced from its source
 * (kubectl polymorphichelpers/rollout_status.go and describe.go), so a finding can
 * quote the misleading line the on-call engineer is staring at and explain it.
 */
import { codeSpan } from '../../../text/code-span.js';
import type { Deployment } from '../../k8s-workloads.js';
import type { ResolvedStrategy } from '../../resolved-strategy.js';

/**
 * The line `kubectl rollout status deployment/NAME` prints for this status.
 *
 * @example kubectlRolloutStatusLine(stuckTracker) // 'Waiting for deployment "tracker" rollout to finish: 1 old replicas are pending termination...'
 */
function kubectlRolloutStatusLine(deployment: Deployment): string {
  const name = deployment.metadata.name ?? '';
  const status = deployment.status ?? {};
  if ((deployment.metadata.generation ?? 0) > (status.observedGeneration ?? 0)) {
    return 'Waiting for deployment spec update to be observed...';
  }
  const progressing = status.conditions?.find((c) => c.type === 'Progressing');
  if (progressing?.reason === 'ProgressDeadlineExceeded') {
    return `error: deployment "${name}" exceeded its progress deadline`;
  }
  const replicas = deployment.spec.replicas;
  const updated = status.updatedReplicas ?? 0;
  if (replicas !== undefined && updated < replicas) {
    return `Waiting for deployment "${name}" rollout to finish: ${updated} out of ${replicas} new replicas have been updated...`;
  }
  if ((status.replicas ?? 0) > updated) {
    return `Waiting for deployment "${name}" rollout to finish: ${(status.replicas ?? 0) - updated} old replicas are pending termination...`;
  }
  if ((status.availableReplicas ?? 0) < updated) {
    return `Waiting for deployment "${name}" rollout to finish: ${status.availableReplicas ?? 0} of ${updated} updated replicas are available...`;
  }
  return `deployment "${name}" successfully rolled out`;
}

/**
 * The `RollingUpdateStrategy:` value of `kubectl describe deployment`, unresolved
 * as kubectl prints it; undefined when there is no rollingUpdate block.
 *
 * @example kubectlDescribeStrategyLine(tracker) // '25% max unavailable, 25% max surge'
 */
function kubectlDescribeStrategyLine(deployment: Deployment): string | undefined {
  const rolling = deployment.spec.strategy?.rollingUpdate;
  if (!rolling) return undefined;
  return `${String(rolling.maxUnavailable ?? '<nil>')} max unavailable, ${String(rolling.maxSurge ?? '<nil>')} max surge`;
}

/**
 * What `kubectl rollout status` does with `status`: it waits while the controller reports
 * progress, and stops with an error once the Progressing condition says
 * ProgressDeadlineExceeded (spec.progressDeadlineSeconds without progress, 600 by
 * default; polymorphichelpers/rollout_status.go). A paused Deployment has no deadline.
 */
function rolloutStatusWait(deployment: Deployment, status: string): string {
  const name = deployment.metadata.name ?? '';
  if (status.startsWith('error: '))
    return `already stops with "${status}" (exit 1), and the rollout stays stuck`;
  if (deployment.spec.paused === true)
    return `prints "${status}" and waits with no deadline while the Deployment is paused`;
  const deadline = deployment.spec.progressDeadlineSeconds ?? 600;
  return `prints "${status}" and waits until the progress deadline passes (${deadline} s without progress), then stops with "error: deployment "${name}" exceeded its progress deadline"; the deadline only reports, the rollout stays stuck`;
}

/**
 * Why kubectl's own output misleads here: the rollout status line reads as if the
 * old pods were about to go, and describe prints the percentages unresolved.
 */
export function nativeSignalsNote(
  deployment: Deployment,
  strategy: ResolvedStrategy,
  replicas: number,
): string {
  const parts: string[] = [];
  const status = kubectlRolloutStatusLine(deployment);
  parts.push(
    `${codeSpan('kubectl rollout status')} ${rolloutStatusWait(deployment, status)}: nothing is pending termination, the controller keeps the old pods until the new ones are Ready.`,
  );
  const describe = kubectlDescribeStrategyLine(deployment);
  if (describe && strategy.maxSurge && strategy.maxUnavailable) {
    parts.push(
      `${codeSpan('kubectl describe deployment')} prints "${describe}" without resolving it: at ${replicas} replica${replicas === 1 ? '' : 's'} that means maxSurge ${strategy.maxSurge.value} (percentages round up) and maxUnavailable ${strategy.maxUnavailable.value} (percentages round down), so no old pod may go before a new one is Ready.`,
    );
  }
  return parts.join(' ');
}

/**
 * A paused Deployment (spec.paused) runs only sync() upstream: the controller scales
 * existing ReplicaSets but takes no rollout step and creates no ReplicaSet, so a
 * restart waits for the resume, while scaling a ReplicaSet acts, and so does a lower
 * maxSurge (scale() keeps the ReplicaSets to spec.replicas + maxSurge).
 */
export function pausedNote(deployment: { spec: { paused?: boolean } }): string {
  if (deployment.spec.paused !== true) return '';
  return 'The Deployment is also paused (spec.paused): the controller takes no rollout step until `kubectl rollout resume`, so the stuck pod stays Pending either way and the deadlock stands again at the resume. A restart written now takes effect only at the resume; scaling the old ReplicaSet to 0 acts now, and so does a lower maxSurge (the ReplicaSets may then hold fewer pods in all), since pausing stops rollouts, not scaling.';
}
