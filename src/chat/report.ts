import type { ChatAdapter } from './adapter.js';
import type { ChatMessage, ConversationRef } from './model.js';

/**
 * A report of several messages (a result's thread report) through `adapter`, in order:
 * packed where the adapter can (`postReport`: Slack fills as few messages as its limits
 * allow), else message by message.
 */
export async function postReport(
  adapter: ChatAdapter,
  to: ConversationRef,
  thread: readonly ChatMessage[],
): Promise<void> {
  if (thread.length === 0) return;
  if (adapter.postReport) await adapter.postReport(to, thread);
  else for (const reply of thread) await adapter.post(to, reply);
}
