/**
 * Where a StatefulSet's rolling update waits (pkg/controller/statefulset,
 * stateful_set_control.go, updateStatefulSet): with OrderedReady the controller walks
 * the pods by ordinal and returns at the first that is not Running and Ready
 * ("monotonic"), before its update loop; it deletes and recreates only Failed or
 * Succeeded pods. So a pod that crash-loops (or stays Pending) holds the rollout, and
 * when the template was reverted after it, it still runs the bad revision and nothing
 * replaces it until someone deletes it: the "forced rollback" of the StatefulSet
 * documentation. With Parallel the update loop deletes a pod whose revision is not
 * the update revision whatever its health, and waits only for unhealthy pods at the
 * update revision. OnDelete waits for nothing.
 */
import { z } from 'zod';
import { isTerminal, isTerminating, isReady, isUnscheduled } from '../../base/pods.js';
import type { Container, Pod } from '../../k8s.js';
import type { StatefulSet } from '../../k8s-workloads.js';
import type { StatefulSetObjects, WorkloadSnapshot } from '../../snapshot/types.js';
import type { ImageChange, OrderedBlock, ReplacedByUpdate } from '../../workload-kind.js';
import { maxUnavailableGateDefault, maxUnavailableNote } from './max-unavailable-gate.js';
import { ordinalIndex, ordinalOf, REVISION_LABEL } from './revisions.js';
import { desiredReplicas, ordered, partitionOf, resolveStrategy } from './statefulset-strategy.js';

const runningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isReady(pod);

/** Waiting reasons of a container that is only starting. */
const STARTING = new Set(['ContainerCreating', 'PodInitializing']);

/**
 * A pod whose containers fail now, not one still starting: a container restarted, waits
 * for a reason other than starting, or ended in error. (A Pending pod waits for room:
 * the scheduler's verdict is the Unschedulable analyzer's.)
 */
