/**
 * Is a rollout (or a scale) of the Deployment still under way? The next-rollout
 * prediction (RolloutAtRisk) reasons about the steady state: `spec.replicas` pods of
 * the current template and nothing else. While the controller is still creating new
 * pods or removing old ones, the pods on the nodes are not that state (a surge pod
 * bound and pulling its image holds a GPU that the old pod will soon give back), so
 * the prediction stays silent and says nothing it would have to take back.
 *
 * Any one of these means "not settled":
 * - the controller has not seen the latest spec (`status.observedGeneration` behind
 *   `metadata.generation`), or no ReplicaSet carries the current template yet;
 * - an old ReplicaSet still wants or has pods (spec or status replicas above 0), or a
 *   live pod of an old template remains;
 * - the current ReplicaSet wants another number of pods than the Deployment, or the
 *   Deployment reports other totals than `spec.replicas` (surge pods, a scale);
 * - a pod of ours is terminating (the controller is about to lose it).
 */
import { desiredReplicas } from './deployment-strategy.js';
import type { DeploymentSnapshot } from '../../snapshot/types.js';
import { classifyReplicaSets, podsOfReplicaSet } from './replica-sets.js';
import { isTerminal, isTerminating } from '../../base/pods.js';

/** Why the Deployment is not in its steady state, or undefined when it is. */
export function rolloutUnderWay(snapshot: DeploymentSnapshot): string | undefined {
  const { deployment } = snapshot;
  const replicas = desiredReplicas(deployment);
  const generation = deployment.metadata.generation;
  const observed = deployment.status?.observedGeneration;
  if (generation !== undefined && observed !== undefined && observed < generation) {
    return `the controller has not yet acted on generation ${generation} (observed ${observed})`;
  }
  const { current, old } = classifyReplicaSets(snapshot);
  if (!current) return 'no ReplicaSet carries the current template yet';
  for (const rs of old) {
    const live = podsOfReplicaSet(snapshot, rs).filter((p) => !isTerminal(p));
    if ((rs.spec.replicas ?? 0) > 0 || (rs.status?.replicas ?? 0) > 0 || live.length > 0) {
      return `old ReplicaSet ${rs.metadata.name ?? ''} still has pods`;
    }
  }
  if ((current.spec.replicas ?? replicas) !== replicas) {
    return `the current ReplicaSet is being scaled to ${current.spec.replicas ?? 0} of ${replicas}`;
  }
  const status = deployment.status;
  if (status?.replicas !== undefined && status.replicas !== replicas) {
    return `${status.replicas} pods exist for ${replicas} desired`;
  }
  if (status?.updatedReplicas !== undefined && status.updatedReplicas < replicas) {
    return `${status.updatedReplicas} of ${replicas} pods are updated`;
  }
  const terminating = snapshot.pods.find(isTerminating);
  if (terminating) return `pod ${terminating.metadata.name ?? ''} is terminating`;
  return undefined;
}
