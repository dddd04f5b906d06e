import type { webApi } from '@slack/bolt';
import { announceRun } from '../../../../app/announce.js';
import type { AppServices } from '../../../../app/services.js';
import type { ChatAction } from '../../../actions.js';
import type { PressReply, PressRequest } from '../../../adapter.js';
import { asSlackBlocks } from '../../blocks/text.js';
import { SLACK, renderMessage, toMrkdwn } from '../../render.js';
import type { ClickContext } from './click-context.js';

/** A Slack click as the port's press: who, on which message, in which thread. */
export function pressRequest(click: ClickContext, action: ChatAction): PressRequest {
  const conversation = { platform: SLACK, id: click.channel };
  const inThread = click.rootTs !== click.messageTs;
  return {
    person: { platform: SLACK, id: click.user },
    message: {
      conversation: inThread ? { ...conversation, thread: click.rootTs } : conversation,
      id: click.messageTs,
    },
    root: { conversation, id: click.rootTs },
    action,
  };
}

/**
 * Applies a press's reply in Slack: the private answer as an ephemeral message (in the
 * thread the click was in, with `tellInThread`), the replacement with chat.update, and
 * a started run announced in the root's thread.
 */
export async function applyPressReply(
  services: AppServices,
  client: webApi.WebClient,
  click: ClickContext,
  reply: PressReply,
  options: { tellInThread: boolean },
): Promise<void> {
  if (reply.tell) {
    const inThread = options.tellInThread && click.rootTs !== click.messageTs;
    await client.chat.postEphemeral({
      channel: click.channel,
      user: click.user,
      text: renderMessage(reply.tell).text,
      ...(inThread ? { thread_ts: click.rootTs } : {}),
    });
  }
  if (reply.replace) {
    const { text, blocks } = renderMessage(reply.replace);
    await client.chat.update({
      channel: click.channel,
      ts: click.messageTs,
      text,
      blocks: asSlackBlocks(blocks),
    });
  }
  if (reply.started) {
    const run = reply.started;
    await announceRun(services, client, {
      channel: click.channel,
      cluster: run.cluster,
      jobId: run.jobId,
      addedAt: run.addedAt,
      threadTs: click.rootTs,
      owner: run.owner,
      text: toMrkdwn(run.announcement.summary),
    });
  }
}
