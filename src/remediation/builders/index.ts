import type { Finding } from '../../diagnosis/finding.js';
import type { WorkloadSnapshot } from '../../diagnosis/snapshot.js';
import type { RemediationPlan } from '../plan.js';
import { buildDeletePodsPlans } from './delete-pods.js';
import { buildExcludeNodePlans } from './exclude-node.js';

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
  CrashLoopOnNode: (snapshot, finding) => [
    ...buildExcludeNodePlans(snapshot, finding),
    ...buildDeletePodsPlans(snapshot, finding),
  ],
};
