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
import type { ControllerRevision, Pod, StatefulSet } from '../../k8s.js';
import {
  isStatefulSetObjects,
  type StatefulSetObjects,
  type WorkloadObject,
  type WorkloadObjects,
} from '../../snapshot/types.js';
import type { Revisions, WorkloadKindModule } from '../../workload-kind.js';
import { createFailures } from './create-failures.js';
import { orderedBlock } from './ordered-block.js';
import { classifyRevisions, REVISION_LABEL, STATEFULSET_NAMING } from './revisions.js';
import { directOwnerOfPod, missingRevisions, ownRevisions, revisionsFrom } from '../controller-revisions.js';
import { rolloutProgress, statusSummary } from './statefulset-status.js';
import { desiredReplicas, partitionOf, resolveStrategy } from './statefulset-strategy.js';

/** The StatefulSet of an object the registry handed to this module (it hands a module only its own kind). */
function statefulSet(object: WorkloadObject): StatefulSet {
  return object as StatefulSet;
}

function objectsOf<T extends WorkloadObjects>(snapshot: T): T & StatefulSetObjects {
  if (!isStatefulSetObjects(snapshot)) throw new Error('not a StatefulSet snapshot');
  return snapshot;
}

function revisionsOf(snapshot: WorkloadObjects & { pods: readonly Pod[] }): Revisions {
  const { statefulSet: sts, controllerRevisions } = objectsOf(snapshot);
  return revisionsFrom(classifyRevisions(sts, controllerRevisions), snapshot.pods, STATEFULSET_NAMING);
}

export const statefulSetKind: WorkloadKindModule = {
  kind: 'StatefulSet',
  revisionObjects: { kind: 'ControllerRevision', resource: 'controllerrevisions' },
  revisionLabel: REVISION_LABEL,
  selector: (object) => statefulSet(object).spec.selector,
  podTemplate: (object) => statefulSet(object).spec.template,
  own: (object, read, here) =>
    ownRevisions(
      'StatefulSet',
      statefulSet(object),
      { revisions: read.revisions as ControllerRevision[], pods: read.pods },
      here,
    ),
  objects: (object, revisions) => ({
    statefulSet: statefulSet(object),
    controllerRevisions: revisions as ControllerRevision[],
  }),
  object: (snapshot) => objectsOf(snapshot).statefulSet,
  nameFromPod: (pod) => directOwnerOfPod('StatefulSet', pod),
  missingRevisions: (object, pods, revisions) =>
    missingRevisions(
      'StatefulSet',
      statefulSet(object),
      pods,
      revisions as ControllerRevision[],
      STATEFULSET_NAMING,
    ),
  countedPods: (object) => statefulSet(object).status?.replicas ?? 0,

  desiredReplicas: (object) => desiredReplicas(statefulSet(object)),
  paused: () => false,
  strategy: (object) => resolveStrategy(statefulSet(object)),
  // The old pod goes first: the new one takes its name and claims.
  replacement: () => 'old-first',
  revisions: (snapshot) => revisionsOf(snapshot),
  rolloutStatus: (object, sinceGeneration) => rolloutProgress(statefulSet(object), sinceGeneration),
  underWay: (snapshot) => {
    const sts = objectsOf(snapshot).statefulSet;
    const verdict = rolloutProgress(sts);
    return verdict.state === 'complete' ? undefined : verdict.progress.message;
  },
  statusSummary: (object) => statusSummary(statefulSet(object)),
  createFailures: (snapshot) =>
    createFailures(
      objectsOf(snapshot).statefulSet,
      snapshot.events,
      revisionsOf(snapshot),
      snapshot.pods.filter((p) => !isTerminal(p)).length,
    ),
  keepsOldPods: () => false,
  stalled: () => undefined,
  misleadingSignals: (object) => {
    const sts = statefulSet(object);
    return `${codeSpan('kubectl rollout status')} prints "${rolloutProgress(sts).progress.message}" and waits forever: a StatefulSet has no progress deadline${partitionOf(sts) > 0 ? `, and pods below ordinal ${partitionOf(sts)} stay at the current revision on purpose (partition)` : ''}.`;
  },
  pausedNote: () => '',
  surgeWayOut: () =>
    'a StatefulSet never surges: its rolling update deletes each old pod before creating the new one.',
  orderedBlock: (snapshot) => orderedBlock(objectsOf(snapshot)),
  // maxUnavailable is honoured only where the MaxUnavailableStatefulSet gate is on (max-unavailable-gate.ts).
  readsServerVersion: (object) =>
    statefulSet(object).spec.updateStrategy?.rollingUpdate?.maxUnavailable !== undefined,
};
