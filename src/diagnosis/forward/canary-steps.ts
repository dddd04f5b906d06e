/**
 * Whether an Argo Rollout's basic canary can pass the setWeight steps still ahead. The
 * controller moves past a step only once the canary runs at the step's count beside the
 * stable pods at theirs (basic-canary.ts, stepsAhead), so a step the nodes or the quota
 * cannot hold stops the rollout for good, even where the end state (every pod new)
 * would fit. Claimed only where a canary pod and a stable pod are alike for the
 * scheduler and the quota (requests, host ports, placement rules, priority): then the
 * count of such pods the eligible nodes hold, with every pod of ours gone, bounds what
 * any order can place. Anything else makes no claim.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod, PodSpec } from '../k8s.js';
import { isEligible } from '../base/node-match.js';
import { hostPorts } from '../base/pod-constraints.js';
import { holdsResources, isTerminating } from '../base/pods.js';
import { isRolloutObjects } from '../snapshot/types.js';
import { stepsAhead, type CanaryCounts, type StepCounts } from '../workloads/rollout/basic-canary.js';
import { workloadKind } from '../workloads/index.js';
import { desiredReplicas, resolveStrategy } from '../workloads/rollout/rollout-strategy.js';
import { readyDeletionOrder } from './deletion-queue.js';
import { podPhases } from './pod-phase.js';
import type { QuotaRef } from './world.js';

/** The stable pods that run now: holding what they asked for, not on their way out. */
export function runningStable(ctx: AnalysisContext): Pod[] {
  const { snapshot } = ctx;
  return (workloadKind(snapshot).revisions(snapshot).stable?.pods ?? []).filter(
    (p) => holdsResources(p) && !isTerminating(p),
  );
}

/**
 * How the stable pods went on the way to a step the counts allow (canary-order.ts):
 * every stable pod the ReplicaSet controller removed, in order; those of them on nodes
 * no canary pod may use; and the stable pods still running on nodes a canary pod could
 * use when the canary stops.
 */
export interface RemovalOrder {
  /** Seen in a run forward (canary-order.ts), not only in the step's counts. */
  run?: true;
  removedInOrder: string[];
  unusable: PodAt[];
  kept: PodAt[];
}

export interface PodAt {
  pod: string;
  node: string;
}

export interface StepShortfall {
  /**
   * `surgeOnly`: the step fits with maxSurge 0 (its counts then total spec.replicas);
   * only the surge's one more pod does not. A strategy change gets past it.
   * `order`: the counts fit, the order the stable pods go in does not (canary-order.ts).
   * `transition`: the step's counts fit, the way into it does not: its next canary pod
   * beside the stable pods maxUnavailable keeps (surgeInto); counts are that moment's.
   */
  step: StepCounts & { room: number; surgeOnly: boolean; order?: RemovalOrder; transition?: true };
  pending: Pod[];
  refused: boolean;
  quota?: QuotaRef;
}

/**
 * The first step ahead the nodes (or a quota, by `overQuota`) can never hold, or
 * undefined. One that only the surge's extra pod overfills is reported for the rollout
 * as it is (`variant` 'as-is'), never as one no change of strategy helps.
 */
