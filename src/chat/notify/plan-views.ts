import type { PlanStore } from '../../queue/plan-store.js';
import type { RunUpdate } from '../../queue/schemas.js';
import type { PlanView } from '../use-cases/result.js';

/** Where one stored plan stands now: open, expired or claimed. */
async function planView(plans: PlanStore, id: string, now = Date.now()): Promise<PlanView> {
  const [stored, claim] = await Promise.all([plans.get(id), plans.claimOf(id)]);
  if (claim) return { state: 'claimed', ...claim };
  if (!stored || stored.expiresAt < now) return { state: 'expired' };
  return { state: 'open', expiresAt: stored.expiresAt };
}

/**
 * Where each plan of a run's result stands now, read fresh so its buttons show expiry
 * and claims (src/chat/use-cases/result.ts); none for progress or a failed run.
 */
export async function planViews(plans: PlanStore, update: RunUpdate): Promise<Record<string, PlanView>> {
  const views: Record<string, PlanView> = {};
  if (update.kind !== 'diagnosis-result' || update.outcome.status !== 'diagnosed') return views;
  for (const plan of update.outcome.diagnosis.remediations) views[plan.id] = await planView(plans, plan.id);
  return views;
}
