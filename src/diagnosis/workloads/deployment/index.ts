/**
 * The Deployment kind (apps/v1): revisions are ReplicaSets, the strategy is
 * spec.strategy (RollingUpdate with maxSurge/maxUnavailable, or Recreate), the pods
 * of an old revision go as the Deployment controller scales its ReplicaSet down.
 */
import type { Deployment, ReplicaSet } from '../../k8s.js';
import {
  isDeploymentObjects,
  type DeploymentObjects,
  type WorkloadObject,
  type WorkloadObjects,
} from '../../snapshot/types.js';
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
import { rolloutProgress, stalledRollout, statusSummary } from './deployment-status.js';
import { desiredReplicas, resolveStrategy } from './deployment-strategy.js';
import { createFailures, keepsOldPods } from './create-failures.js';

/** The Deployment of an object the registry handed to this module (it hands a module only its own kind). */
function deployment(object: WorkloadObject): Deployment {
  return object as Deployment;
}

/** The Deployment fields of a snapshot the registry handed to this module. */
function objectsOf<T extends WorkloadObjects>(snapshot: T): T & DeploymentObjects {
  if (!isDeploymentObjects(snapshot)) throw new Error('not a Deployment snapshot');
  return snapshot;
}

export const deploymentKind: WorkloadKindModule = {
  kind: 'Deployment',
  revisionObjects: { kind: 'ReplicaSet', resource: 'replicasets' },
  revisionLabel: HASH_LABEL,
  selector: (object) => deployment(object).spec.selector,
  podTemplate: (object) => deployment(object).spec.template,
  own: (object, read, here) =>
    ownReplicaSets(deployment(object), { revisions: read.revisions as ReplicaSet[], pods: read.pods }, here),
  objects: (object, revisions) => ({
    deployment: deployment(object),
    replicaSets: revisions as ReplicaSet[],
  }),
  object: (snapshot) => objectsOf(snapshot).deployment,
  nameFromPod: deploymentOfPod,
  missingRevisions: (object, pods, revisions) =>
    missingReplicaSets(deployment(object), pods, revisions as ReplicaSet[]),
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
        ...(rs.spec?.replicas !== undefined ? { desired: rs.spec.replicas } : {}),
      };
    };
    return { ...(current ? { current: revision(current) } : {}), old: old.map(revision) };
  },
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(deployment(object), sinceGeneration),
  underWay: (snapshot) => rolloutUnderWay(objectsOf(snapshot)),
  statusSummary: (object) => statusSummary(deployment(object)),
  createFailures: (snapshot) => createFailures(objectsOf(snapshot)),
  keepsOldPods: (snapshot) => keepsOldPods(objectsOf(snapshot)),
  stalled: (snapshot) => stalledRollout(objectsOf(snapshot)),
  misleadingSignals: (object, strategy, replicas) =>
    nativeSignalsNote(deployment(object), strategy, replicas),
  pausedNote: (object) => pausedNote(deployment(object)),
  surgeWayOut: () =>
    'RollingUpdate with maxSurge 0 (or Recreate), then restart the rollout so the stuck Pending pod is replaced.',
};
