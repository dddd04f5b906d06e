/**
 * The floor a workload's owners declared: the PodDisruptionBudgets over its pods
 * (DESIGN.md §4d). The workload controllers do not consult them (their own scale-downs
 * and rolling updates delete pods directly), so a plan that scales, restarts or deletes
 * is held to them here. For each budget that selects the workload's pods, the floor is
 * the disruption controller's `desiredHealthy` (pkg/controller/disruption,
 * getExpectedPodCount): `minAvailable` as an integer, or a percentage of the
 * controllers' scale rounded up; `maxUnavailable` (rounded up) taken from that scale.
 * Pods of other workloads the budget also selects count towards it as its status says
 * (`currentHealthy` less our Ready pods), so the floor is stated in this workload's
 * own serving pods. Budgets not read leave the floor unknown, never absent.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { Pod } from '../k8s.js';
import type { PodDisruptionBudget } from '../k8s-policy.js';
import { matchesLabelSelector } from '../base/pod-constraints.js';
import { isReady } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';

export interface Floor {
  /** The budget's name. */
  budget: string;
  /** How many of this workload's pods must stay serving for the budget to hold. */
  minServing: number;
  /** The budget as written, in words: "minAvailable 3", "maxUnavailable 25%". */
  rule: string;
}

/** The strictest floor over the workload's pods, 'unknown' when budgets were not read, undefined when none selects them. */
export function workloadFloor(ctx: AnalysisContext): Floor | 'unknown' | undefined {
  return ctx.once('guards-floor', () => {
    const budgets = ctx.snapshot.guards?.podDisruptionBudgets;
    if (!budgets) return 'unknown';
    const floors = budgets.flatMap((b) => floorOf(ctx, b) ?? []);
    return floors.sort((a, b) => b.minServing - a.minServing)[0];
  });
}
function selectsOurs(ctx: AnalysisContext, budget: PodDisruptionBudget): boolean {
  const { snapshot } = ctx;
  const namespace = snapshot.target.namespace;
  if ((budget.metadata.namespace ?? namespace) !== namespace) return false;
  // policy/v1: a null selector selects no pod, an empty one every pod of the namespace.
  const selector = budget.spec?.selector;
  if (!selector) return false;
  const labels = snapshot.pods.length
    ? snapshot.pods.map((p) => p.metadata.labels ?? {})
    : [workloadKind(snapshot).podTemplate(workloadKind(snapshot).object(snapshot)).metadata?.labels ?? {}];
  return labels.some((l) => matchesLabelSelector(l, selector));
}

function floorOf(ctx: AnalysisContext, budget: PodDisruptionBudget): Floor | undefined {
  if (!selectsOurs(ctx, budget)) return undefined;
  const { snapshot } = ctx;
  const kind = workloadKind(snapshot);
  const scale = kind.desiredReplicas(kind.object(snapshot));
  const spec = budget.spec ?? {};
  const status = budget.status;
  const ours = snapshot.pods.filter(
    (p) =>
      !p.metadata.deletionTimestamp &&
      isReady(p) &&
      spec.selector &&
      matchesLabelSelector(p.metadata.labels ?? {}, spec.selector),
  ).length;
  const fresh =
    status?.desiredHealthy !== undefined &&
    (status.observedGeneration ?? 0) >= (budget.metadata.generation ?? 0);
  if (fresh) {
    const others = Math.max(0, (status.currentHealthy ?? 0) - ours);
    return floor(budget, Math.max(0, (status.desiredHealthy ?? 0) - others));
  }
  // No status to go by: the other workloads' pods the budget selects count as they are
  // (their Ready pods serve, the others do not) and are part of the expected count, so a
  // member short of serving replicas raises our floor (a share of a budget is never
  // judged as if the other member were healthy).
  const members = otherMembers(ctx, spec.selector);
  const othersReady = members.filter(isReady).length;
  const desired = desiredHealthy(spec, scale + members.length);
  if (desired === undefined) return undefined;
  return floor(budget, Math.max(0, desired - othersReady));
}

function floor(budget: PodDisruptionBudget, minServing: number): Floor {
  const spec = budget.spec ?? {};
  return {
    budget: budget.metadata.name ?? '',
    minServing,
    rule:
      spec.maxUnavailable !== undefined
        ? `maxUnavailable ${spec.maxUnavailable}`
        : `minAvailable ${spec.minAvailable ?? 0}`,
  };
}

/** Other workloads' live pods of the namespace the budget's selector also takes. */
function otherMembers(
  ctx: AnalysisContext,
  selector: NonNullable<PodDisruptionBudget['spec']>['selector'],
): Pod[] {
  if (!selector) return [];
  const { snapshot } = ctx;
  const namespace = snapshot.target.namespace;
  const pods = snapshot.namespacePods ?? snapshot.otherPods;
  return pods.filter(
    (p) =>
      (p.metadata.namespace ?? namespace) === namespace &&
      !p.metadata.deletionTimestamp &&
      matchesLabelSelector(p.metadata.labels ?? {}, selector),
  );
}

/** getExpectedPodCount's desiredHealthy from the spec (a budget whose status was not written yet). */
function desiredHealthy(spec: NonNullable<PodDisruptionBudget['spec']>, scale: number): number | undefined {
  if (spec.maxUnavailable !== undefined) {
    const max = scaled(spec.maxUnavailable, scale);
    return max === undefined ? undefined : Math.max(0, scale - max);
  }
  if (spec.minAvailable === undefined) return undefined;
  if (typeof spec.minAvailable === 'number') return spec.minAvailable;
  return scaled(spec.minAvailable, scale);
}

/** intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true). */
function scaled(value: number | string, total: number): number | undefined {
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value.trim());
  if (!match) return undefined;
  return Math.ceil((Number(match[1]) * total) / 100);
}
