import { messageTime } from '../../../text/time.js';
import type { RemediationPlan } from '../../../remediation/plan.js';
import { shownDigest, type ShownPlan } from '../../../trust/plan-seal.js';
import { ACTION, planButtonValue, type Requester } from './action-ids.js';
import { confirmDialogText } from './confirm-text.js';
import { asIs, joinMrkdwn, mrkdwn, trusted, userMention, type Mrkdwn } from './mrkdwn.js';
import { LIMITS, codeSections, plain, proseSections, section, type Block } from './text.js';

export { confirmDialogText } from './confirm-text.js';
export { compactPatch, dryRunText, leafChanges, patchText } from '../../use-cases/plan-text.js';
import { dryRunText, patchText } from '../../use-cases/plan-text.js';

/** Where a plan stands, as the message shows it (the port's, src/chat/use-cases/result.ts). */
export type { PlanView } from '../../use-cases/result.js';
import type { PlanView } from '../../use-cases/result.js';

/** The longest why the result message shows whole. */
const SHORT_WHY = 120;

/**
 * One line on whether the Deployment's owner (Argo CD, Flux, Helm), or with none
 * recognised an unknown writer, will undo the write; null when the plan has no verdict.
 * `short` (the result message): a why longer than SHORT_WHY (per-field reasons) and
 * the why of an unrecognised owner stay in the thread report, whole; the verdict shows.
 */
export function driftLine(plan: RemediationPlan, options: { short?: boolean } = {}): Mrkdwn | null {
  const drift = plan.drift;
  if (!drift) return null;
  if (drift.ownerRecognised === false) {
    const verdict =
      drift.reverted === false
        ? mrkdwn`:pushpin: *Not reverted*`
        : drift.reverted === true
          ? mrkdwn`:leftwards_arrow_with_hook: *Reverted*`
          : mrkdwn`:grey_question: *May be reverted*`;
    return options.short
      ? mrkdwn`${asIs(verdict)}: ${drift.by} (why in the thread)`
      : mrkdwn`${asIs(verdict)}: ${drift.why}`;
  }
  const verdict =
    drift.reverted === true
      ? mrkdwn`:leftwards_arrow_with_hook: *${drift.by} will revert this*`
      : drift.reverted === false
        ? mrkdwn`:pushpin: *${drift.by} keeps this*`
        : mrkdwn`:grey_question: *${drift.by} may revert this*`;
  if (options.short && drift.why.length > SHORT_WHY)
    return mrkdwn`${asIs(verdict)} (why, per field, in the thread)`;
  return mrkdwn`${asIs(verdict)}: ${drift.why}`;
}

/**
 * A plan in full, for the thread report: summary, the whole impact, every warning, the
 * owner's drift, the dry-run diff and the exact patch (the only place the message
 * shows it), all from the one `ShownPlan` whose digest the Apply button carries. Long
 * parts are split over sections, never cut.
 */
export function planDetailBlocks(shown: ShownPlan, heading: Mrkdwn): Block[] {
  const { plan } = shown;
  const lines = [heading, mrkdwn`*Impact:* ${plan.impact}`];
  for (const w of plan.warnings) lines.push(mrkdwn`:warning: ${w}`);
  const drift = driftLine(plan);
  if (drift) lines.push(drift);
  if (plan.drift?.fields.length) lines.push(mrkdwn`Fields written: ${plan.drift.fields.join(', ')}`);
  const patchTitle = plan.patch
    ? mrkdwn`*Exact patch* (${plan.patch.type}) of ${plan.id}`
    : mrkdwn`*Exact change* of ${plan.id}`;
  return [
    ...proseSections(joinMrkdwn(lines, '\n')),
    ...codeSections(trusted('*Server-side dry run*'), dryRunText(shown.dryRun)),
    ...codeSections(patchTitle, patchText(plan), { whole: true }),
  ];
}

/**
 * The approve (or undo) button, with a confirm dialog quoting the exact change and its
 * impact. Its value names the plan and the digest of `shown`, the very data the
 * message, its thread and the dialog are rendered from: the click is refused when the
 * stored plan is not what was shown (src/app/approvals/approve.ts). It also names
 * `requester`, who asked for the diagnosis the message shows (NO_REQUESTER for alert
 * threads), from the app's signed data: that person does not count toward a
 * two-person approval. Without one (null, not known) the value names none, and a
 * two-person approval is refused at the click.
 */
export function planButton(
  shown: ShownPlan,
  index: number,
  view: PlanView,
  options: { undo?: boolean; primary?: boolean; requester?: Requester | null } = {},
): Block {
  const { plan } = shown;
  const base = options.undo ? ACTION.undo : ACTION.approve;
  const actionId = `${base}.${index}`;
  // Approved and expired plans keep a button (so the message layout stays) that only
  // reports the state: it must never apply anything, and it has no confirm dialog.
  if (view.state === 'expired') {
    return {
      type: 'button',
      action_id: `${ACTION.status}.${index}`,
      text: plain(`Expired: ${plan.kind} (re-run)`, LIMITS.buttonText),
      value: plan.id,
    };
  }
  if (view.state === 'claimed') {
    return {
      type: 'button',
      action_id: `${ACTION.status}.${index}`,
      text: plain(`Approved: ${plan.kind}`, LIMITS.buttonText),
      value: plan.id,
    };
  }
  const label = `${options.undo ? 'Undo' : 'Apply'}: ${plan.kind}${view.required && view.required > 1 ? ` (${view.approvals ?? 0}/${view.required} approvals)` : ''}`;
  const confirmText = confirmDialogText(plan, { undo: options.undo === true });
  // One primary button per message (the recommended fix); Undo is the danger one.
  const style = options.undo ? 'danger' : options.primary === false ? undefined : 'primary';
  return {
    type: 'button',
    action_id: actionId,
    ...(style ? { style } : {}),
    text: plain(label, LIMITS.buttonText),
    value: planButtonValue(plan.id, shownDigest(shown), options.requester ?? null),
    confirm: {
      title: plain(
        `${options.undo ? 'Undo' : 'Apply'} ${plan.kind} to ${plan.target.name}?`,
        LIMITS.confirmTitle,
      ),
      text: plain(confirmText, LIMITS.confirmText),
      confirm: plain(options.undo ? 'Undo it' : 'Apply it', LIMITS.confirmButton),
      deny: plain('Cancel', LIMITS.confirmButton),
    },
  };
}

/** "Approved by @a and @b at 12:03 UTC" */
export function approvalLine(plan: RemediationPlan, view: PlanView): Block | null {
  if (view.state === 'claimed') {
    const who = joinMrkdwn(view.approvers.map(userMention), ' and ');
    return section(
      mrkdwn`:white_check_mark: *${plan.kind}* approved by ${asIs(who)} at ${messageTime(view.at)}`,
    );
  }
  if (view.state === 'expired')
    return section(mrkdwn`:hourglass: *${plan.kind}* expired; press Re-run for a fresh diagnosis and plan.`);
  return null;
}
