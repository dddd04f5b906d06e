import type { PlanStore } from '../../plans/store.js';
import { notifyJobSchema } from '../../queue/schemas.js';
import type { PlanView } from '../blocks/plan-blocks.js';
import {
  renderDiagnosis,
  renderOutcome,
  renderProgress,
  type RenderedMessage,
} from '../blocks/result-message.js';

/** Where one stored plan stands now: open, expired or claimed. */
export async function planView(plans: PlanStore, id: string, now = Date.now()): Promise<PlanView> {
  const [stored, claim] = await Promise.all([plans.get(id), plans.claimOf(id)]);
  if (claim) return { state: 'claimed', ...claim };
  if (!stored || stored.expiresAt < now) return { state: 'expired' };
  return { state: 'open', expiresAt: stored.expiresAt };
}

/**
 * Renders a run's stored payload (a diagnosis-progress or diagnosis-result notify
 * job) into a message, reading plan states fresh so buttons show expiry and claims.
 */
export async function renderRunPayload(
  plans: PlanStore,
  payload: string,
): Promise<RenderedMessage & { fullReport?: string }> {
  const job = notifyJobSchema.parse(JSON.parse(payload));
  if (job.kind === 'diagnosis-progress') return renderProgress(job.text);
  if (job.kind !== 'diagnosis-result') throw new Error(`not a run payload: ${job.kind}`);
  const outcome = job.outcome;
  if (outcome.status === 'diagnosed') {
    const views: Record<string, PlanView> = {};
    for (const plan of outcome.diagnosis.remediations) views[plan.id] = await planView(plans, plan.id);
    return {
      ...renderDiagnosis({
        cluster: job.cluster,
        diagnosis: outcome.diagnosis,
        dryRuns: outcome.dryRuns,
        plans: views,
      }),
      fullReport: outcome.fullReport,
    };
  }
  const target = parseTarget(job.jobId);
  return renderOutcome(job.cluster, outcome, target);
}

/** The Deployment a diagnose job id names ("diagnose.<ns>.<name>"), for the Re-run button. */
export function parseTarget(jobId: string): { namespace: string; name: string } | null {
  const match = /^diagnose\.([^.]+)\.(.+)$/.exec(jobId);
  return match?.[1] && match[2] ? { namespace: match[1], name: match[2] } : null;
}
