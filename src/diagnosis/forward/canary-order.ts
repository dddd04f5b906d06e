/**
 * A basic Argo canary whose steps ahead fit the nodes in count but not in the order the
 * ReplicaSet controller removes stable pods (canary-steps.ts bounds the counts and
 * assumes the best order). Going on from where it stands, the controller scales the
 * stable ReplicaSet down one pod at a time within maxUnavailable, and the ReplicaSet
 * controller picks which pod goes (getPodsToDelete → ActivePodsWithRanks.Less: Ready
 * pods alike go by deletion cost, pods of the workload on the node, Ready-time rank and
 * then UID, which the snapshot holds). A stable pod on a node no canary pod may use (a
 * cordoned node, one the template does not select) frees no room for the canary; with
 * maxUnavailable 0 the canary pod then waits for a stable pod that is never removed.
 *
 * The steps are run as the rolling update whose bounds they keep (proxy-strategy.ts,
 * the Intervention's `promoted`): the controller reaches each step by the same one-pod
 * moves, and pauses only wait. Claimed only where every pod of ours is Ready and
 * settled (what the run starts from is what the controllers see), the run stops with a
 * canary pod Pending, and a stable pod removed on the way stood on a node no canary pod
 * may use: that removal is the cause, and the count bound could not see it.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { isRolloutObjects } from '../snapshot/types.js';
import { nextPod } from '../rollout/surge-proof.js';
import { stepsAhead } from '../workloads/rollout/basic-canary.js';
import { workloadKind } from '../workloads/index.js';
import type { PodAt, StepShortfall } from './canary-steps.js';
import { podPhases } from './pod-phase.js';
import { runWithChange, type Outcome } from './run.js';

type Blocked = Extract<Outcome, { result: 'blocked' }>;

export function canaryOrderShortfall(ctx: AnalysisContext): Blocked | undefined {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return undefined;
  const kind = workloadKind(snapshot);
  const object = kind.object(snapshot);
  if (kind.strategy(object).argo !== 'canary') return undefined;
  const halt = kind.halt?.(snapshot);
  if (halt && halt.code !== 'RolloutPaused') return undefined;
  const phases = podPhases(ctx);
  if (snapshot.pods.length === 0 || snapshot.pods.some((p) => phases.get(p) !== 'ready')) return undefined;
  const ahead = stepsAhead(snapshot.rollout);
  const { stable, current } = kind.revisions(snapshot);
  const stablePods = stable?.pods ?? [];
  if (!current || stablePods.length === 0) return undefined;
  const outcome = runWithChange(ctx, { promoted: true }).outcome;
  if (outcome.result !== 'blocked' || outcome.refused || outcome.pending.length === 0) return undefined;
  const incoming = nextPod(snapshot);
  const usable = new Set(
    snapshot.nodes.filter((n) => isEligible(n, incoming.spec)).map((n) => n.metadata.name ?? ''),
  );
  const removedInOrder = outcome.steps.flatMap((s) => (s.kind === 'old-removed' ? [s.pod] : []));
  const removedNames = new Set(removedInOrder);
  const at = (p: Pod): PodAt => ({ pod: p.metadata.name ?? '', node: p.spec.nodeName ?? '' });
  const unusable = stablePods
    .filter((p) => removedNames.has(p.metadata.name ?? '') && !usable.has(p.spec.nodeName ?? ''))
    .map(at);
  const kept = stablePods
    .filter((p) => !removedNames.has(p.metadata.name ?? '') && usable.has(p.spec.nodeName ?? ''))
    .map(at);
  // The cause is the order only where room a canary pod may use was spent on a removal
  // elsewhere and a stable pod still holds such room.
  if (unusable.length === 0 || kept.length === 0) return undefined;
  const seen = new Set(snapshot.pods.map((p) => p.metadata.name));
  const readyMade = outcome.steps.filter((s) => s.kind === 'ready' && !seen.has(s.pod));
  const canaryAtStop = current.pods.length + readyMade.length;
  const replicas = kind.desiredReplicas(object);
  const step = ahead.find((s) => s.canary > canaryAtStop) ?? promotion(snapshot.rollout, replicas);
  return {
    ...outcome,
    step: {
      ...step,
      room: canaryAtStop + stablePods.length - removedNames.size,
      surgeOnly: false,
      order: { run: true, removedInOrder, unusable, kept },
    },
  };
}

/** The promotion after the last step: every replica a canary pod. */
function promotion(
  rollout: { spec: { strategy?: { canary?: { steps?: unknown[] } } } },
  replicas: number,
): StepShortfall['step'] {
  const counts = { canary: replicas, stable: 0 };
  return {
    index: rollout.spec.strategy?.canary?.steps?.length ?? 0,
    weight: 100,
    action: 'promotion',
    promotion: true,
    ...counts,
    withoutSurge: counts,
    room: 0,
    surgeOnly: false,
  };
}
