/**
 * set-rolling-update: RollingUpdate with maxSurge 0, so old pods go before new ones
 * start (builders/strategy-plans.ts; the restart in the same patch for a stuck rollout).
 * Answers a surge deadlock now (RolloutSurgeDeadlock) and one predicted for the next
 * rollout (RolloutAtRisk: strategy only, nothing restarts). Pure.
 */
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { buildSetRollingUpdatePlans } from '../builders/strategy-plans.js';
import { restarts, strategyOf, workloadPaths, workloadPatchKind } from './workload-patch.js';

export const setRollingUpdate = workloadPatchKind({
  kind: 'set-rolling-update',
  workloads: ['Deployment', 'DaemonSet', 'Rollout'],
  // maxUnavailable above 0 lets old pods stop before new ones are Ready.
  spendsAvailability: true,
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
