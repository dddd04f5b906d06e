/**
 * Other Deployments, and other Argo Rollouts, seen through their pods: each live neighbour
 * pod read (on a node the template may use, in the namespace, or waiting for a node) under
 * its owner and ReplicaSet. One with pods of two or more ReplicaSets is mid-rollout; whether
 * it is paused, and its replicas (or, for a Rollout, whether its steps go on by themselves),
 * only its object says (forward/job-wait.ts reads them from `neighbourDeployments` and
 * `neighbourRollouts`: a dump's objects, or the collector's GETs; kept as
 * workloads/deployment/neighbours.ts and workloads/rollout/neighbours.ts say).
 */
import type { Pod } from '../k8s.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { isTerminal, isTerminating } from './pods.js';

export type NeighbourDeployment = NonNullable<WorkloadSnapshot['neighbourDeployments']>[number];
export type NeighbourRollout = NonNullable<WorkloadSnapshot['neighbourRollouts']>[number];

/** Whose ReplicaSets: a Deployment's pods carry `pod-template-hash`, an Argo Rollout's `rollouts-pod-template-hash`. */
type NeighbourKind = 'Deployment' | 'Rollout';

const HASH_LABELS: Record<NeighbourKind, string> = {
  Deployment: 'pod-template-hash',
  Rollout: 'rollouts-pod-template-hash',
};

/**
 * "namespace/name" of the Deployment (or Argo Rollout) whose ReplicaSet
 * (`<owner>-<hash label>`) controls the pod.
 */
function ownerOf(pod: Pod, kind: NeighbourKind): { deployment: string; replicaSet: string } | undefined {
  const owner = (pod.metadata.ownerReferences ?? []).find((o) => o.controller);
  const hash = pod.metadata.labels?.[HASH_LABELS[kind]];
  if (owner?.kind !== 'ReplicaSet' || !(owner.apiVersion ?? '').startsWith('apps/') || !hash)
    return undefined;
  if (!owner.name.endsWith(`-${hash}`)) return undefined;
  return {
    deployment: `${pod.metadata.namespace ?? ''}/${owner.name.slice(0, -hash.length - 1)}`,
    replicaSet: owner.name,
  };
}

/** Every live neighbour pod read, each once, by Deployment (or Rollout) and then ReplicaSet. */
export function neighbourReplicaSets(
  snapshot: Pick<WorkloadSnapshot, 'otherPods' | 'namespacePods' | 'pendingPods'>,
  kind: NeighbourKind = 'Deployment',
): Map<string, Map<string, Pod[]>> {
  const byDeployment = new Map<string, Map<string, Pod[]>>();
  const seen = new Set<string>();
  for (const pod of [
    ...snapshot.otherPods,
    ...(snapshot.namespacePods ?? []),
    ...(snapshot.pendingPods ?? []),
  ]) {
    const owner = ownerOf(pod, kind);
    // The same pod may be read twice (on a node the template may use, and in the namespace).
    const key = pod.metadata.uid ?? `${pod.metadata.namespace ?? ''}/${pod.metadata.name ?? ''}`;
    if (!owner || seen.has(key) || isTerminal(pod) || isTerminating(pod)) continue;
    seen.add(key);
    const sets = byDeployment.get(owner.deployment) ?? new Map<string, Pod[]>();
    sets.set(owner.replicaSet, [...(sets.get(owner.replicaSet) ?? []), pod]);
    byDeployment.set(owner.deployment, sets);
  }
  return byDeployment;
}

/**
 * Every neighbour Deployment whose pods were read, those mid-rollout first (a Deployment
 * with pods of one ReplicaSet may be scaling down: forward/scale-down-wait.ts).
 */
export function neighbourDeploymentsRead(
  snapshot: Pick<WorkloadSnapshot, 'otherPods' | 'namespacePods' | 'pendingPods'>,
): string[] {
  const byDeployment = [...neighbourReplicaSets(snapshot)];
  const mid = (sets: ReadonlyMap<string, Pod[]>): boolean => sets.size >= 2;
  return [...byDeployment.filter(([, s]) => mid(s)), ...byDeployment.filter(([, s]) => !mid(s))].map(
    ([name]) => name,
  );
}

/** The neighbour Deployments (or Rollouts) whose pods run under two or more ReplicaSets: mid-rollout. */
export function neighboursMidRollout(
  snapshot: Pick<WorkloadSnapshot, 'otherPods' | 'namespacePods' | 'pendingPods'>,
  kind: NeighbourKind = 'Deployment',
): string[] {
  return [...neighbourReplicaSets(snapshot, kind)].filter(([, sets]) => sets.size >= 2).map(([name]) => name);
}
