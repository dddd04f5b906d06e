import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asIs, joinMrkdwn, mrkdwn, userMention } from '../../blocks/mrkdwn.js';
import type { AppServices } from '../../../../app/services.js';
import { clickContext } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * A click on an "Approved: …" or "Expired: …" button: says where the plan stands,
 * privately, and applies nothing. Applying again always goes through a fresh message
 * (Re-run), whose Apply button shows the patch in its confirm dialog.
 */
export function planStatusAction(services: AppServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const [stored, claim] = await Promise.all([
      services.plans.get(click.value),
      services.plans.claimOf(click.value),
    ]);
    const text = claim
      ? mrkdwn`This plan was approved by ${asIs(joinMrkdwn(claim.approvers.map(userMention), ' and '))}; it is applied once. Its outcome is in the thread.`
      : stored && stored.expiresAt > Date.now()
        ? 'This plan is not approved any more (its last attempt failed and was released). Press Re-run for a fresh message, then approve it there.'
        : 'This plan expired. Press Re-run for a fresh diagnosis and plan.';
    await client.chat.postEphemeral({
      channel: click.channel,
      user: click.user,
      text,
      ...(click.rootTs === click.messageTs ? {} : { thread_ts: click.rootTs }),
    });
  };
}