export function canaryStepShortfall(
  ctx: AnalysisContext,
  incoming: Pod,
  podsThatFit: (node: Parameters<typeof isEligible>[0]) => number,
  overQuota: (count: number) => QuotaRef | undefined,
  variant: 'as-is' | 'without-old',
): StepShortfall | undefined {
  const { snapshot } = ctx;
  if (!isRolloutObjects(snapshot)) return undefined;
  const kind = workloadKind(snapshot);
  const argo = kind.strategy(kind.object(snapshot)).argo;
  if (argo !== 'canary' && argo !== 'trafficRouted') return undefined;
  // A traffic-routed canary's stable count is the controller's, not the order of
  // replacement: with the old pods gone the question is the end state alone.
  if (argo === 'trafficRouted' && variant === 'without-old') return undefined;
  const ahead = stepsAhead(snapshot.rollout);
  const into = variant === 'as-is' ? surgeInto(ctx, argo, ahead) : [];
  if (ahead.length === 0 && into.length === 0) return undefined;
  const stable = runningStable(ctx);
  if (stable.some((p) => !alike(p.spec, incoming.spec))) return undefined;
  const eligible = snapshot.nodes.filter((node) => isEligible(node, incoming.spec));
  const room = eligible.reduce((sum, node) => sum + podsThatFit(node), 0);
  // Stable pods running on nodes that take no new pod (cordoned, tainted, not selected)
  // stay there and count among the step's stable pods without using any of that room.
  const eligibleNames = new Set(eligible.map((n) => n.metadata.name ?? ''));
  const elsewhere = stable.filter((p) => p.spec.nodeName && !eligibleNames.has(p.spec.nodeName)).length;
  // Every stable pod a step asks for counts, those it asks back too (a traffic-routed
  // setCanaryScale replicas step asks for all of them with dynamicStableScale): the
  // controller scales the stable ReplicaSet before the canary's (reconcileCanaryReplicaSets),
  // so its pods are admitted and queued for the scheduler first. The quota counts every
  // pod; the nodes' room all but those kept on nodes no canary pod may use.
  const needOf = (counts: CanaryCounts): number => counts.canary + counts.stable;
  // Which stable pods a scale-down keeps is the ReplicaSet controller's to say (the last
  // in its deletion order): where it is known (every stable pod Ready), the pods kept on
  // nodes no canary pod may use are counted as they will be; else, at best, all of them.
  const ordered = variant === 'as-is' ? keptInOrder(ctx, stable, eligibleNames) : undefined;
  const keptElsewhere = (count: number, inOrder: boolean): number => {
    const keep = Math.min(count, stable.length);
    return inOrder && ordered ? ordered.keptElsewhere(keep) : Math.min(keep, elsewhere);
  };
  const onRoom = (counts: CanaryCounts, inOrder = true): number =>
    counts.canary + counts.stable - keptElsewhere(counts.stable, inOrder);
  const short = (counts: CanaryCounts, inOrder = true): { quota?: QuotaRef } | undefined => {
    const quota = overQuota(needOf(counts));
    if (quota) return { quota };
    return onRoom(counts, inOrder) > room ? {} : undefined;
  };
  // One report for a step and for the way into it: a quota's shortfall refuses the pods
  // (nothing is pending for the nodes), the nodes' leaves the ones beyond the room Pending.
  const shortfall = (
    counts: StepCounts & { transition?: true },
    over: { quota?: QuotaRef },
    surgeOnly: boolean,
    order?: RemovalOrder,
  ): StepShortfall => ({
    step: {
      ...counts,
      room: room + keptElsewhere(counts.stable, true),
      surgeOnly,
      ...(order ? { order } : {}),
    },
    pending: over.quota ? [] : Array.from({ length: Math.max(1, onRoom(counts) - room) }, () => incoming),
    refused: over.quota !== undefined,
    ...(over.quota ? { quota: over.quota } : {}),
  });
  for (const step of ahead) {
    const over = short(step);
    const surgeOnly = over !== undefined && short(step.withoutSurge) === undefined;
    // The way into a step is entered first; a step no strategy fits is the finding instead
    // (letting a stable pod go first, the way past the entry, would not get past it).
    const entering = into.find((t) => t.index === step.index);
    const entry = entering && (!over || surgeOnly) ? short(entering) : undefined;
    if (entering && entry) return shortfall(entering, entry, true);
    if (!over) continue;
    if (surgeOnly && variant !== 'as-is') continue;
    // Short only in the controller's order: the best order would fit.
    const order = !over.quota && short(step, false) === undefined ? ordered?.order(step.stable) : undefined;
    return shortfall(step, over, order ? false : surgeOnly, order);
  }
  // A basic canary's promotion (to every replica) is entered the same way; its end state is final-state.ts's.
  const promotion = into.find((t) => t.promotion);
  const entry = promotion && short(promotion);
  if (promotion && entry) return shortfall(promotion, entry, true);
  return undefined;
}

/**
 * What a basic canary holds at once on its way into each step that adds canary pods
 * (CalculateReplicaCountsForBasicCanary): the controller adds a canary pod first, up to
 * spec.replicas + maxSurge, and scales the stable ReplicaSet down only as far as the pods
 * available allow (spec.replicas - maxUnavailable). So the first new canary pod runs
 * beside every stable pod the available count still needs: with maxUnavailable 0, as many
 * pods as spec.replicas + 1. Each entry has the step's index (the promotion: past the last),
 * the canary pods so far plus that one, and the stable pods kept beside it.
 */
