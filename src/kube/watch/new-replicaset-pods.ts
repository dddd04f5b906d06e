/**
 * Rollout state of a Deployment, decided the way `kubectl rollout status` decides it
 * (the Deployment kind's own answer, src/diagnosis/workloads/deployment/), plus a
 * crash-loop check on the new ReplicaSet's pods. Pure.
 */
import type { Deployment, ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import type { Pod } from '../../diagnosis/k8s.js';
import { revisionOf } from '../owner-references.js';

export { rolloutProgress } from '../../diagnosis/workloads/deployment/deployment-status.js';
export type { RolloutProgress, RolloutVerdict } from '../../diagnosis/workload-kind.js';

/** The ReplicaSet of the Deployment's current revision. */
export function newReplicaSet(
  deployment: Deployment,
  replicaSets: readonly ReplicaSet[],
): ReplicaSet | undefined {
  const revision = revisionOf(deployment);
  const owned = replicaSets.filter((rs) =>
    (rs.metadata.ownerReferences ?? []).some((o) => o.controller && o.uid === deployment.metadata.uid),
  );
  if (revision > 0) return owned.find((rs) => revisionOf(rs) === revision);
  return [...owned].sort((a, b) => revisionOf(b) - revisionOf(a))[0];
}

/** "pod x on node-b: CrashLoopBackOff, last exit 1 (Error)" for the first crash-looping pod, if any. */
export function crashLoopIn(pods: readonly Pod[]): string | undefined {
  for (const pod of pods) {
    for (const status of pod.status?.containerStatuses ?? []) {
      const waiting = status.state?.waiting?.reason;
      const last = status.lastState?.terminated;
      if (waiting === 'CrashLoopBackOff' || (status.restartCount >= 2 && last && last.exitCode !== 0)) {
        const exit = last ? `, last exit ${last.exitCode}${last.reason ? ` (${last.reason})` : ''}` : '';
        return `pod ${pod.metadata.name ?? ''} on ${pod.spec.nodeName ?? 'no node'}: container ${status.name} ${waiting ?? 'restarting'}${exit}, ${status.restartCount} restarts`;
      }
    }
  }
  return undefined;
}
