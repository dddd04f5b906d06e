/**
 * The removal of a node exclusion, proved before the worker writes it: the
 * removal changes the pod template, so it starts a rollout like any plan that does, and
 * it is run forward from the workload as read now (plan-proof.ts). It is written only
 * where that rollout reaches its goal and keeps every floor its owners set; otherwise
 * it waits (the sweep tries again once its claim lapses) with the reason recorded. No
 * person sees this removal at the time it is written (its approver chose the expiry
 * when approving the exclusion), so a removal below a budget's floor waits too.
 */
import { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { proofBrief } from '../remediation/proof-text.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { provePlan } from './plan-proof.js';

export type RemovalProof = { ok: true; proof?: string } | { ok: false; reason: string };

export function proveRemoval(snapshot: WorkloadSnapshot, plan: RemediationPlan): RemovalProof {
  const verdict = provePlan(new AnalysisContext(snapshot), plan);
  if (!verdict) return { ok: true };
  switch (verdict.verdict) {
    case 'proved':
      return { ok: true, proof: proofBrief(verdict.proof) };
    case 'below-floor':
      return {
        ok: false,
        reason: `run forward, the rollout it starts takes serving pods below PodDisruptionBudget ${verdict.floor.budget} (${proofBrief(verdict.proof)})`,
      };
    case 'refused':
      return { ok: false, reason: verdict.reason };
  }
}
