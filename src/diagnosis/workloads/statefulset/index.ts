/**
 * The StatefulSet kind (apps/v1): pods with a stable identity (`<set>-<ordinal>`, their
 * claims), revisions are ControllerRevisions named in status.currentRevision and
 * status.updateRevision, and a rolling update replaces pods from the highest ordinal
 * down to the partition, old pod first: no surge, so no surge deadlock, but an
 * OrderedReady update waits forever at a pod that never becomes Running and Ready
 * (ordered-block.ts).
 */
import { codeSpan } from '../../../text/code-span.js';
import { isTerminal } from '../../base/pods.js';
import { fromIdentity } from '../../workload-api.js';
import type { ControllerRevision, StatefulSet } from '../../k8s-workloads.js';
import type { Pod } from '../../k8s.js';
import { isStatefulSetObjects, type StatefulSetObjects, type WorkloadObjects } from '../../snapshot/types.js';
import { statefulSetApi } from './api.js';
import {
  allRefusals,
  selectorRefusal,
  statefulSetUpdateRefusal,
  strategyRefusal,
} from '../api-validation.js';
import { resourcesRefusal } from '../resource-validation.js';
import type { Revisions, WorkloadKindModule } from '../../workload-kind.js';
import { createFailures } from './create-failures.js';
import { orderedBlock, replacedByUpdate } from './ordered-block.js';
import {
  classifyRevisions,
  ordinalIndex,
  REVISION_LABEL,
  STATEFULSET_NAMING,
  startOrdinal,
} from './revisions.js';
import { directOwnerOfPod, missingRevisions, ownRevisions, revisionsFrom } from '../controller-revisions.js';
import { rolloutProgress, statusSummary } from './statefulset-status.js';
import { desiredReplicas, ordered, partitionOf, resolveStrategy } from './statefulset-strategy.js';

/** A manifest candidate's update revision: not a valid object name, so no revision read has it. */
const CANDIDATE_REVISION = '<manifest>';

function objectsOf<T extends WorkloadObjects>(snapshot: T): T & StatefulSetObjects {
  if (!isStatefulSetObjects(snapshot)) throw new Error('not a StatefulSet snapshot');
  return snapshot;
}

function revisionsOf(snapshot: WorkloadObjects & { pods: readonly Pod[] }): Revisions {
  const { statefulSet: sts, controllerRevisions } = objectsOf(snapshot);
  return revisionsFrom(classifyRevisions(sts, controllerRevisions), snapshot.pods, STATEFULSET_NAMING);
}

export const statefulSetKind: WorkloadKindModule<StatefulSet, ControllerRevision> = {
  ...fromIdentity(statefulSetApi),
  words: { kind: statefulSetApi.title, pods: 'replicas' },
  podOwner: 'itself',
  strategyAt: { field: 'updateStrategy', patchPaths: ['/spec/updateStrategy'] },
  recreate: false,
  progressDeadline: false,
  deletedPodsReturn: true,
  // A changed selector is among the fields ValidateStatefulSetUpdate keeps, and refused as they are.
  apiRefusal: (object, old) =>
    allRefusals([
      selectorRefusal(statefulSetApi.title, object.spec, undefined, { required: true }),
      strategyRefusal(statefulSetApi.title, object.spec.updateStrategy),
      resourcesRefusal(object.spec.template),
      old
        ? statefulSetUpdateRefusal(
            object.spec as unknown as Record<string, unknown>,
            old.spec as unknown as Record<string, unknown>,
          )
        : undefined,
    ]),
  pinnedToNodes: false,
  pauseHoldsTemplate: false,
  claimTemplates: (object) => (object.spec.volumeClaimTemplates ?? []).map((t) => t.metadata.name ?? ''),
  firstOrdinal: (object) => startOrdinal(object),
  ordinalIndex: (object, pod) => ordinalIndex(pod, object),
  revisionLabel: REVISION_LABEL,
  selector: (object) => object.spec.selector,
  podTemplate: (object) => object.spec.template,
  own: (object, read, here) =>
    ownRevisions(statefulSetApi.kind, object, { revisions: read.revisions, pods: read.pods }, here),
  object: (snapshot) => objectsOf(snapshot).statefulSet,
  nameFromPod: (pod) => directOwnerOfPod(statefulSetApi.kind, pod),
  missingRevisions: (object, pods, revisions) =>
    missingRevisions(statefulSetApi.kind, object, pods, revisions, STATEFULSET_NAMING),
  countedPods: (object) => object.status?.replicas ?? 0,

  desiredReplicas: (object) => desiredReplicas(object),
  paused: () => false,
  strategy: (object) => resolveStrategy(object),
  // The old pod goes first: the new one takes its name and claims.
  replacement: () => 'old-first',
  revisions: (snapshot) => revisionsOf(snapshot),
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(object, sinceGeneration),
  underWay: (snapshot) => {
    const sts = objectsOf(snapshot).statefulSet;
    const verdict = rolloutProgress(sts);
    return verdict.state === 'complete' ? undefined : verdict.progress.message;
  },
  statusSummary: (object) => statusSummary(object),
  createFailures: (snapshot) =>
    createFailures(
      objectsOf(snapshot).statefulSet,
      snapshot.events,
      revisionsOf(snapshot),
      snapshot.pods.filter((p) => !isTerminal(p)).length,
    ),
  keepsOldPods: () => false,
  leavingPods: () => [],
  // A name no ControllerRevision has: every revision read is old (without one, the newest would be current).
  candidateStatus: (status) => ({ ...status, updateRevision: CANDIDATE_REVISION }),
  // Old pod first, at most maxUnavailable (default 1) at a time: no partition, no pod to wait on first.
  candidateStrategy: (_object, strategy, settled) =>
    strategy.type === 'RollingUpdate' && (strategy.partition ?? 0) === 0 && settled
      ? {
          type: 'RollingUpdate',
          maxSurge: { raw: 0, value: 0, source: 'default' },
          maxUnavailable: strategy.maxUnavailable ?? { raw: 1, value: 1, source: 'default' },
        }
      : undefined,
  stalled: () => undefined,
  misleadingSignals: (object) => {
    const sts = object;
    return `${codeSpan('kubectl rollout status')} prints "${rolloutProgress(sts).progress.message}" and waits until its --timeout, with no end by default: a StatefulSet has no progress deadline${partitionOf(sts) > 0 ? `, and pods below ordinal ${partitionOf(sts)} stay at the current revision on purpose (partition)` : ''}.`;
  },
  pausedNote: () => '',
  remadeBy: (object) => (ordered(object) ? 'orderedReady' : 'parallel'),
  surgeWayOut: () =>
    'a StatefulSet never surges: its rolling update deletes each old pod before creating the new one.',
  orderedBlock: (snapshot) => orderedBlock(objectsOf(snapshot)),
  replacedByUpdate: (snapshot, pod) => replacedByUpdate(objectsOf(snapshot), pod),
  // maxUnavailable is honoured only where the MaxUnavailableStatefulSet gate is on
  // (max-unavailable-gate.ts), and with the gate on a Parallel update deletes no pod while
  // maxUnavailable (default 1) are unavailable (ordered-block.ts replacedByUpdate).
  readsServerVersion: (object) =>
    object.spec.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined || !ordered(object),
};
