/**
 * The Deployment kind (apps/v1): revisions are ReplicaSets, the strategy is
 * spec.strategy (RollingUpdate with maxSurge/maxUnavailable, or Recreate), the pods
 * of an old revision go as the Deployment controller scales its ReplicaSet down.
 */
import { fromIdentity } from '../../workload-api.js';
import type { Deployment, ReplicaSet } from '../../k8s-workloads.js';
import { isDeploymentObjects, type DeploymentObjects, type WorkloadObjects } from '../../snapshot/types.js';
import { surgesWithoutUnavailability } from '../../base/fenceposts.js';
import { deploymentApi } from './api.js';
import { allRefusals, selectorRefusal, strategyRefusal } from '../api-validation.js';
import { resourcesRefusal } from '../resource-validation.js';
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

/** The Deployment fields of a snapshot the registry handed to this module. */
function objectsOf<T extends WorkloadObjects>(snapshot: T): T & DeploymentObjects {
  if (!isDeploymentObjects(snapshot)) throw new Error('not a Deployment snapshot');
  return snapshot;
}

export const deploymentKind: WorkloadKindModule<Deployment, ReplicaSet> = {
  ...fromIdentity(deploymentApi),
  words: { kind: deploymentApi.title, pods: 'replicas' },
  podOwner: 'replicasets',
  strategyAt: { field: 'strategy', patchPaths: ['/spec/strategy'] },
  surgeFix: 'replicas',
  recreate: true,
  progressDeadline: true,
  deletedPodsReturn: false,
  apiRefusal: (object, old) =>
    allRefusals([
      selectorRefusal(deploymentApi.title, object.spec, old?.spec, { required: true }),
      strategyRefusal(deploymentApi.title, object.spec.strategy),
      resourcesRefusal(object.spec.template),
    ]),
  pinnedToNodes: false,
  pauseHoldsTemplate: true,
  claimTemplates: () => [],
  firstOrdinal: () => 0,
  revisionLabel: HASH_LABEL,
  selector: (object) => object.spec.selector,
  podTemplate: (object) => object.spec.template,
  own: (object, read, here) => ownReplicaSets(object, { revisions: read.revisions, pods: read.pods }, here),
  object: (snapshot) => objectsOf(snapshot).deployment,
  nameFromPod: deploymentOfPod,
  missingRevisions: (object, pods, revisions) => missingReplicaSets(object, pods, revisions),
  countedPods: (object) => object.status?.replicas ?? 0,

  desiredReplicas: (object) => desiredReplicas(object),
  paused: (object) => object.spec.paused === true,
  strategy: (object) => resolveStrategy(object),
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
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(object, sinceGeneration),
  underWay: (snapshot) => rolloutUnderWay(objectsOf(snapshot)),
  statusSummary: (object) => statusSummary(object),
  createFailures: (snapshot) => createFailures(objectsOf(snapshot)),
  keepsOldPods: (snapshot, startingNew) => keepsOldPods(objectsOf(snapshot), startingNew),
  leavingPods: () => [],
  stalled: (snapshot) => stalledRollout(objectsOf(snapshot)),
  misleadingSignals: (object, strategy, replicas) => nativeSignalsNote(object, strategy, replicas),
  pausedNote: (object) => pausedNote(object),
  remadeBy: () => 'replicaSet',
  surgeWayOut: () =>
    'RollingUpdate with maxSurge 0 (or Recreate), then restart the rollout so the stuck Pending pod is replaced.',
};
