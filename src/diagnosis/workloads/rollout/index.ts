/**
 * The Argo Rollout kind (argoproj.io/v1alpha1 Rollout): revisions are ReplicaSets it
 * controls (label rollouts-pod-template-hash), the strategy a canary or blue-green
 * (rollout-strategy.ts), its state the phase its controller writes (rollout-phase.ts). A
 * canary or preview pod that waits for what the stable pods hold waits forever when
 * the controller keeps every stable pod until a new one is available: the surge
 * deadlock of DESIGN.md §1 A.
 */
import { fromIdentity } from '../../workload-api.js';
import type { ArgoRollout } from '../../k8s-argo.js';
import type { ReplicaSet } from '../../k8s-workloads.js';
import { isRolloutObjects, type RolloutObjects, type WorkloadObjects } from '../../snapshot/types.js';
import { rolloutApi } from './api.js';
import { referencedDeployment, withReferencedTemplate } from './workload-ref.js';
import type { WorkloadKindModule } from '../../workload-kind.js';
import { replicaSetCreateFailures } from '../deployment/create-failures.js';
import { deploymentOfPod, missingReplicaSets, ownReplicaSets } from '../deployment/replica-sets.js';
import { classifyRollout, HASH_LABEL, REVISION, replicaSetLabel, rolloutRevisions } from './replica-sets.js';
import {
  rolloutHalt,
  rolloutAborted,
  rolloutProgress,
  rolloutUnderWay,
  stalledRollout,
  statusSummary,
  statusWatchLine,
} from './rollout-phase.js';
import { basicCanaryCounts } from './basic-canary.js';
import { unreferencedPods } from './unreferenced.js';
import { desiredReplicas, resolveStrategy } from './rollout-strategy.js';

function objectsOf<T extends WorkloadObjects>(snapshot: T): T & RolloutObjects {
  if (!isRolloutObjects(snapshot)) throw new Error('not a Rollout snapshot');
  return snapshot;
}

/**
 * At the counts it observes now, the controller removes no stable pod before a new one
 * is available: blue-green and a traffic-routed canary never do before promotion; the
 * basic canary when the counts it would set next (basic-canary.ts, the controller's own
 * CalculateReplicaCountsForBasicCanary) leave the stable ReplicaSet where it is: its
 * weighted target keeps every stable pod (maxSurge above 0 often allows that), or
 * scaling down would take the available pods under replicas − maxUnavailable, or older
 * ReplicaSets still have pods to go first.
 */
function keepsOldPods(objects: RolloutObjects, startingNew = 0): boolean {
  // Aborted: the update does not go on, nothing waits for a stable pod to go.
  if (rolloutAborted(objects.rollout)) return false;
  const strategy = resolveStrategy(objects.rollout);
  if (strategy.argo !== 'canary') return true;
  const { current, stable } = classifyRollout(objects);
  if (!stable || stable === current) return false;
  const others = objects.replicaSets.filter((rs) => rs !== current && rs !== stable);
  // The canary pods starting now, counted available: GetReplicasForScaleDown reads the
  // canary's availableReplicas, so once they are, the stable ReplicaSet may scale down.
  const canary =
    current && startingNew > 0
      ? {
          ...current,
          status: {
            ...current.status,
            replicas: current.status?.replicas ?? 0,
            availableReplicas: (current.status?.availableReplicas ?? 0) + startingNew,
          },
        }
      : current;
  return basicCanaryCounts(objects.rollout, canary, stable, others).stable >= (stable.spec.replicas ?? 1);
}

