import type { Finding } from '../../diagnosis/finding.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot.js';
import type { RemediationPlan } from '../plan.js';
import { buildDeletePodsPlans } from './delete-pods.js';
import { buildExcludeNodePlans, pictureOf } from './exclude-node.js';
import { buildRolloutRestartPlans } from './rollout-restart.js';
import { buildScaleOldReplicaSetPlans } from './scale-old-replicaset.js';
import { buildSetRecreatePlans, buildSetRollingUpdatePlans } from './strategy.js';

/**
 * A plan builder proposes remediations for one finding. Pure, like analyzers; it may
 * return nothing when no safe change exists (the safety rules live here).
 */
export type PlanBuilder = (
  snapshot: WorkloadSnapshot,
  finding: Omit<Finding, 'remediations'>,
) => RemediationPlan[];

/** Plan builders by the finding code they address, best plan first. */
export const planBuilders: Partial<Record<string, PlanBuilder>> = {
  // The strategy plans restart in the same patch; a bare restart refuses while the
  // deadlock stands (it would recreate the same Pending pod), so it adds nothing here
  // unless the snapshot no longer shows the deadlock.
  RolloutSurgeDeadlock: (snapshot, finding) => [
    ...buildSetRollingUpdatePlans(snapshot, finding),
    ...buildSetRecreatePlans(snapshot, finding),
    // Leaves the spec alone, so no GitOps tool reverts it (drift.ts).
    ...buildScaleOldReplicaSetPlans(snapshot, finding),
    ...buildRolloutRestartPlans(snapshot, finding),
  ],
  // Preventive: strategy only, nothing restarts. Unschedulable gets no plan: no
  // strategy change makes the pod fit.
  RolloutAtRisk: (snapshot, finding) => buildSetRollingUpdatePlans(snapshot, finding),
  CrashLoopOnNode: (snapshot, finding) => {
    const picture = pictureOf(snapshot, finding);
    return [
      ...buildExcludeNodePlans(snapshot, finding, picture),
      ...buildDeletePodsPlans(snapshot, finding, picture),
    ];
  },
};