function failing(pod: Pod): boolean {
  const statuses = [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
  return statuses.some(
    (s) =>
      s.restartCount > 0 ||
      (s.state?.waiting?.reason !== undefined && !STARTING.has(s.state.waiting.reason)) ||
      (s.state?.terminated !== undefined && s.state.terminated.exitCode !== 0),
  );
}

export function orderedBlock(snapshot: WorkloadSnapshot & StatefulSetObjects): OrderedBlock | undefined {
  const sts: StatefulSet = snapshot.statefulSet;
  if ((sts.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate') return undefined;
  const status = sts.status;
  const generation = sts.metadata.generation;
  if (!status?.updateRevision || (generation !== undefined && (status.observedGeneration ?? 0) < generation))
    return undefined;
  const updateRevision = status.updateRevision;
  const name = sts.metadata.name ?? '';
  const live = snapshot.pods
    .filter((p) => !isTerminating(p) && !isTerminal(p))
    .map((pod) => ({ pod, ordinal: ordinalOf(pod, name) }))
    .filter((p): p is { pod: Pod; ordinal: number } => p.ordinal !== undefined)
    .sort((a, b) => a.ordinal - b.ordinal);
  const revisionOf = (pod: Pod): string => pod.metadata.labels?.[REVISION_LABEL] ?? '';
  const policy = ordered(sts) ? 'OrderedReady' : 'Parallel';
  const unhealthy = live.filter(({ pod }) => !runningAndReady(pod));
  const stuck =
    policy === 'OrderedReady'
      ? unhealthy[0]
      : // Parallel: the update loop (highest ordinal first) waits only on unhealthy pods at the update revision.
        [...unhealthy].reverse().find(({ pod }) => revisionOf(pod) === updateRevision);
  if (!stuck) return undefined;
  // A pod below the partition is kept, and made again, at the current revision on purpose
  // (newVersionedStatefulSetPod): deleting it brings the same revision back, so it is no
  // block the update's own way out (a deletion) moves. It still holds the pods at or above
  // the partition that are not updated yet: the monotonic walk returns at it before the
  // update loop. Where none is left to update, what fails there is said as the crash or
  // the wait it is.
  const partition = partitionOf(sts);
  const below = (ordinalIndex(stuck.pod, sts) ?? 0) < partition;
  const held = below
    ? live
        .filter(({ pod }) => {
          const index = ordinalIndex(pod, sts) ?? -1;
          return index >= partition && index < desiredReplicas(sts) && revisionOf(pod) !== updateRevision;
        })
        .map(({ pod }) => pod.metadata.name ?? '')
    : [];
  // Below the partition only a pod whose containers fail holds it for good: one still
  // starting is the walk moving, one Pending is the scheduler's to judge.
  if (below && (held.length === 0 || !failing(stuck.pod))) return undefined;
  const revision = revisionOf(stuck.pod);
  const atUpdateRevision = revision === updateRevision;
  // Nothing to roll: every pod runs the one revision and it is the update revision.
  if (
    atUpdateRevision &&
    status.currentRevision === updateRevision &&
    live.every(({ pod }) => revisionOf(pod) === updateRevision)
  )
    return undefined;
  const note = maxUnavailableNote(sts, snapshot.serverVersion);
  const updateRevisionProven =
    status.currentRevision === updateRevision ||
    live.some(({ pod }) => revisionOf(pod) === updateRevision && runningAndReady(pod));
  return {
    pod: stuck.pod,
    ordinal: stuck.ordinal,
    revision,
    updateRevision,
    atUpdateRevision,
    updateRevisionProven,
    // Parallel never waits on a pod of another revision (it deletes it), so only OrderedReady
    // gets here; below the partition a deletion brings the same revision back.
    needsDeletion: !atUpdateRevision && !below,
    partition,
    ...(below ? { heldAbovePartition: held, recreatedAt: status.currentRevision ?? revision } : {}),
    policy,
    imageChanges: imageChanges(
      atUpdateRevision ? revisionContainers(snapshot, status.currentRevision) : stuck.pod.spec.containers,
      sts.spec.template.spec.containers,
    ),
    ...(note ? { strategyNote: note } : {}),
  };
}

/**
 * Where a Parallel update deletes `pod` itself, so its replacement comes at the update
 * revision without anyone deleting it: that revision, and `now` when it is deleted at
 * the next sync. Undefined where nothing deletes it by itself: OrderedReady (the
 * monotonic walk stops at a pod that is not Running and Ready: orderedBlock), OnDelete,
 * below the partition, or a status the controller has not caught up with. Not known
 * where the MaxUnavailableStatefulSet gate is not (below).
 */
export function replacedByUpdate(
  snapshot: WorkloadSnapshot & StatefulSetObjects,
  pod: Pod,
): ReplacedByUpdate | undefined {
  const sts: StatefulSet = snapshot.statefulSet;
  if ((sts.spec.updateStrategy?.type ?? 'RollingUpdate') !== 'RollingUpdate' || ordered(sts))
    return undefined;
  const { status } = sts;
  const generation = sts.metadata.generation;
  if (!status?.updateRevision || (generation !== undefined && (status.observedGeneration ?? 0) < generation))
    return undefined;
  const updateRevision = status.updateRevision;
  const name = sts.metadata.name ?? '';
  const ordinal = ordinalOf(pod, name);
  const index = ordinalIndex(pod, sts);
  const old = (p: Pod): boolean =>
    (p.metadata.labels?.[REVISION_LABEL] ?? '') !== updateRevision && !isTerminating(p);
  // The partition and replicas count pods from spec.ordinals.start (ordinalIndex).
  if (ordinal === undefined || index === undefined || index < partitionOf(sts) || !old(pod)) return undefined;
  const live = snapshot.pods
    .filter((p) => !isTerminal(p) && (ordinalIndex(p, sts) ?? -1) < desiredReplicas(sts))
    .sort((x, y) => (ordinalOf(y, name) ?? 0) - (ordinalOf(x, name) ?? 0));
  const above = live.filter((p) => (ordinalOf(p, name) ?? -1) > ordinal);
  switch (maxUnavailableGateDefault(snapshot.serverVersion)) {
    case 'off':
    case 'absent':
      // updateStatefulSet: from the highest ordinal down, delete a pod of another revision,
      // return at one that is not healthy. Each pod above is deleted first or waited for.
      return {
        known: true,
        updateRevision,
        now: above.every((p) => !old(p) && runningAndReady(p) && !isTerminating(p)),
      };
    case 'on':
      return gatedDeletion(sts, live, pod, old, updateRevision);
    case 'unknown':
      return {
        known: false,
        updateRevision,
        why: gateUnknownWords(pod, updateRevision, snapshot.serverVersion),
      };
  }
}

/**
 * updateStatefulSetAfterInvariantEstablished (the gate on): nothing is deleted while the
 * pods not Running and Ready number maxUnavailable (default 1) or more; else the highest
 * `maxUnavailable - unavailable` pods of another revision go, healthy or not. A Pending
 * pod counts as unavailable itself, so with maxUnavailable 1 it is never deleted:
 * kubernetes#137409, the regression that turned the gate off again in 1.35.4. Replaced
 * at all only where the pods that stay unavailable (not starting) leave room for it.
 */
function gatedDeletion(
  sts: StatefulSet,
  live: readonly Pod[],
  pod: Pod,
  old: (p: Pod) => boolean,
  updateRevision: string,
): ReplacedByUpdate | undefined {
  const maxUnavailable = resolveStrategy(sts).maxUnavailable?.value ?? 1;
  const missing = Math.max(0, desiredReplicas(sts) - live.length);
  const unavailable = live.filter((p) => !runningAndReady(p)).length + missing;
  // Pods that are not about to become Ready: `pod` itself, and the others no node was found for.
  const staying = live.filter((p) => p === pod || (!runningAndReady(p) && isUnscheduled(p))).length;
  if (staying >= maxUnavailable) return undefined;
  const rank = live.filter(old).indexOf(pod);
  return { known: true, updateRevision, now: rank >= 0 && rank < maxUnavailable - unavailable };
}

function gateUnknownWords(pod: Pod, updateRevision: string, gitVersion: string | undefined): string {
  const name = pod.metadata.name ?? '';
  const version = gitVersion ? `"${gitVersion}", not a version this can read` : 'not read (a dump has none)';
  return (
    `Whether the StatefulSet controller replaces ${name} by itself depends on the MaxUnavailableStatefulSet feature gate: ` +
    `off (its default in 1.24–1.34, from 1.35.4, and in 1.36) the Parallel update deletes it and recreates it at ${updateRevision}; ` +
    `on (1.35.0–1.35.3, and from 1.37) it deletes no pod while maxUnavailable pods are unavailable, ${name} itself counted (kubernetes#137409). ` +
    `The API server's version was ${version}.`
  );
}

type NamedImage = Pick<Container, 'name' | 'image'>;

/** The containers' names and images in a ControllerRevision's data (the rest is not read here). */
const STORED_CONTAINERS = z.object({
  spec: z.object({
    template: z.object({
      spec: z.object({ containers: z.array(z.object({ name: z.string(), image: z.string().optional() })) }),
    }),
  }),
});

/**
 * The containers of a revision's template: a live pod of it, else its ControllerRevision
 * (data.spec.template, as the controller stores it).
 */
function revisionContainers(
  snapshot: WorkloadSnapshot & StatefulSetObjects,
  revision: string | undefined,
): readonly NamedImage[] | undefined {
  if (!revision) return undefined;
  const pod = snapshot.pods.find(
    (p) => p.metadata.labels?.[REVISION_LABEL] === revision && !isTerminating(p) && !isTerminal(p),
  );
  if (pod) return pod.spec.containers;
  const object = snapshot.controllerRevisions.find((r) => r.metadata.name === revision);
  const parsed = STORED_CONTAINERS.safeParse(object?.data);
  return parsed.success ? parsed.data.spec.template.spec.containers : undefined;
}

/** The containers, by name, whose image differs from `from` to `to`. */
function imageChanges(from: readonly NamedImage[] | undefined, to: readonly NamedImage[]): ImageChange[] {
  if (!from) return [];
  return to.flatMap((c) => {
    const before = from.find((f) => f.name === c.name)?.image;
    return before !== undefined && c.image !== undefined && before !== c.image
      ? [{ container: c.name, from: before, to: c.image }]
      : [];
  });
}
