import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asIs, joinMrkdwn, mrkdwn, userMention } from '../../blocks/mrkdwn.js';
import { approvalClaims, signApproval } from '../../../plans/approval-signature.js';
import { planDigest } from '../../../plans/plan-seal.js';
import { QueueUnavailableError } from '../../../queue/producers.js';
import { asSlackBlocks } from '../../blocks/text.js';
import type { AppServices } from '../../services.js';
import { clickContext, markPlanInBlocks } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Approve (or Undo) button: check the approver, claim the plan atomically, enqueue
 * the remediation, mark the message. Every refusal is ephemeral and audited.
 */
export function approvePlanAction(services: AppServices) {
  return async ({ ack, body, action, client, logger }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const { plans, policy, audit, producers, metrics } = services;
    const planId = click.value;
    const tell = (text: string): Promise<unknown> =>
      client.chat.postEphemeral({
        channel: click.channel,
        user: click.user,
        text,
        thread_ts: click.rootTs === click.messageTs ? undefined : click.rootTs,
      });

    const stored = await plans.get(planId);
    if (!stored) {
      audit.record({ action: 'refusal', planId, user: click.user, reason: 'unknown-plan' });
      await tell(
        ':x: This plan is no longer known (it expired long ago). Press Re-run for a fresh diagnosis.',
      );
      return;
    }
    const scope = { cluster: stored.cluster, namespace: stored.plan.target.namespace };
    const where = {
      planId,
      cluster: stored.cluster,
      namespace: scope.namespace,
      deployment: stored.plan.target.name,
    };
    const decision = await policy.check(click.user, scope);
    if (!decision.allowed) {
      audit.record({
        action: 'refusal',
        ...where,
        user: click.user,
        reason: 'not-approver',
        detail: decision.reason,
      });
      const who = decision.approvers
        .map((a) => (a.startsWith('S') ? `<!subteam^${a}>` : `<@${a}>`))
        .join(', ');
      await tell(
        `:no_entry: Not applied: ${decision.reason}${who ? ` (approvers: ${who})` : ''}. Nothing was changed.`,
      );
      return;
    }
    if (decision.required > 1) {
      // The two people of a two-person rule are two besides whoever asked for the diagnosis.
      const owner =
        (await services.subscriptions.ownerOf({ channel: click.channel, ts: click.messageTs })) ??
        (await services.subscriptions.ownerOf({ channel: click.channel, ts: click.rootTs }));
      if (owner?.requestedBy === click.user) {
        audit.record({ action: 'refusal', ...where, user: click.user, reason: 'self-approval' });
        await tell(
          `:no_entry: Not applied: you asked for this diagnosis, and this plan needs ${decision.required} approvers other than the requester. Nothing was changed.`,
        );
        return;
      }
    }
    const result = await plans.approve(planId, click.user, decision.required);
    switch (result.status) {
      case 'unknown':
        audit.record({ action: 'refusal', ...where, user: click.user, reason: 'unknown-plan' });
        await tell(':x: This plan is no longer known. Press Re-run.');
        return;
      case 'expired':
        audit.record({ action: 'refusal', ...where, user: click.user, reason: 'expired' });
        await client.chat.update({
          channel: click.channel,
          ts: click.messageTs,
          text: 'Plan expired',
          blocks: asSlackBlocks(
            markPlanInBlocks(
              click.blocks,
              planId,
              `Expired: ${stored.plan.kind} (re-run)`,
              mrkdwn`:hourglass: *${stored.plan.kind}* expired; press Re-run for a fresh plan.`,
            ),
          ),
        });
        await tell(':hourglass: This plan expired. Press Re-run for a fresh diagnosis; nothing was changed.');
        return;
      case 'already-claimed':
        audit.record({
          action: 'refusal',
          ...where,
          user: click.user,
          reason: 'already-claimed',
          detail: result.approvers.join(','),
        });
        await tell(
          `This plan was already approved by ${result.approvers.map((u) => `<@${u}>`).join(' and ')}; it is applied once.`,
        );
        return;
      case 'same-approver':
        audit.record({ action: 'refusal', ...where, user: click.user, reason: 'same-approver' });
        await tell('You already approved this plan; it needs another approver.');
        return;
      case 'recorded':
        audit.record({
          action: 'approval',
          ...where,
          kind: stored.plan.kind,
          user: click.user,
          result: 'recorded',
        });
        await tell(
          `Approval recorded (${result.approvals}/${result.required}); waiting for another approver.`,
        );
        return;
      case 'claimed': {
        audit.record({
          action: 'approval',
          ...where,
          kind: stored.plan.kind,
          user: click.user,
          result: 'claimed',
        });
        // The worker applies only what this signature names: the plan exactly as stored
        // when the approval completed (its digest), on this cluster, by these approvers.
        const key = services.config.approvalSigningKey;
        const approval = signApproval(
          approvalClaims({
            planId,
            digest: planDigest(result.stored),
            cluster: result.stored.cluster,
            planExpiresAt: result.stored.expiresAt,
            approvers: result.approvers,
            channel: click.channel,
            messageTs: click.rootTs,
            now: Date.now(),
            keyId: key.keyId,
          }),
          key.privateKey,
        );
        try {
          await producers.enqueueRemediate({
            planId,
            cluster: stored.cluster,
            approvedBy: result.approvers,
            channel: click.channel,
            messageTs: click.rootTs,
            approval,
          });
        } catch (error) {
          if (!(error instanceof QueueUnavailableError)) throw error;
          logger.warn(`remediation not queued: ${error.message}`);
          await plans.release(planId);
          audit.record({
            action: 'outcome',
            ...where,
            kind: stored.plan.kind,
            approvedBy: result.approvers,
            outcome: 'not-queued',
            detail: error.message,
          });
          await tell(
            ':x: The remediation queue is unavailable (Redis unreachable); nothing was applied. Try again in a minute.',
          );
          return;
        }
        metrics.remediations.inc({ kind: stored.plan.kind, outcome: 'approved' });
        // An undo plan keeps the kind it reverts: say "undo of" so the mark does not read as a re-approval.
        const what = stored.undoOf ? `undo of ${stored.plan.kind}` : stored.plan.kind;
        const when = new Date().toISOString().replace('T', ' ').slice(0, 16);
        const who = joinMrkdwn(result.approvers.map(userMention), ' and ');
        const line = mrkdwn`:white_check_mark: *${what}* approved by ${asIs(who)} at ${when} UTC; applying…`;
        await client.chat.update({
          channel: click.channel,
          ts: click.messageTs,
          text: mrkdwn`${what} approved`,
          blocks: asSlackBlocks(markPlanInBlocks(click.blocks, planId, `Approved: ${what}`, line)),
        });
        return;
      }
    }
  };
}
