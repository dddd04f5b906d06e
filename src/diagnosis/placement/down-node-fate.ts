/**
 * What becomes of our pods on nodes that stopped reporting, for a workload whose
 * controller makes a new pod for one deleted (a ReplicaSet's: FilterActivePods leaves a
 * terminating pod out of its count, so the replacement is made while the old one stays
 * Terminating with no kubelet to confirm). The taint-eviction controller deletes each
 * pod when its tolerations of the node's NoExecute taints run out (base/taint-eviction.ts),
 * and the replacement goes to a node that reports, if one has room. Not known: a kind
 * whose deleted pods come back as themselves (a StatefulSet's ordinals, a DaemonSet's
 * nodes), a pod that mounts a claim (its replacement may wait for the volume to detach
 * from the dead node), or a taint whose time the node does not hold.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { isTerminating } from '../base/pods.js';
import { taintEviction, type TaintEviction } from '../base/taint-eviction.js';
import { kubeletReports } from '../forward/pod-phase.js';
import { workloadKind } from '../workloads/index.js';
import { roomOnSomeNode } from './replacement.js';

export type DownNodeFate =
  /**
   * Every pod is deleted, the last at `at` ('now': the controller's next pass), after
   * `seconds` of tolerating `taint`; `room`: whether a node that reports takes a replacement.
   */
  | { fate: 'evicted'; at: string | 'now'; seconds: number; taint: string; room: boolean | 'unknown' }
  /** These pods tolerate `taint` for ever: nothing deletes them. */
  | { fate: 'never'; pods: Pod[]; taint: string }
  | { fate: 'unknown' };

export function downNodeFate(ctx: AnalysisContext, pods: readonly Pod[]): DownNodeFate {
  const { snapshot } = ctx;
  if (workloadKind(snapshot).deletedPodsReturn) return { fate: 'unknown' };
  if (pods.some((p) => (p.spec.volumes ?? []).some((v) => v.persistentVolumeClaim || v.ephemeral)))
    return { fate: 'unknown' };
  const nodes = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
  // Pods already deleted were replaced when they were: what waits now is their replacement.
  const live = pods.filter((p) => !isTerminating(p));
  if (live.length === 0) return { fate: 'unknown' };
  const evictions: [Pod, TaintEviction | undefined][] = live.map((p) => {
    const node = nodes.get(p.spec.nodeName ?? '');
    return [p, node ? taintEviction(p, node) : undefined];
  });
  const never = evictions.filter(([, e]) => e?.when === 'never');
  const firstNever = never[0]?.[1];
  if (firstNever) return { fate: 'never', pods: never.map(([p]) => p), taint: firstNever.taint };
  const timed = evictions.map(([, e]) => e);
  if (timed.some((e) => e === undefined || e.when === 'unknown')) return { fate: 'unknown' };
  const last = timed
    .filter((e): e is Extract<TaintEviction, { when: 'at' }> => e?.when === 'at')
    .sort((a, b) => b.at.localeCompare(a.at))[0];
  const now = timed.find((e) => e?.when === 'now');
  const room = replacementRoom(ctx, live[0]);
  if (last) return { fate: 'evicted', at: last.at, seconds: last.seconds, taint: last.taint, room };
  return { fate: 'evicted', at: 'now', seconds: 0, taint: now?.taint ?? '', room };
}

/** Whether a node that reports has room now for a pod like `pod`, made again (a uid of its own). */
function replacementRoom(ctx: AnalysisContext, pod: Pod | undefined): boolean | 'unknown' {
  if (!pod) return 'unknown';
  const again: Pod = { ...pod, metadata: { ...pod.metadata, uid: `${pod.metadata.uid ?? ''}/again` } };
  return roomOnSomeNode(ctx, again, { where: kubeletReports });
}
