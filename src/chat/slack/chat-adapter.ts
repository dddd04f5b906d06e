/**
 * The port's outbound side (src/chat/adapter.ts ChatAdapter) on Slack's Web API:
 * post and update with chat.postMessage / chat.update, a private answer with
 * chat.postEphemeral. Rendering (render.ts) escapes every text span on the way.
 */
import type { webApi } from '@slack/bolt';
import type { ChatAdapter } from '../adapter.js';
import type { ChatMessage, ConversationRef, MessageRef } from '../model.js';
import { asSlackBlocks } from './blocks/text.js';
import { SLACK, renderMessage } from './render.js';

/** Text and, when the message has parts, blocks (a summary-only message is text alone, as Slack shows it). */
function payload(message: ChatMessage) {
  const { text, blocks } = renderMessage(message);
  return message.parts.length === 0 ? { text } : { text, blocks: asSlackBlocks(blocks) };
}

function thread(to: ConversationRef) {
  return to.thread === undefined ? {} : { thread_ts: to.thread };
}

export function createSlackChatAdapter(client: webApi.WebClient): ChatAdapter {
  return {
    platform: SLACK,
    async post(to: ConversationRef, message: ChatMessage): Promise<MessageRef> {
      const posted = await client.chat.postMessage({ channel: to.id, ...thread(to), ...payload(message) });
      if (!posted.ts) throw new Error(`chat.postMessage in ${to.id} returned no ts`);
      return { conversation: to, id: posted.ts };
    },
    async update(ref: MessageRef, message: ChatMessage): Promise<void> {
      const { text, blocks } = renderMessage(message);
      await client.chat.update({
        channel: ref.conversation.id,
        ts: ref.id,
        text,
        blocks: asSlackBlocks(blocks),
      });
    },
    async tell(person, where, message): Promise<void> {
      await client.chat.postEphemeral({
        channel: where.id,
        user: person.id,
        ...thread(where),
        ...payload(message),
      });
    },
  };
}