function surgeInto(
  ctx: AnalysisContext,
  argo: string,
  ahead: readonly StepCounts[],
): (StepCounts & { transition: true })[] {
  const { snapshot } = ctx;
  if (argo !== 'canary' || !isRolloutObjects(snapshot)) return [];
  const { rollout } = snapshot;
  const status = rollout.status ?? {};
  // Not mid-update (as stepsAhead): aborted, promoted in full, or at its stable revision.
  if (status.abort || status.promoteFull || !status.stableRS || status.currentPodHash === status.stableRS)
    return [];
  const strategy = resolveStrategy(rollout);
  const surge = strategy.maxSurge?.value ?? 0;
  if (surge < 1) return [];
  const replicas = desiredReplicas(rollout);
  const unavailable = strategy.maxUnavailable?.value ?? 0;
  const current = workloadKind(snapshot).revisions(snapshot).current?.pods ?? [];
  let before = current.filter((p) => holdsResources(p) && !isTerminating(p)).length;
  const steps = rollout.spec.strategy?.canary?.steps ?? [];
  const full = { canary: replicas, stable: 0 };
  const targets: StepCounts[] = [
    ...ahead,
    {
      index: steps.length,
      weight: 100,
      action: 'promotion',
      promotion: true,
      ...full,
      withoutSurge: full,
    },
  ];
  const into: (StepCounts & { transition: true })[] = [];
  for (const target of targets) {
    if (target.canary > before) {
      const stable = Math.max(target.stable, replicas - unavailable - before);
      into.push({ ...target, canary: before + 1, stable, transition: true });
    }
    before = Math.max(before, target.canary);
  }
  return into;
}

/**
 * The stable pods in the ReplicaSet controller's deletion order, where every one is
 * Ready (readyDeletionOrder): how many of those a scale-down to `keep` leaves on nodes no
 * canary pod may use, and the order said for the finding.
 */
function keptInOrder(
  ctx: AnalysisContext,
  stable: readonly Pod[],
  usable: ReadonlySet<string>,
): { keptElsewhere(keep: number): number; order(count: number): RemovalOrder } | undefined {
  const phases = podPhases(ctx);
  if (stable.some((p) => phases.get(p) !== 'ready')) return undefined;
  const related = ctx.snapshot.pods.filter((p) => holdsResources(p) && !isTerminating(p));
  const order = readyDeletionOrder(stable, related, Date.parse(ctx.snapshot.capturedAt));
  const unusable = (p: Pod): boolean => !usable.has(p.spec.nodeName ?? '');
  const at = (p: Pod): PodAt => ({ pod: p.metadata.name ?? '', node: p.spec.nodeName ?? '' });
  return {
    keptElsewhere: (keep) => order.slice(order.length - keep).filter(unusable).length,
    order: (count) => {
      const keep = Math.min(count, order.length);
      const removed = order.slice(0, order.length - keep);
      return {
        removedInOrder: removed.map((p) => p.metadata.name ?? ''),
        unusable: removed.filter(unusable).map(at),
        kept: order
          .slice(order.length - keep)
          .filter((p) => !unusable(p))
          .map(at),
      };
    },
  };
}

/** The same pod for the scheduler and the quota: resources, host ports, placement rules, priority. */
function alike(a: PodSpec, b: PodSpec): boolean {
  const shape = (spec: PodSpec): string =>
    JSON.stringify([
      [...spec.containers, ...(spec.initContainers ?? [])].map((c) => [
        c.resources ?? null,
        c.restartPolicy ?? null,
      ]),
      hostPorts(spec),
      spec.nodeSelector ?? null,
      spec.affinity ?? null,
      spec.tolerations ?? null,
      spec.topologySpreadConstraints ?? null,
      spec.priority ?? 0,
      spec.preemptionPolicy ?? null,
      spec.resourceClaims ?? null,
      spec.overhead ?? null,
    ]);
  return shape(a) === shape(b);
}
