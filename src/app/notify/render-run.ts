import type { PlanStore } from '../../queue/plan-store.js';
import type { RunUpdate } from '../../queue/schemas.js';
import type { Requester } from '../../chat/actions.js';
import { runMessages, type PlanView } from '../../chat/use-cases/result.js';
import { SLACK, renderRun, type SlackRun } from '../../chat/slack/render.js';

/** Where one stored plan stands now: open, expired or claimed. */
export async function planView(plans: PlanStore, id: string, now = Date.now()): Promise<PlanView> {
  const [stored, claim] = await Promise.all([plans.get(id), plans.claimOf(id)]);
  if (claim) return { state: 'claimed', ...claim };
  if (!stored || stored.expiresAt < now) return { state: 'expired' };
  return { state: 'open', expiresAt: stored.expiresAt };
}

/**
 * Renders a run's latest update (progress or result) for Slack: the port's messages
 * (src/chat/use-cases/result.ts) through the Slack adapter, with, for a result, its
 * thread report. Plan states are read fresh so buttons show expiry and claims.
 * `message.requester`: who asked for the run in this message, from the app's signed
 * subscription (NO_REQUESTER in alert threads), put in its Apply buttons.
 */
export async function renderRunUpdate(
  plans: PlanStore,
  job: RunUpdate,
  message: { approvedPlan?: string | null; requester: Requester },
): Promise<SlackRun> {
  const views: Record<string, PlanView> = {};
  if (job.kind === 'diagnosis-result' && job.outcome.status === 'diagnosed')
    for (const plan of job.outcome.diagnosis.remediations) views[plan.id] = await planView(plans, plan.id);
  return renderRun(
    runMessages(job, views, {
      requester: message.requester,
      approvedPlan: message.approvedPlan ?? null,
      platform: SLACK,
    }),
  );
}
