/**
 * Where a StatefulSet's exclusion moves no pod by itself (stateful_set_control.go):
 * - OnDelete: the controller replaces no pod until someone deletes it;
 * - OrderedReady: it touches no pod while one is not Running and Ready (processReplica
 *   returns at the first unhealthy pod when the policy is monotonic, before the rolling
 *   update), so the crash-looping pods on the excluded nodes hold the new template back
 *   for good: they never become Ready there.
 * Deleting them once the exclusion is in place lets the controller make them again,
 * under the same names, from the template with the exclusion (builders/delete-pods.ts).
 * Pure.
 */
import type { TemplateCrashPicture } from '../../diagnosis/crash/crash-distribution.js';
import { isReady } from '../../diagnosis/base/pods.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { volumePins } from '../../diagnosis/base/volume-node-affinity.js';
import type { Node, Pod } from '../../diagnosis/k8s.js';

interface ExclusionWaits {
  /** The pods on the excluded nodes that must be deleted for the exclusion to reach them. */
  pods: Pod[];
  /** Why: OnDelete (no pod is replaced until deleted), else OrderedReady waits for them. */
  onDelete: boolean;
}

export function exclusionWaitsFor(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
): ExclusionWaits | undefined {
  const kind = workloadKind(snapshot);
  // A DaemonSet's pods on an excluded node are deleted by its controller, not moved.
  if (kind.pinnedToNodes) return undefined;
  const object = kind.object(snapshot);
  const onBad = picture.crashingPods.filter((p) => picture.badNodes.includes(p.spec.nodeName ?? ''));
  if (onBad.length === 0) return undefined;
  if (kind.strategy(object).type === 'OnDelete') return { pods: onBad, onDelete: true };
  if (kind.remadeBy(object) !== 'orderedReady') return undefined;
  const unready = onBad.filter((p) => !isReady(p));
  return unready.length > 0 ? { pods: unready, onDelete: false } : undefined;
}

/**
 * A crash-looping pod on the bad nodes that a volume holds to nodes none of `allowed`
 * (a local PersistentVolume on the bad node): its replacement mounts the same claim (a
 * StatefulSet's own, or the template's), so it goes where the volume is or nowhere. From
 * the claims and volumes read; one not read pins nothing here.
 */
export function pinnedByVolume(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
  allowed: readonly Node[],
): { pod: string; volume: string } | undefined {
  for (const pod of picture.crashingPods.filter((p) => picture.badNodes.includes(p.spec.nodeName ?? ''))) {
    const pin = volumePins(pod, snapshot.pvcs, snapshot.guards?.persistentVolumes).find(
      (v) => !allowed.some((n) => v.allows(n)),
    );
    if (pin) return { pod: pod.metadata.name ?? '', volume: pin.volume };
  }
  return undefined;
}

/**
 * A crash-looping pod on the bad nodes below a StatefulSet's partition: the controller
 * keeps it at the current revision and makes it again from that revision when it is
 * deleted (newVersionedStatefulSetPod), so no template change, an exclusion included,
 * ever reaches it. Its name, or undefined.
 */
export function belowPartition(
  snapshot: WorkloadSnapshot,
  picture: TemplateCrashPicture,
): string | undefined {
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  const partition = kind.strategy(object).partition ?? 0;
  if (partition === 0) return undefined;
  const held = picture.crashingPods.find(
    (p) =>
      picture.badNodes.includes(p.spec.nodeName ?? '') &&
      (kind.ordinalIndex?.(object, p) ?? partition) < partition,
  );
  return held?.metadata.name;
}
