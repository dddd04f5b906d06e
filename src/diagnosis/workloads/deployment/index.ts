/**
 * The Deployment kind (apps/v1): revisions are ReplicaSets, the strategy is
 * spec.strategy (RollingUpdate with maxSurge/maxUnavailable, or Recreate), the pods
 * of an old revision go as the Deployment controller scales its ReplicaSet down.
 */
import type { Deployment, ReplicaSet } from '../../k8s.js';
import type { DeploymentObjects, WorkloadObject, WorkloadObjects } from '../../snapshot.js';
import { surgesWithoutUnavailability } from '../../base/fenceposts.js';
import type { Revision, WorkloadKindModule } from '../../workload-kind.js';
import { nativeSignalsNote, pausedNote } from './kubectl-lines.js';
import {
  classifyReplicaSets,
  deploymentOfPod,
  HASH_LABEL,
  missingReplicaSets,
  ownReplicaSets,
  podsOfReplicaSet,
  REVISION,
} from './replica-sets.js';
import { rolloutUnderWay } from './rollout-progress.js';
import { rolloutProgress, stalledRollout, statusSummary } from './rollout-status.js';
import { desiredReplicas, resolveStrategy } from './strategy.js';
import { createFailures, keepsOldPods } from './create-failures.js';

/** The Deployment of an object the registry handed to this module. */
function deployment(object: WorkloadObject): Deployment {
  return object;
}

/** The Deployment fields of a snapshot the registry handed to this module. */
function objectsOf(snapshot: WorkloadObjects): DeploymentObjects {
  return snapshot;
}

export const deploymentKind: WorkloadKindModule = {
  kind: 'Deployment',
  revisionObjects: { kind: 'ReplicaSet', resource: 'replicasets' },
  revisionLabel: HASH_LABEL,
  selector: (object) => deployment(object).spec.selector,
  podTemplate: (object) => deployment(object).spec.template,
  own: (object, read, here) => ownReplicaSets(deployment(object), read, here),
  objects: (object, revisions) => ({ deployment: deployment(object), replicaSets: revisions }),
  object: (snapshot) => objectsOf(snapshot).deployment,
  nameFromPod: deploymentOfPod,
  missingRevisions: (object, pods, revisions) => missingReplicaSets(deployment(object), pods, revisions),
  countedPods: (object) => deployment(object).status?.replicas ?? 0,

  desiredReplicas: (object) => desiredReplicas(deployment(object)),
  paused: (object) => deployment(object).spec.paused === true,
  strategy: (object) => resolveStrategy(deployment(object)),
  replacement: (strategy) => (surgesWithoutUnavailability(strategy) ? 'surge-first' : 'old-first'),
  revisions(snapshot) {
    const { current, old } = classifyReplicaSets(objectsOf(snapshot));
    const revision = (rs: ReplicaSet): Revision => {
      const hash = rs.metadata.labels?.[HASH_LABEL] ?? '';
      const number = rs.metadata.annotations?.[REVISION];
      return {
        name: rs.metadata.name ?? '',
        hash,
        label: `ReplicaSet ${rs.metadata.name ?? hash}${number ? ` (revision ${number})` : ''}`,
        pods: podsOfReplicaSet(snapshot, rs),
        ...(rs.status?.replicas !== undefined ? { counted: rs.status.replicas } : {}),
      };
    };
    return { ...(current ? { current: revision(current) } : {}), old: old.map(revision) };
  },
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(deployment(object), sinceGeneration),
  underWay: (snapshot) => rolloutUnderWay(snapshot),
  statusSummary: (object) => statusSummary(deployment(object)),
  createFailures: (snapshot) => createFailures(snapshot),
  keepsOldPods: (snapshot) => keepsOldPods(objectsOf(snapshot)),
  stalled: (snapshot) => stalledRollout(objectsOf(snapshot)),
  misleadingSignals: (object, strategy, replicas) =>
    nativeSignalsNote(deployment(object), strategy, replicas),
  pausedNote: (object) => pausedNote(deployment(object)),
};
