import type { NotifyJob } from '../../queue/schemas.js';
import { ACTION } from '../blocks/action-ids.js';
import { planButton, planSection } from '../blocks/plan-blocks.js';
import type { DryRunSummary, StoredPlan } from '../../plans/store.js';
import {
  asIs,
  escapeMrkdwn,
  joinMrkdwn,
  mrkdwn,
  trusted,
  userMention,
  type Mrkdwn,
} from '../blocks/mrkdwn.js';
import { LIMITS, context, plain, section, truncate, type Block } from '../blocks/text.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const HEADLINE: Record<Outcome['stage'], string> = {
  applied: ':white_check_mark: applied',
  'already-applied': ':information_source: already applied',
  'rolled-out': ':rocket: rolled out',
  'still-failing': ':warning: still failing',
  refused: ':no_entry: refused',
  failed: ':x: failed',
  timeout: ':hourglass: rollout not finished in time',
};

/** Thread reply for a remediation step; refusals and failures offer Re-run, applied steps offer Undo. */
export function remediationOutcomeMessage(
  job: Outcome,
  undo?: StoredPlan,
  now = Date.now(),
): { text: Mrkdwn; blocks: Block[] } {
  const approval = job.approvedBy?.length
    ? mrkdwn` (approved by ${asIs(joinMrkdwn(job.approvedBy.map(userMention), ' and '))})`
    : trusted('');
  const headline = trusted(HEADLINE[job.stage]);
  const text = mrkdwn`${HEADLINE[job.stage].replace(/^:[a-z_]+: /, '')}: ${truncate(job.detail, 500)}${asIs(approval)}`;
  const blocks: Block[] = [
    section(mrkdwn`*${asIs(headline)}*: ${asIs(escapeMrkdwn(truncate(job.detail, 1500)))}${asIs(approval)}`),
    context(mrkdwn`plan ${job.planId} · cluster ${job.cluster}`),
  ];
  const buttons: Block[] = [];
  // Undo is a stored plan like any other: the approver sees its exact patch, the
  // server's dry run and its impact before the confirm, and it is approval-gated.
  if (undo && undo.expiresAt > now) {
    blocks.push(planSection(undo.plan, undo.dryRun as DryRunSummary | undefined));
    buttons.push(planButton(undo.plan, 0, { state: 'open', expiresAt: undo.expiresAt }, { undo: true }));
  }
  if ((job.stage === 'refused' || job.stage === 'failed') && job.rerun) {
    buttons.push({
      type: 'button',
      action_id: ACTION.rerun,
      text: plain('Re-run', LIMITS.buttonText),
      value: `${job.cluster}/${job.rerun.namespace}/${job.rerun.name}`,
    });
  }
  if (buttons.length) blocks.push({ type: 'actions', elements: buttons });
  return { text, blocks };
}