export const rolloutKind: WorkloadKindModule<ArgoRollout, ReplicaSet> = {
  ...fromIdentity(rolloutApi),
  words: {
    kind: rolloutApi.title,
    pods: 'replicas',
    templateChange:
      'On a Rollout this is a new update: it goes through the canary steps (or the blue-green preview and promotion) as a release does, pausing where they pause; the crashing pods leave the node only as the update replaces them.',
    rollBack: (name, namespace) => `kubectl argo rollouts abort ${name} -n ${namespace}`,
  },
  templateRef: {
    of: referencedDeployment,
    resolved: withReferencedTemplate,
    named: (object) => object.spec.workloadRef,
  },
  podOwner: 'replicasets',
  strategyAt: {
    field: 'strategy',
    patchPaths: ['/spec/strategy/canary/maxSurge', '/spec/strategy/canary/maxUnavailable'],
  },
  surgeFix: 'canary',
  recreate: false,
  progressDeadline: true,
  deletedPodsReturn: false,
  pinnedToNodes: false,
  pauseHoldsTemplate: false,
  analysisRuns: true,
  claimTemplates: () => [],
  firstOrdinal: () => 0,
  revisionLabel: HASH_LABEL,
  selector: (object) => object.spec.selector ?? {},
  podTemplate: (object) => object.spec.template ?? { spec: { containers: [] } },
  own: (object, read, here) =>
    ownReplicaSets(object, { revisions: read.revisions, pods: read.pods }, here, rolloutApi.kind, REVISION),
  object: (snapshot) => objectsOf(snapshot).rollout,
  nameFromPod: (pod) => deploymentOfPod(pod, HASH_LABEL),
  missingRevisions: (object, pods, revisions) => missingReplicaSets(object, pods, revisions, HASH_LABEL),
  countedPods: (object) => object.status?.replicas ?? 0,

  desiredReplicas: (object) => desiredReplicas(object),
  // spec.paused, or a pause the controller holds (a canary pause step, blue-green before promotion).
  paused: (object) => object.spec.paused === true || (object.status?.pauseConditions ?? []).length > 0,
  strategy: (object) => resolveStrategy(object),
  replacement: (strategy, snapshot) =>
    !rolloutAborted(objectsOf(snapshot).rollout) &&
    (strategy.argo !== 'canary' || keepsOldPods(objectsOf(snapshot)))
      ? 'surge-first'
      : 'old-first',
  revisions: (snapshot) => rolloutRevisions(objectsOf(snapshot)),
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(object, sinceGeneration),
  underWay: (snapshot) => rolloutUnderWay(objectsOf(snapshot)),
  statusSummary: (object) => statusSummary(object),
  createFailures: (snapshot) => {
    const objects = objectsOf(snapshot);
    const { current, stable, old } = classifyRollout(objects);
    return replicaSetCreateFailures(
      { ...(current ? { current } : {}), old },
      snapshot,
      (rs) => replicaSetLabel(rs, stable),
      HASH_LABEL,
    );
  },
  halt: (snapshot) => rolloutHalt(objectsOf(snapshot).rollout),
  keepsOldPods: (snapshot, startingNew) => keepsOldPods(objectsOf(snapshot), startingNew),
  leavingPods: (snapshot) => unreferencedPods(objectsOf(snapshot)),
  // A new template starts an update from its first step: no pod hash, abort, full promotion or pause yet.
  candidateStatus: ({
    currentPodHash: _hash,
    abort: _abort,
    promoteFull: _full,
    pauseConditions: _pauses,
    ...status
  }) => ({ ...status, currentStepIndex: 0 }),
  // A basic canary whose steps only set weights or pause scales within its bounds.
  candidateStrategy: (object, strategy) => {
    const canary = object.spec.strategy?.canary;
    if (strategy.type !== 'RollingUpdate' || strategy.argo !== 'canary' || !canary || canary.trafficRouting)
      return undefined;
    const plain = (canary.steps ?? []).every((step) =>
      Object.keys(step).every((key) => key === 'setWeight' || key === 'pause'),
    );
    if (!plain) return undefined;
    const { argo: _argo, ...bounds } = strategy;
    return bounds;
  },
  stalled: (snapshot) => stalledRollout(objectsOf(snapshot)),
  misleadingSignals: (object) => statusWatchLine(object),
  pausedNote: (object) =>
    object.spec.paused === true
      ? ' The Rollout is paused (spec.paused): nothing rolls out until `kubectl argo rollouts resume`.'
      : '',
  remadeBy: () => 'rolloutReplicaSet',
  surgeWayOut: (strategy) =>
    strategy.argo === 'canary'
      ? 'maxSurge 0 / maxUnavailable 1 on spec.strategy.canary; the controller then scales a stable pod down itself and the stuck canary pod schedules, so no restart is needed.'
      : `${strategy.argo === 'blueGreen' ? 'blue-green' : 'a canary with traffic routing'} keeps every stable pod until promotion and no field changes that, so only aborting frees the room (the stable pods serve, the update does not go on) until there is room for both revisions.`,
};
