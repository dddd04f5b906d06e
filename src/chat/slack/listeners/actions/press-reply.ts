import type { webApi } from '@slack/bolt';
import { announceRun } from '../../../notify/announce.js';
import type { ChatServices } from '../../../services.js';
import type { ChatAction } from '../../../actions.js';
import type { PressReply, PressRequest } from '../../../adapter.js';
import { createSlackChatAdapter } from '../../chat-adapter.js';
import { postDraft } from '../../../use-cases/postmortem-press.js';
import { SLACK } from '../../render.js';
import { editMarked, editStateLine, keptBlocks } from '../../mark.js';
import type { ClickContext } from './click-context.js';

/**
 * A Slack click as the port's press: who, on which message, in which thread, and what
 * the message will show once marked (Slack cannot read it back: the app keeps it).
 */
export function pressRequest(click: ClickContext, action: ChatAction): PressRequest {
  return { ...pressPlace(click), action, kept: (mark) => keptBlocks(click.blocks, mark) };
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
 * Applies a press's reply in Slack: the mark on the clicked message's blocks (and each
 * later mark `settle` gives), the private answer as an ephemeral message (before the
 * mark with `tellFirst`; in the thread the click was in, with `tellInThread`), another
 * message's state line (an Undo's root), the replacement with chat.update, a
 * started run announced in the root's thread, and a post-mortem draft posted there.
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
  const tell = async (): Promise<void> => {
    if (!reply.tell) return;
    const inThread = options.tellInThread && click.rootTs !== click.messageTs;
    await chat.tell(
      request.person,
      inThread ? request.message.conversation : request.root.conversation,
      reply.tell,
    );
  };
  if (reply.tellFirst) await tell();
  if (reply.mark)
    await editMarked(client, { ref: request.message, blocks: click.blocks }, reply.mark, reply.settle);
  if (!reply.tellFirst) await tell();
  if (reply.root) await editStateLine(chat, reply.root);
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
  if (reply.draft)
    await postDraft(
      chat,
      { ...request.root.conversation, thread: click.rootTs },
      request.person,
      reply.draft,
      services.logger,
    );
}
