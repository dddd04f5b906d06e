import type { NotifyJob } from '../../queue/schemas.js';
import { ACTION } from '../blocks/action-ids.js';
import { LIMITS, context, escapeMrkdwn, plain, section, truncate, type Block } from '../blocks/text.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const HEADLINE: Record<Outcome['stage'], string> = {
  applying: ':gear: applying',
  applied: ':white_check_mark: applied',
  'already-applied': ':information_source: already applied',
  'rolled-out': ':rocket: rolled out',
  'still-failing': ':warning: still failing',
  refused: ':no_entry: refused',
  failed: ':x: failed',
  timeout: ':hourglass: rollout not finished in time',
};

/** Thread reply for a remediation step; refusals and failures offer Re-run, applied steps offer Undo. */
export function remediationOutcomeMessage(job: Outcome): { text: string; blocks: Block[] } {
  const approval = job.approvedBy?.length
    ? ` (approved by ${job.approvedBy.map((u) => `<@${u}>`).join(' and ')})`
    : '';
  const text = `${HEADLINE[job.stage].replace(/^:[a-z_]+: /, '')}: ${truncate(job.detail, 500)}${approval}`;
  const blocks: Block[] = [
    section(`*${HEADLINE[job.stage]}*: ${escapeMrkdwn(truncate(job.detail, 1500))}${approval}`),
    context(`plan ${job.planId} · cluster ${job.cluster}`),
  ];
  const buttons: Block[] = [];
  if (job.undoPlanId && job.stage !== 'applying') {
    buttons.push({
      type: 'button',
      action_id: `${ACTION.undo}.0`,
      style: 'danger',
      text: plain('Undo', LIMITS.buttonText),
      value: job.undoPlanId,
      confirm: {
        title: plain('Undo this change?', LIMITS.confirmTitle),
        text: plain(
          'Applies the stored inverse patch (approval required). Starts a new rollout.',
          LIMITS.confirmText,
        ),
        confirm: plain('Undo it', LIMITS.confirmButton),
        deny: plain('Cancel', LIMITS.confirmButton),
      },
    });
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
