/**
 * The port's outbound side (src/chat/adapter.ts ChatAdapter) on Slack's Web API:
 * post and update with chat.postMessage / chat.update, a private answer with
 * chat.postEphemeral, a file with files.uploadV2. Rendering (render.ts) escapes every text span on the way.
 */
import type { webApi } from '@slack/bolt';
import type { ChatAdapter } from '../adapter.js';
import type { ChatMessage, ConversationRef, MessageRef } from '../model.js';
import { asSlackBlocks } from './blocks/text.js';
import { SLACK, renderMessage, renderThreadReport } from './render.js';
import { rootStateUpdate } from './root-state.js';
import { slackFailure } from './slack-errors.js';

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
    mentionsById: true,
    failureOf: slackFailure,
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
    /**
     * Slack has no private chat of the app's: an ephemeral message in the conversation,
     * its text alone. False when Slack refuses it (the person left the channel): the
     * public message then shows the answer.
     */
    async tellPrivately(person, message, near): Promise<boolean> {
      try {
        await client.chat.postEphemeral({
          channel: near.id,
          user: person.id,
          ...thread(near),
          text: renderMessage(message).text,
        });
        return true;
      } catch {
        return false;
      }
    },
    /**
     * files.uploadV2 (files.getUploadURLExternal, the upload, files.completeUploadExternal;
     * the files:write scope): the file in the thread, `comment` as its message (mrkdwn,
     * escaped by the renderer). The file's text is never rendered: Slack shows it as a file.
     */
    async postFile(to, file, comment): Promise<void> {
      const upload = {
        channel_id: to.id,
        filename: file.name,
        title: file.title,
        content: file.text,
        snippet_type: 'markdown',
        initial_comment: String(renderMessage(comment).text),
      };
      await client.files.uploadV2(to.thread === undefined ? upload : { ...upload, thread_ts: to.thread });
    },
    async remove(ref: MessageRef): Promise<void> {
      await client.chat.delete({ channel: ref.conversation.id, ts: ref.id });
    },
    /** The kept blocks with the stage's state line (root-state.ts); the record keeps the new blocks. */
    async showFixStage(record, stage, at, line) {
      const { text, blocks } = rootStateUpdate(record, stage, at, line);
      await client.chat.update({
        channel: record.channel,
        ts: record.ts,
        text,
        blocks: asSlackBlocks(blocks),
      });
      return { ...record, blocks };
    },
    /** The report's messages packed into as few Slack messages as Block Kit's limits allow (render.ts). */
    async postReport(to: ConversationRef, messages: readonly ChatMessage[]): Promise<void> {
      for (const message of renderThreadReport(messages))
        await client.chat.postMessage({
          channel: to.id,
          ...thread(to),
          text: message.text,
          blocks: asSlackBlocks(message.blocks),
        });
    },
  };
}
