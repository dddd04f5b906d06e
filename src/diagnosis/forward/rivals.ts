/**
 * Other workloads beside ours in the forward model (DESIGN.md §4e):
 * - their Pending pods (rivals) wait in the scheduler's one queue with ours, ordered by
 *   priority and then by when each was queued (PrioritySort): a rival of higher priority
 *   takes room first, one of lower priority after ours, and at equal priority the order
 *   is not ours to know. A verdict that the rollout can never finish is held to the order
 *   that favours it (ours first); one that it finishes by itself holds in both, or says
 *   the race (queue-race.ts); a plan is proved in both, or says it depends on them;
 * - their terminating pods (not past their deadline, on a node whose kubelet reports)
 *   are gone at the first step, as ours are: room a neighbour's progress frees is room;
 *   but a StatefulSet's or a DaemonSet's pod comes back (WorkloadKindModule
 *   `deletedPodsReturn`): its replacement, the same pod unbound, is a rival.
 * - the pods other workloads of the same checked change will create (snapshot
 *   `changePods`) are rivals too, not admitted yet, as a returning pod is; a new
 *   DaemonSet's (`perNode`) one on each node of the snapshot it selects and tolerates,
 *   pinned there with the tolerations its controller adds;
 * Rivals bind where they fit and preempt nothing (their preemption, if any, the scheduler
 * already tried): what they take is lost to ours, what they leave is not.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { workloadOfPod } from '../base/owners.js';
import { isStuckTerminating, isTerminating } from '../base/pods.js';
import { heldBeforeScheduling } from '../scheduling/held-back.js';
import { kubeletReports } from './pod-phase.js';
import { isEligible } from '../base/node-match.js';
import { pinnedTo } from './daemon-budget.js';
import { withDaemonTolerations } from './daemon-tolerations.js';
import { workloadKind, workloadOfPod as workloadOfKind } from '../workloads/index.js';

/** Where rivals of our priority stand in the queue: behind ours, or ahead of them. */
export type QueueOrder = 'ours-first' | 'theirs-first';

export interface Rival {
  pod: Pod;
  /** Its workload as kubectl names it ("deployment/batch"). */
  owner: string;
  /**
   * Made again by its controller (a returning StatefulSet or DaemonSet pod): not yet
   * admitted, so quota admission judges it and its charge counts once it is placed.
   */
  remade?: true;
}

/** Other workloads' pods waiting for a node that the scheduler will judge (not held back by a gate). */
export function rivalsOf(ctx: AnalysisContext): readonly Rival[] {
  return ctx.once('forward-rivals', () =>
    [
      ...(ctx.snapshot.pendingPods ?? []).map((pod) => ({ pod, owner: workloadOfPod(pod) })),
      ...(ctx.snapshot.changePods ?? []).flatMap(({ pod, owner, perNode }) =>
        (perNode ? onEachNode(ctx, pod) : [pod]).map((p) => ({ pod: p, owner, remade: true as const })),
      ),
      ...leavingNeighbours(ctx)
        .filter(comesBack)
        .map((pod) => ({ pod: again(pod), owner: workloadOfPod(pod), remade: true as const })),
    ].filter((rival) => !heldBeforeScheduling(rival.pod)),
  );
}

/** A new DaemonSet's pod on each node of the snapshot it would run on (nodeShouldRunDaemonPod). */
function onEachNode(ctx: AnalysisContext, template: Pod): Pod[] {
  const pod = withDaemonTolerations(template);
  return ctx.snapshot.nodes
    .filter((node) => isEligible(node, pod.spec))
    .map((node) => {
      const name = node.metadata.name ?? '';
      const pinned = pinnedTo(pod, name);
      return { ...pinned, metadata: { ...pinned.metadata, uid: `${pod.metadata.uid ?? ''}/${name}` } };
    });
}

/** Its controller makes the pod again once it is gone (a StatefulSet's, a DaemonSet's). */
function comesBack(pod: Pod): boolean {
  const owner = workloadOfKind(pod);
  return owner !== undefined && workloadKind(owner.kind).deletedPodsReturn;
}

/** The pod as its controller makes it again: the same spec, unbound, Pending. */
function again(pod: Pod): Pod {
  const { nodeName: _bound, ...spec } = pod.spec;
  const { deletionTimestamp: _deleted, ...metadata } = pod.metadata;
  return {
    ...pod,
    metadata: { ...metadata, uid: `${pod.metadata.uid ?? pod.metadata.name ?? ''}/again` },
    spec,
    status: { phase: 'Pending' },
  };
}

/** Rivals at the priority of `ours`: those only the queue's order puts ahead of it or behind. */
export function rivalsTiedWith(ctx: AnalysisContext, ours: Pod): Rival[] {
  const priority = ours.spec.priority ?? 0;
  return rivalsOf(ctx).filter((r) => (r.pod.spec.priority ?? 0) === priority);
}

/** Other workloads' pods on their way out that will be gone soon (their node's kubelet confirms it). */
export function leavingNeighbours(ctx: AnalysisContext): Pod[] {
  return ctx.once('forward-leaving-neighbours', () => {
    const { snapshot } = ctx;
    const nodes = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
    return snapshot.otherPods.filter(
      (p) =>
        isTerminating(p) &&
        !isStuckTerminating(p, snapshot.capturedAt) &&
        kubeletReports(nodes.get(p.spec.nodeName ?? '')),
    );
  });
}

/** "deployment/batch (2 pods), job/nightly": the workloads of `rivals`, each once. */
export function rivalOwners(rivals: readonly Rival[]): string {
  const counts = new Map<string, number>();
  for (const r of rivals) counts.set(r.owner, (counts.get(r.owner) ?? 0) + 1);
  return [...counts].map(([owner, n]) => (n > 1 ? `${owner} (${n} pods)` : owner)).join(', ');
}
