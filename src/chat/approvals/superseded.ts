/**
 * A plan id is stable for the same cluster state, so a later diagnosis of the same
 * Deployment stores the same id again, with whatever it now says about it (warnings,
 * the owner's drift, the dry run). An older message's button then no longer matches
 * the store. That is not tampering when the stored plan is exactly one the workers
 * reported in the latest diagnosis of its Deployment and the clicked message is not
 * one that latest result went to: the app kept that result signed
 * (src/chat/notify/subscriptions.ts), so a Redis writer without a worker's key cannot
 * fake this answer.
 */
import { shownDigest } from '../../trust/plan-seal.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import { diagnoseJobId } from '../../queue/job-ids.js';
import { platformOf } from '../../platforms/chat-refs.js';
import type { MessageRef, Subscriptions } from '../notify/subscriptions.js';

/**
 * Is `stored` a plan of the latest worker-signed diagnosis of its Deployment, exactly as
 * that result shows it, and `clicked` an earlier message (not one showing that result)?
 */
export async function remadeByLaterDiagnosis(
  subscriptions: Pick<Subscriptions, 'latestResult'>,
  stored: StoredPlan,
  clicked: MessageRef,
): Promise<boolean> {
  // Undo plans come from an apply, not from a diagnosis.
  if (stored.undoOf !== undefined) return false;
  const { namespace, name } = stored.plan.target;
  let jobId: string;
  try {
    jobId = diagnoseJobId(namespace, name, stored.plan.target.kind);
  } catch {
    return false; // not a name a diagnosis could have made
  }
  const latest = await subscriptions.latestResult(stored.cluster, jobId);
  if (!latest || latest.result.outcome.status !== 'diagnosed') return false;
  // A message the latest result went to shows that result: a mismatch there is no re-diagnosis.
  if (
    latest.shownIn.some(
      (m) => platformOf(m) === platformOf(clicked) && m.channel === clicked.channel && m.ts === clicked.ts,
    )
  )
    return false;
  const { outcome, cluster } = latest.result;
  const plan = outcome.diagnosis.remediations.find((p) => p.id === stored.plan.id);
  if (!plan) return false;
  const dryRun = outcome.dryRuns[plan.id];
  return shownDigest({ plan, cluster, ...(dryRun ? { dryRun } : {}) }) === shownDigest(stored);
}
