/**
 * How long an approved node exclusion lasts: the approver picks it beside
 * Approve, from a closed set (src/chat/actions.ts, checked with zod on the way in), and
 * it is part of what is approved: the app's mark and the signed approval name it, the
 * worker writes it as the exclusion's expires-at, and the answers and the audit say it.
 * Under a two-person rule the approvals count together only for one duration: a press
 * for another while one is recorded is refused and told the recorded one, which stays
 * binding until the plan is approved or expires (src/queue/plan-store.ts). Pure.
 */
import { plannedTtl } from '../../remediation/exclusion-times.js';
import type { ExclusionTtl, ExclusionTtlChoice } from '../../remediation/exclusion-ttl.js';
import { choiceWords } from '../../remediation/exclusion-words.js';
import type { StoredPlan } from '../../queue/plan-store.js';
import type { Rich } from '../model.js';
import { icon, say, strong } from '../../message/rich.js';

/**
 * The duration of a click, resolved against the stored plan: `lasts` what the approval
 * signs (absent: the plan's own), `ttl` what the exclusion will last (absent: the plan
 * writes no exclusion). 'not-offered': a duration sent for a plan that offers no choice.
 */
type ChosenDuration = { lasts?: ExclusionTtlChoice; ttl?: ExclusionTtl } | 'not-offered';

export function chosenDuration(lasts: ExclusionTtlChoice | undefined, stored: StoredPlan): ChosenDuration {
  const planned = stored.plan.patch ? plannedTtl(stored.plan.patch) : undefined;
  if (planned === undefined) return lasts === undefined ? {} : 'not-offered';
  // The plan's own duration chosen by name is the plan's own: approvals of it count together.
  if (lasts === undefined || lasts === planned) return { ttl: planned };
  return { lasts, ttl: lasts };
}

export const DURATION_TEXT = {
  notOffered: say`${icon('refused')} Not applied: the press named how long a node exclusion lasts, but this plan writes no exclusion. Nothing was changed. The refusal is audited.`,
  /** Another approver's approval is recorded for `theirs`; this click chose `mine`. */
  otherDuration: (theirs: string, mine: string): Rich =>
    say`${icon('refused')} Not recorded: this plan's approval so far is for an exclusion lasting ${strong(choiceWords(theirs))}, and you chose ${strong(choiceWords(mine))}. Both approvers must approve the same duration: choose ${choiceWords(theirs)} and press again to approve it, or let the plan expire and Re-run. Nothing was changed.`,
  /** "for an exclusion lasting 3d" after "Approval recorded (1/2)". */
  recordedFor: (ttl: string): Rich =>
    say` for an exclusion lasting ${strong(choiceWords(ttl))}; the other approver must choose the same duration`,
} as const;
