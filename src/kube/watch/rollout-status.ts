/**
 * Rollout state of a Deployment, decided the way `kubectl rollout status` decides it,
 * plus a crash-loop check on the new ReplicaSet's pods. Pure.
 */
import type { Deployment, Pod, ReplicaSet } from '../../diagnosis/k8s.js';
import { revisionOf } from '../owner-references.js';

export interface RolloutProgress {
  generation: number;
  observedGeneration: number;
  replicas: number;
  updated: number;
  ready: number;
  available: number;
  /** One line, as kubectl prints it: "Waiting for deployment "x" rollout to finish: 1 of 3 updated replicas are available..." */
  message: string;
}

export type RolloutVerdict =
  | { state: 'progressing'; progress: RolloutProgress }
  | { state: 'complete'; progress: RolloutProgress }
  | { state: 'failed'; progress: RolloutProgress; reason: string };

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
