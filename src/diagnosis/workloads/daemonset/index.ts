/**
 * The DaemonSet kind (apps/v1): one pod per node it selects, revisions are
 * ControllerRevisions, the strategy is spec.updateStrategy (RollingUpdate with
 * maxSurge/maxUnavailable per node, or OnDelete). With maxSurge the controller starts
 * the new pod beside the old one on the same node and deletes the old one once the new
 * one is available (pkg/controller/daemon/update.go, rollingUpdate), so a new pod that
 * waits for what the old pod holds on that node (a hostPort, the node's only GPU)
 * waits forever: the per-node surge deadlock.
 */
import { fromIdentity } from '../../workload-api.js';
import type { ControllerRevision, DaemonSet } from '../../k8s-workloads.js';
import type { Pod } from '../../k8s.js';
import { isDaemonSetObjects, type DaemonSetObjects, type WorkloadObjects } from '../../snapshot/types.js';
import type { ResolvedStrategy } from '../../resolved-strategy.js';
import { daemonSetApi } from './api.js';
import { allRefusals, selectorRefusal, strategyRefusal } from '../api-validation.js';
import { resourcesRefusal } from '../resource-validation.js';
import type { Revisions, WorkloadKindModule } from '../../workload-kind.js';
import { createFailures } from './create-failures.js';
import { classifyRevisions, DAEMONSET_NAMING, HASH_LABEL } from './revisions.js';
import { directOwnerOfPod, missingRevisions, ownRevisions, revisionsFrom } from '../controller-revisions.js';
import { nativeSignalsNote, rolloutProgress, rolloutUnderWay, statusSummary } from './daemonset-status.js';
import { desiredPods, resolveStrategy } from './daemonset-strategy.js';

function objectsOf<T extends WorkloadObjects>(snapshot: T): T & DaemonSetObjects {
  if (!isDaemonSetObjects(snapshot)) throw new Error('not a DaemonSet snapshot');
  return snapshot;
}

function revisionsOf(snapshot: WorkloadObjects & { pods: readonly Pod[] }): Revisions {
  const { daemonSet: ds, controllerRevisions } = objectsOf(snapshot);
  return revisionsFrom(classifyRevisions(ds, controllerRevisions), snapshot.pods, DAEMONSET_NAMING);
}

/** maxSurge > 0 (validation then requires maxUnavailable 0): the new pod first, on the old pod's node. */
function surges(strategy: ResolvedStrategy): boolean {
  return strategy.type === 'RollingUpdate' && (strategy.maxSurge?.value ?? 0) >= 1;
}

export const daemonSetKind: WorkloadKindModule<DaemonSet, ControllerRevision> = {
  ...fromIdentity(daemonSetApi),
  words: { kind: daemonSetApi.title, pods: 'pods' },
  podOwner: 'itself',
  strategyAt: { field: 'updateStrategy', patchPaths: ['/spec/updateStrategy'] },
  surgeFix: 'per-node',
  recreate: false,
  progressDeadline: false,
  deletedPodsReturn: true,
  apiRefusal: (object, old) =>
    allRefusals([
      selectorRefusal(daemonSetApi.title, object.spec, old?.spec, { required: false }),
      strategyRefusal(daemonSetApi.title, object.spec.updateStrategy),
      resourcesRefusal(object.spec.template),
    ]),
  pinnedToNodes: true,
  pauseHoldsTemplate: false,
  claimTemplates: () => [],
  firstOrdinal: () => 0,
  revisionLabel: HASH_LABEL,
  selector: (object) => object.spec.selector,
  podTemplate: (object) => object.spec.template,
  own: (object, read, here) =>
    ownRevisions(daemonSetApi.kind, object, { revisions: read.revisions, pods: read.pods }, here),
  object: (snapshot) => objectsOf(snapshot).daemonSet,
  nameFromPod: (pod) => directOwnerOfPod(daemonSetApi.kind, pod),
  missingRevisions: (object, pods, revisions) =>
    missingRevisions(daemonSetApi.kind, object, pods, revisions, DAEMONSET_NAMING),
  countedPods: (object) => {
    const status = object.status;
    return (status?.currentNumberScheduled ?? 0) + (status?.numberMisscheduled ?? 0);
  },

  desiredReplicas: (object) => desiredPods(object),
  paused: () => false,
  strategy: (object) => resolveStrategy(object),
  replacement: (strategy) => (surges(strategy) ? 'surge-first' : 'old-first'),
  revisions: (snapshot) => revisionsOf(snapshot),
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(object, sinceGeneration),
  underWay: (snapshot) => {
    const { daemonSet: ds, controllerRevisions } = objectsOf(snapshot);
    // Only the current revision's hash is needed: no pods are sorted into revisions here.
    const { current } = classifyRevisions(ds, controllerRevisions);
    return rolloutUnderWay(
      ds,
      snapshot.pods,
      current ? (DAEMONSET_NAMING.podKey(current) ?? '') : undefined,
      Date.parse(snapshot.capturedAt),
    );
  },
  statusSummary: (object) => statusSummary(object),
  createFailures: (snapshot) =>
    createFailures(objectsOf(snapshot).daemonSet, snapshot.events, revisionsOf(snapshot)),
  // With surge a node's old pod goes only once its new one is available.
  keepsOldPods: (snapshot) => surges(resolveStrategy(objectsOf(snapshot).daemonSet)),
  leavingPods: () => [],
  // No progress deadline: the DaemonSet controller never gives up on a rollout.
  stalled: () => undefined,
  misleadingSignals: (object, strategy) => nativeSignalsNote(object, strategy),
  pausedNote: () => '',
  remadeBy: () => 'sameNode',
  surgeWayOut: () =>
    'maxSurge 0 / maxUnavailable 1 on spec.updateStrategy (a DaemonSet has no Recreate); the DaemonSet controller then deletes the stuck surge pod itself (without surge a second pod on a node is excess) and replaces one node at a time, so no restart is needed.',
};
