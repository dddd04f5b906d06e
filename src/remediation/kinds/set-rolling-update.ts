/**
 * set-rolling-update: RollingUpdate with maxSurge 0, so old pods go before new ones
 * start (builders/strategy-plans.ts; the restart in the same patch for a stuck rollout).
 * Answers a surge deadlock now (RolloutSurgeDeadlock) and one predicted for the next
 * rollout (RolloutAtRisk: strategy only, nothing restarts). Pure.
 */
import type { ResolvedStrategy } from '../../diagnosis/resolved-strategy.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { WorkloadPatchPlan } from '../plan.js';
import { buildSetRollingUpdatePlans } from '../builders/strategy-plans.js';
import { restarts, strategyOf, workloadPaths, workloadPatchKind } from './workload-patch.js';

/**
 * The workload already runs RollingUpdate with the maxSurge and maxUnavailable the patch
 * writes (an Argo Rollout's canary bounds are never taken for the same).
 */
function sameRollingUpdate(plan: WorkloadPatchPlan, current: ResolvedStrategy): boolean {
  if (!('patch' in plan)) return false;
  const wanted = rollingValues(plan.patch.body);
  if (!wanted || current.type !== 'RollingUpdate' || current.argo) return false;
  return (
    String(wanted.maxSurge) === String(current.maxSurge?.raw) &&
    String(wanted.maxUnavailable) === String(current.maxUnavailable?.raw)
  );
}

/** The maxSurge and maxUnavailable a patch body writes (wherever the kind keeps them). */
function rollingValues(body: unknown): { maxSurge: unknown; maxUnavailable: unknown } | undefined {
  if (!body || typeof body !== 'object') return undefined;
  const record = body as Record<string, unknown>;
  if ('maxSurge' in record && 'maxUnavailable' in record)
    return { maxSurge: record.maxSurge, maxUnavailable: record.maxUnavailable };
  for (const value of Object.values(record)) {
    const found = rollingValues(value);
    if (found) return found;
  }
  return undefined;
}

export const setRollingUpdate = workloadPatchKind({
  kind: 'set-rolling-update',
  workloads: ['Deployment', 'DaemonSet', 'Rollout'],
  // maxUnavailable above 0 lets old pods stop before new ones are Ready.
  spendsAvailability: true,
  turnsOnReplicas: true,
  goal: 'rollout-completes',
  alreadySet: sameRollingUpdate,
  answers: {
    RolloutSurgeDeadlock: buildSetRollingUpdatePlans,
    // Preventive: strategy only, nothing restarts.
    RolloutAtRisk: buildSetRollingUpdatePlans,
  },
  paths: (workload) => [...workloadPaths(workload).strategy, workloadPaths(workload).restartedAt],
  change: (plan, target) => {
    const s = strategyOf(plan);
    if (workloadKind(plan.target.kind).surgeFix === 'canary') {
      return `Set the canary's maxSurge ${String(s.maxSurge)}, maxUnavailable ${String(s.maxUnavailable)} on ${target} (the stable pods may go first; nothing restarts).`;
    }
    // The restart time is the moment of the apply (the patch carries a marker for it).
    const restart = restarts(plan) ? ` and restart ${target} now` : ` of ${target}`;
    return `Set the strategy to RollingUpdate with maxSurge ${String(s.maxSurge)}, maxUnavailable ${String(s.maxUnavailable)}${restart}.`;
  },
});
