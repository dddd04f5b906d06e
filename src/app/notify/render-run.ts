import type { PlanStore } from '../../queue/plan-store.js';
import type { RunUpdate } from '../../queue/schemas.js';
import type { Requester } from '../../chat/slack/blocks/action-ids.js';
import type { PlanView } from '../../chat/slack/blocks/plan-blocks.js';
import {
  renderDiagnosis,
  renderOutcome,
  renderProgress,
  type RenderedMessage,
} from '../../chat/slack/blocks/result-message.js';

/** Where one stored plan stands now: open, expired or claimed. */
export async function planView(plans: PlanStore, id: string, now = Date.now()): Promise<PlanView> {
  const [stored, claim] = await Promise.all([plans.get(id), plans.claimOf(id)]);
  if (claim) return { state: 'claimed', ...claim };
  if (!stored || stored.expiresAt < now) return { state: 'expired' };
  return { state: 'open', expiresAt: stored.expiresAt };
}

/**
 * Renders a run's latest update (progress or result) into a message and, for a
 * result, its thread report; plan states are read fresh so buttons show expiry and
 * claims. `message.requester`: who asked for the run in this message, from the app's
 * signed subscription (NO_REQUESTER in alert threads), put in its Apply buttons.
 */
export async function renderRunUpdate(
  plans: PlanStore,
  job: RunUpdate,
  message: { approvedPlan?: string | null; requester: Requester },
): Promise<RenderedMessage> {
  if (job.kind === 'diagnosis-progress') return renderProgress(job.text);
  const outcome = job.outcome;
  if (outcome.status === 'diagnosed') {
    const views: Record<string, PlanView> = {};
    for (const plan of outcome.diagnosis.remediations) views[plan.id] = await planView(plans, plan.id);
    return renderDiagnosis({
      cluster: job.cluster,
      diagnosis: outcome.diagnosis,
      dryRuns: outcome.dryRuns,
      plans: views,
      requester: message.requester,
      ...(message.approvedPlan ? { approvedPlan: message.approvedPlan } : {}),
    });
  }
  return renderOutcome(job.cluster, outcome, job.target ?? null);
}
