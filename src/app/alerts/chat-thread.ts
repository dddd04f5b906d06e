/**
 * Where alert and early-warning threads live on a chat platform, and a run's result
 * posted in one through the platform's adapter (the thread's own messages:
 * messages.ts; its updates: thread-updates.ts). A Teams channel conversation
 * is the thread: the root is a new post in the channel (the adapter opens a thread for
 * it), lines and results are replies under it.
 */
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ConversationRef } from '../../chat/model.js';
import { runMessages } from '../../chat/use-cases/run-messages.js';
import { NO_REQUESTER } from '../../chat/actions.js';
import { DEFAULT_PLATFORM, platformOfConversation, type ChatPlatform } from '../../platforms/chat-refs.js';
import type { PlanStore } from '../../queue/plan-store.js';
import type { RunUpdate } from '../../queue/schemas.js';
import { planViews } from '../../chat/notify/plan-views.js';
import { postReport } from '../../chat/report.js';

/**
 * The platform an alert conversation id belongs to: each platform's conversation ids
 * have their own shape (src/platforms/list.ts); the default platform's otherwise.
 */
export function alertPlatform(conversation: string): ChatPlatform {
  return platformOfConversation(conversation) ?? DEFAULT_PLATFORM;
}

/** Where a thread is, as the port names it. */
export function threadConversation(platform: ChatPlatform, channel: string, root?: string): ConversationRef {
  return { platform, id: channel, ...(root === undefined ? {} : { thread: root }) };
}

/**
 * Posts a run's result in an alert thread through `chat`: the result (its Apply buttons
 * say "no requester": nobody asked for it there, whoever else's command joined the run:
 * their own message carries their id), then the thread report.
 */
export async function postResultInThread(
  chat: ChatAdapter,
  plans: PlanStore,
  thread: { channel: string; ts: string },
  update: Extract<RunUpdate, { kind: 'diagnosis-result' }>,
): Promise<void> {
  const { message, thread: report } = runMessages(update, await planViews(plans, update), {
    requester: NO_REQUESTER,
    approvedPlan: null,
    platform: chat.platform,
  });
  const where = threadConversation(alertPlatform(thread.channel), thread.channel, thread.ts);
  await chat.post(where, message);
  await postReport(chat, where, report);
}
