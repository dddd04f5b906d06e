import type { webApi } from '@slack/bolt';
import { announceRun } from '../../../notify/announce.js';
import type { ChatServices } from '../../../services.js';
import type { ChatAction } from '../../../actions.js';
import type { PressReply, PressRequest } from '../../../adapter.js';
import { createSlackChatAdapter } from '../../chat-adapter.js';
import { SLACK } from '../../render.js';
import type { ClickContext } from './click-context.js';

/** A Slack click as the port's press: who, on which message, in which thread. */
export function pressRequest(click: ClickContext, action: ChatAction): PressRequest {
  return { ...pressPlace(click), action };
}

/** Who clicked, the clicked message and its thread root, as port refs. */
function pressPlace(click: ClickContext): Omit<PressRequest, 'action'> {
  const conversation = { platform: SLACK, id: click.channel };
  const inThread = click.rootTs !== click.messageTs;
  return {
    person: { platform: SLACK, id: click.user },
    message: {
      conversation: inThread ? { ...conversation, thread: click.rootTs } : conversation,
      id: click.messageTs,
    },
    root: { conversation, id: click.rootTs },
  };
}

/**
 * Applies a press's reply in Slack: the private answer as an ephemeral message (in the
 * thread the click was in, with `tellInThread`), the replacement with chat.update, and
 * a started run announced in the root's thread.
 */
export async function applyPressReply(
  services: ChatServices,
  client: webApi.WebClient,
  click: ClickContext,
  reply: PressReply,
  options: { tellInThread: boolean },
): Promise<void> {
  const chat = createSlackChatAdapter(client);
  const request = pressPlace(click);
  if (reply.tell) {
    const inThread = options.tellInThread && click.rootTs !== click.messageTs;
    await chat.tell(
      request.person,
      inThread ? request.message.conversation : request.root.conversation,
      reply.tell,
    );
  }
  if (reply.replace) await chat.update(request.message, reply.replace);
  if (reply.started) {
    // In the root's thread; not posted there (the app left the channel): said to the presser.
    const posted = await announceRun(
      services,
      chat,
      { ...request.root.conversation, thread: click.rootTs },
      reply.started,
    );
    if (posted === null) await chat.tell(request.person, request.root.conversation, reply.started.cannotPost);
  }
}
