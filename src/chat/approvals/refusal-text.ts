/**
 * What a refused approval says and how it is audited: the clicker's words for each
 * refusal in one place (the decisions in approve.ts only pick one), and the audit line
 * every refused press writes (Approve and Propose in Git alike).
 */
import type { Audit, AuditEvent } from '../../audit.js';
import { typeOfKind, type WorkloadKind } from '../../diagnosis/workload-ref.js';
import { DEFAULT_PLATFORM, mentionsById } from '../../platforms/chat-refs.js';
import type { Platform, Rich } from '../model.js';
import { group, icon, join, plain, rich, say, strong } from '../../message/rich.js';
import { approversText } from '../use-cases/approvers.js';
import { redisTroubleWords, tryAgainWords } from '../use-cases/redis-words.js';

/**
 * Said to the clicker when the stored plan is not what the message showed, and no
 * later diagnosis the workers reported shows it either (rewritten in Redis, or a
 * diagnosis whose result has not arrived yet).
 */
export const CHANGED_SINCE_SHOWN = say`${icon('refused')} Not applied: the plan changed since it was shown (what is stored for it now differs from what this message and its thread show, and from the latest diagnosis the workers reported). Nothing was changed. Press Re-run for a fresh diagnosis; if a diagnosis of this workload was running just now, approve on its result instead. The refusal is audited.`;

/** Said to the clicker when a later diagnosis of the workload re-made the plan with other details. */
export function supersededText(name: string, kind: WorkloadKind): Rich {
  return say`${icon('superseded')} Not applied: a later diagnosis of ${typeOfKind(kind)}/${name} re-made this plan with different details (its warnings, the owner's drift or the dry run), so this message no longer shows what would be approved. Nothing was changed. Approve it on the newer result message, or press Re-run for a fresh one.`;
}

/** A refusal as one value: the audit line's reason and detail, and what the clicker reads. */
export interface Refusal {
  reason: Extract<AuditEvent, { action: 'refusal' }>['reason'];
  detail?: string;
  text: Rich;
}

/** What the clicker reads for each refusal, in one place (the decisions below only pick one). */
export const REFUSAL_TEXT = {
  unknown: say`${icon('failed')} This plan is no longer known (it expired long ago). Press Re-run for a fresh diagnosis.`,
  gone: say`${icon('failed')} This plan is no longer known. Press Re-run.`,
  // The policy's approvers: on Slack users and groups, mentioned (Slack shows an id as
  // its name). Teams cannot show an Entra object id as a name, so there they are named
  // as the policy file names them (`names:`), and the rest counted with who to ask.
  notApprover: (
    reason: string,
    approvers: readonly string[],
    platform: Platform = DEFAULT_PLATFORM,
    names: Readonly<Record<string, string>> = {},
  ): Rich => {
    const refused = (who: Rich) =>
      say`${icon('refused')} Not applied: ${reason}${who.length > 0 ? say` (${who})` : plain('')}. Nothing was changed.`;
    if (mentionsById(platform))
      return refused(
        approvers.length > 0
          ? say`approvers: ${join(
              approvers.map((id) => rich(group(platform, id))),
              ', ',
            )}`
          : [],
      );
    const named = approvers.flatMap((id) => (names[id] !== undefined ? [names[id]] : []));
    const unnamed = approvers.length - named.length;
    const rest =
      unnamed === 0
        ? plain('')
        : say`${named.length > 0 ? ' and ' : ''}${String(unnamed)} ${named.length > 0 ? 'more' : unnamed === 1 ? 'person' : 'people'} the approval policy lists by id only: ask whoever runs rollout-doctor`;
    return refused(
      approvers.length > 0
        ? say`approvers: ${join(
            named.map((name) => rich(strong(name))),
            ', ',
          )}${rest}`
        : [],
    );
  },
  outdated: (detail: string): Rich =>
    say`${icon('refused')} Not applied: ${detail}. Nothing was changed. Press Re-run for a fresh diagnosis.`,
  selfApproval: (required: number): Rich =>
    say`${icon('refused')} Not applied: you asked for this diagnosis, and this plan needs ${required} approvers other than the requester. Nothing was changed.`,
  otherPlan: say`${icon('refused')} Not applied: another fix on this message was already approved. Nothing was changed; its outcome is in the thread. Press Re-run for a fresh diagnosis.`,
  // The claim's user ids are a Redis value: Slack mentions, which Slack shows as a
  // mention only for an id of a person; elsewhere named by the policy, never as an id.
  alreadyClaimed: (
    approvers: readonly string[],
    platform: Platform = DEFAULT_PLATFORM,
    names: Readonly<Record<string, string>> = {},
    personOf?: (id: string) => string,
  ): Rich =>
    say`This plan was already approved by ${approversText(platform, approvers, names, personOf)}; it is applied once.`,
  sameApprover: plain('You already approved this plan; it needs another approver.'),
  samePerson: say`${icon('refused')} Not applied: the approvals recorded for this plan are one person's under two ids (the approval policy's people: say so). Nothing was changed; its approvals were cleared, so it needs its approvers again.`,
  notApplied: say`${icon('failed')} The approval could not be turned into a remediation job; nothing was applied, and the plan can be approved again. The failure is logged.`,
  unmarked: say`${icon('refused')} Not applied: an approval recorded for this plan was not given through this app (written into Redis, or given before its approval key changed). Nothing was changed; its approvals were cleared, so approve it again. The refusal is audited.`,
  notQueued: (error: unknown): Rich =>
    say`${icon('failed')} The remediation queue is unavailable (${redisTroubleWords(error)}); nothing was applied, and the approval was let go. Please try again ${tryAgainWords(error)}.`,
  notRecorded: (error: unknown): Rich =>
    say`${icon('failed')} The approval could not be recorded: ${redisTroubleWords(error)}. Nothing was applied. Please try again ${tryAgainWords(error)}.`,
} as const;

/** Audits a press refused: who, where, why (every press that writes or proposes). */
export function auditRefusal(
  services: { audit: Audit },
  where: Partial<Where> & { planId: string },
  user: string,
  refusal: { reason: Refusal['reason']; detail?: string },
): void {
  services.audit.record({
    action: 'refusal',
    ...where,
    user,
    reason: refusal.reason,
    ...(refusal.detail !== undefined ? { detail: refusal.detail } : {}),
  });
}

/** Where a click is, for every audit line of it. */
export type Where = { planId: string; cluster: string; namespace: string; deployment: string };

export function refuse(
  services: { audit: Audit },
  where: Partial<Where> & { planId: string },
  user: string,
  refusal: Refusal,
): { kind: 'refused'; text: Rich } {
  auditRefusal(services, where, user, refusal);
  return { kind: 'refused', text: refusal.text };
}
