import type { RemediationPlan } from '../../remediation/plan.js';
import type { DryRunSummary } from '../../plans/store.js';
import { ACTION } from './action-ids.js';
import { confirmDialogText } from './confirm-text.js';
import { asIs, escapeMrkdwn, joinMrkdwn, mrkdwn, userMention } from './mrkdwn.js';
import { LIMITS, codeSection, plain, section, truncate, type Block } from './text.js';

export { confirmDialogText } from './confirm-text.js';

/** Where a plan stands, as the message shows it. */
export type PlanView =
  | { state: 'open'; expiresAt: number; approvals?: number; required?: number }
  | { state: 'expired' }
  | { state: 'claimed'; approvers: string[]; at: number };

/** The exact change on one line, as the plan section shows it. */
export function compactPatch(plan: RemediationPlan): string {
  if (plan.patch) return JSON.stringify(plan.patch.body);
  return plan.pods ? `delete pods ${plan.pods.map((p) => p.name).join(', ')}` : '(no patch)';
}

function formatChange(change: { path: string; before?: unknown; after?: unknown }): string {
  const show = (v: unknown): string => (v === undefined ? '(unset)' : truncate(JSON.stringify(v), 80));
  return `${change.path}: ${show(change.before)} → ${show(change.after)}`;
}

/** The plan's description: summary, impact, warnings, and what the dry run says will change. */
export function planSection(plan: RemediationPlan, dryRun: DryRunSummary | undefined): Block {
  const lines = [mrkdwn`*${plan.summary}*`, mrkdwn`Impact: ${plan.impact}`];
  for (const w of plan.warnings.slice(0, 3)) lines.push(mrkdwn`:warning: ${w}`);
  let body: string;
  if (dryRun?.ok)
    body =
      dryRun.changes.length === 0
        ? 'server dry run: no field changes'
        : `server dry run:\n${dryRun.changes.slice(0, 8).map(formatChange).join('\n')}`;
  else if (dryRun) body = `server dry run refused: ${dryRun.reason}`;
  else body = 'server dry run: not available';
  body += `\n${plan.patch ? `${plan.patch.type} patch: ` : ''}${compactPatch(plan)}`;
  return codeSection(joinMrkdwn(lines, '\n'), body);
}

/**
 * True when a rendered plan section shows the plan's whole patch. The confirm dialog
 * points there; when a patch was too long for the section the message says so and
 * the full report (which has every patch) goes to the thread.
 */
export function showsWholePatch(block: Block, plan: RemediationPlan): boolean {
  const text = (block.text as { text?: string } | undefined)?.text ?? '';
  return text.includes(escapeMrkdwn(compactPatch(plan)));
}

/** The approve (or undo) button, with a confirm dialog quoting the exact patch and its impact. */
export function planButton(
  plan: RemediationPlan,
  index: number,
  view: PlanView,
  options: { undo?: boolean } = {},
): Block {
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
  const confirmText = confirmDialogText(plan);
  return {
    type: 'button',
    action_id: actionId,
    style: options.undo ? 'danger' : 'primary',
    text: plain(label, LIMITS.buttonText),
    value: plan.id,
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
    const when = new Date(view.at).toISOString().replace('T', ' ').slice(0, 16);
    const who = joinMrkdwn(view.approvers.map(userMention), ' and ');
    return section(mrkdwn`:white_check_mark: *${plan.kind}* approved by ${asIs(who)} at ${when} UTC`);
  }
  if (view.state === 'expired')
    return section(mrkdwn`:hourglass: *${plan.kind}* expired; press Re-run for a fresh diagnosis and plan.`);
  return null;
}
