/**
 * The one answer to a press on a plan that expired, whichever button it was (Approve,
 * Undo, or the status button of a plan no longer offered): nothing was changed, and
 * what to do now. An Undo says how to revert by hand.
 */
import { titleOfKind } from '../../diagnosis/workload-ref.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import type { Rich } from '../model.js';
import { icon, say } from '../../message/rich.js';

/** `stored` undefined: the plan is gone from Redis (expired long ago), so no Undo is known. */
export function expiredText(stored?: Pick<StoredPlan, 'plan' | 'undoOf'>): Rich {
  return stored?.undoOf === undefined
    ? say`${icon('expired')} This plan expired. Press Re-run for a fresh diagnosis and plan; nothing was changed.`
    : say`${icon('expired')} This Undo expired (an Undo can be approved for as long as a plan). Nothing was changed. To revert now, apply the exact patch of the undo shown in this reply by hand, after checking that the ${titleOfKind(stored.plan.target.kind)} has not moved on; a Re-run diagnoses afresh and offers no Undo.`;
}
