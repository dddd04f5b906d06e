import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asIs, mrkdwn, trusted, userMention } from '../../blocks/mrkdwn.js';
import { asSlackBlocks, context } from '../../blocks/text.js';
import type { AppServices } from '../../../../app/services.js';
import { clickContext } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/**
 * Dismiss: collapse the result to one line (buttons gone), keeping who dismissed it.
 * Only the person who asked for the run, or an approver for its cluster and
 * namespace, may dismiss it; anyone else gets an ephemeral refusal, audited.
 */
export function dismissResultAction(services: AppServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const owner = await services.subscriptions.ownerOf({ channel: click.channel, ts: click.messageTs });
    if (owner?.requestedBy !== click.user) {
      // Results nobody asked for (alert threads) or whose record expired: approvers only.
      const scope = {
        cluster: owner?.cluster ?? services.config.defaultCluster,
        namespace: owner?.namespace ?? '',
      };
      const decision = await services.policy.check(click.user, scope);
      if (!decision.allowed) {
        services.audit.record({
          action: 'refusal',
          planId: 'dismiss',
          cluster: scope.cluster,
          ...(owner?.namespace ? { namespace: owner.namespace } : {}),
          user: click.user,
          reason: 'not-requester',
        });
        await client.chat.postEphemeral({
          channel: click.channel,
          user: click.user,
          text: trusted(
            ':no_entry: Only the person who asked for this diagnosis or an approver can dismiss it. The message stays.',
          ),
          ...(click.rootTs === click.messageTs ? {} : { thread_ts: click.rootTs }),
        });
        return;
      }
    }
    const text = mrkdwn`Dismissed by ${asIs(userMention(click.user))}.`;
    await client.chat.update({
      channel: click.channel,
      ts: click.messageTs,
      text,
      blocks: asSlackBlocks([context(text)]),
    });
  };
}
