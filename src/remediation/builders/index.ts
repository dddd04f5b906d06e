import type { Finding } from '../../diagnosis/finding.js';
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { NotOffered, RemediationPlan } from '../plan.js';
import { buildDeletePodsPlans } from './delete-pods.js';
import { buildExcludeNodePlans, pictureOf } from './exclude-node.js';
import { buildRolloutRestartPlans } from './rollout-restart.js';
import { buildScaleOldReplicaSetPlans } from './scale-old-replicaset.js';
import { buildCrashLoopTaintDevicePlans, buildTaintDevicePlans } from './taint-device.js';
import { buildSetRecreatePlans, buildSetRollingUpdatePlans } from './strategy.js';

/**
 * A plan builder proposes remediations for one finding. Pure, like analyzers; it may
 * return nothing when no safe change exists (the safety rules live here). It gets the
 * AnalysisContext the analyzers were handed, so it reads the same derived values
 * (rollout assessment, crash pictures, placement index) the finding came from.
 */
export type PlanBuilder = (
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  /** Says why a plan kind is not offered here, so its absence is never silent. */
  notOffered?: NotOffered,
) => RemediationPlan[];

/** Plan builders by the finding code they address, best plan first. */
export const planBuilders: Partial<Record<string, PlanBuilder>> = {
  // The strategy plans restart in the same patch; a bare restart refuses while the
  // deadlock stands (it would recreate the same Pending pod), so it adds nothing here
  // unless the snapshot no longer shows the deadlock.
  RolloutSurgeDeadlock: (ctx, finding, notOffered) => [
    ...buildSetRollingUpdatePlans(ctx, finding),
    ...buildSetRecreatePlans(ctx, finding),
    // Leaves the spec alone, so no GitOps tool reverts it (drift.ts).
    ...buildScaleOldReplicaSetPlans(ctx, finding, notOffered),
    ...buildRolloutRestartPlans(ctx, finding),
  ],
  // Preventive: strategy only, nothing restarts. Unschedulable gets no plan: no
  // strategy change makes the pod fit.
  RolloutAtRisk: (ctx, finding) => buildSetRollingUpdatePlans(ctx, finding),
  CrashLoopOnNode: (ctx, finding) => {
    const picture = pictureOf(ctx, finding);
    return [
      ...buildExcludeNodePlans(ctx, finding, picture),
      // Only where a device reports Unhealthy and the cluster serves DeviceTaintRule.
      ...buildTaintDevicePlans(ctx, finding, picture),
      ...buildDeletePodsPlans(ctx, finding, picture),
    ];
  },
  // Only where Unhealthy devices explain every crash (a multi-GPU node with healthy pods too).
  CrashLoop: (ctx, finding) => buildCrashLoopTaintDevicePlans(ctx, finding),
};
