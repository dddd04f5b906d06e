import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import { asIs, mrkdwn, userMention } from '../../blocks/mrkdwn.js';
import { asSlackBlocks, context } from '../../blocks/text.js';
import type { AppServices } from '../../services.js';
import { clickContext } from './click-context.js';

type ActionArgs = AllMiddlewareArgs & SlackActionMiddlewareArgs<BlockAction<ButtonAction>>;

/** Dismiss: collapse the result to one line (buttons gone), keeping who dismissed it. */
export function dismissResultAction(_services: AppServices) {
  return async ({ ack, body, action, client }: ActionArgs): Promise<void> => {
    await ack();
    const click = clickContext(body, action);
    if (!click) return;
    const text = mrkdwn`Dismissed by ${asIs(userMention(click.user))}.`;
    await client.chat.update({
      channel: click.channel,
      ts: click.messageTs,
      text,
      blocks: asSlackBlocks([context(text)]),
    });
  };
}
