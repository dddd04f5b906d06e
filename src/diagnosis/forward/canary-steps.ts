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
import type { QuotaRef } from './world.js';

/**
 * How the stable pods went on the way to a step the counts allow (canary-order.ts):
 * every stable pod the ReplicaSet controller removed, in order; those of them on nodes
 * no canary pod may use; and the stable pods still running on nodes a canary pod could
 * use when the canary stops.
 */
export interface RemovalOrder {
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
   */
  step: StepCounts & { room: number; surgeOnly: boolean; order?: RemovalOrder };
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
  if (ahead.length === 0) return undefined;
  const stable = (kind.revisions(snapshot).stable?.pods ?? []).filter(
    (p) => holdsResources(p) && !isTerminating(p),
  );
  if (stable.some((p) => !alike(p.spec, incoming.spec))) return undefined;
  const eligible = snapshot.nodes.filter((node) => isEligible(node, incoming.spec));
  const room = eligible.reduce((sum, node) => sum + podsThatFit(node), 0);
  // Stable pods running on nodes that take no new pod (cordoned, tainted, not selected)
  // stay there and count among the step's stable pods without using any of that room.
  const eligibleNames = new Set(eligible.map((n) => n.metadata.name ?? ''));
  const elsewhere = stable.filter((p) => p.spec.nodeName && !eligibleNames.has(p.spec.nodeName)).length;
  // A stable pod the controller keeps is one that runs now (the ReplicaSet removes
  // unscheduled pods first); one it creates again may wait unplaced. The quota counts
  // every pod; the nodes' room only those not kept elsewhere.
  const needOf = (counts: CanaryCounts): number => counts.canary + Math.min(counts.stable, stable.length);
  const onRoom = (counts: CanaryCounts): number =>
    counts.canary + Math.max(0, Math.min(counts.stable, stable.length) - elsewhere);
  const short = (counts: CanaryCounts): { quota?: QuotaRef } | undefined => {
    const quota = overQuota(needOf(counts));
    if (quota) return { quota };
    return onRoom(counts) > room ? {} : undefined;
  };
  for (const step of ahead) {
    const over = short(step);
    if (!over) continue;
    const surgeOnly = short(step.withoutSurge) === undefined;
    if (surgeOnly && variant !== 'as-is') continue;
    return {
      step: { ...step, room: room + Math.min(step.stable, elsewhere), surgeOnly },
      pending: over.quota ? [] : Array.from({ length: onRoom(step) - room }, () => incoming),
      refused: over.quota !== undefined,
      ...(over.quota ? { quota: over.quota } : {}),
    };
  }
  return undefined;
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
