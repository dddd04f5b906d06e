/**
 * Pending pods that stay Pending whatever the rollout does next: 'moving' (a kind the
 * forward model does not follow step by step) says only that the next step happens, and a
 * StatefulSet's controller never replaces a Pending pod (stateful_set_control.go deletes
 * only Failed or Succeeded ones), except where its Parallel update deletes a pod of another
 * revision itself: then its replacement at the update revision is what is judged
 * (ordered-block.ts `replacedByUpdate`). A pod no eligible node takes even with every pod of
 * this workload and every terminating pod gone (a volume on a cordoned node, storage no
 * node has, a template no node fits) is stuck for good (round 7b: "exit 0 while a pod is
 * already stuck for good").
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { isTerminating } from '../base/pods.js';
import { fitsOn, placementContext } from '../placement/placement.js';
import { assessRollout } from '../rollout/rollout-assessment.js';
import { occupancyKnown } from '../snapshot/types.js';
import { replacementOf } from '../placement/replacement.js';
import { workloadKind } from '../workloads/index.js';

/**
 * Pending pods judged Unschedulable that no eligible node takes even with every pod of
 * this workload gone and every terminating pod gone: nothing the rollout does next
 * frees their room. Only from nodes and occupancy read whole.
 */
export function pendingForGood(ctx: AnalysisContext): Pod[] {
  const { snapshot } = ctx;
  if (snapshot.coverage.nodes !== 'complete') return [];
  if (snapshot.nodes.some((n) => !occupancyKnown(snapshot.coverage, n.metadata.name ?? ''))) return [];
  const placement = placementContext(ctx);
  const removed = new Set<Pod>([...snapshot.pods, ...snapshot.otherPods.filter(isTerminating)]);
  const kind = workloadKind(snapshot);
  const judged = (pod: Pod): Pod => {
    const replaced = kind.replacedByUpdate?.(snapshot, pod);
    return replaced?.known ? replacementOf(ctx, pod, replaced.updateRevision) : pod;
  };
  return assessRollout(ctx)
    .pending.filter((p) => p.verdict === 'unschedulable' && p.proof !== 'likely')
    .map((p) => p.pod)
    .filter((pod) => {
      const waiting = judged(pod);
      return snapshot.nodes
        .filter((n) => isEligible(n, waiting.spec))
        .every((n) => !fitsOn(placement, waiting, n, removed));
    });
}
