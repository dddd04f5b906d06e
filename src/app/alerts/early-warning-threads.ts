import { UnrecoverableError } from 'bullmq';
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { EARLY_WARNING_CODES } from '../../queue/alert-jobs.js';
import type { ThreadBudget } from './thread-budget.js';
import type { RunResult } from './results.js';
import type { ThreadRecord, ThreadStore } from '../../queue/alert-thread-store.js';
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ChatMessage } from '../../chat/model.js';
import { platformTag, type ChatPlatform } from '../../platforms/chat-refs.js';
import { alertPlatform, threadConversation } from './chat-thread.js';
import { earlyWarningOverflowMessage, earlyWarningRootMessage } from './messages.js';

export interface EarlyWarningOpenerDeps {
  store: ThreadStore;
  channelFor: (namespace: string) => string;
  /** The read policy's word on alerts (src/policy/read-policy.ts): no thread where it says no. */
  allows?: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
  /** The budget alert threads take from too: no new thread past it, one summary per channel and minute. */
  budget?: ThreadBudget;
  logger?: { info(obj: object, msg: string): void };
  /** The chat adapters by platform (services.chats), read at each call. */
  chats: () => Partial<Record<ChatPlatform, ChatAdapter>>;
}

/** Thrown from the thread store's post step when the minute's budget is spent: nothing posted. */
class ThreadBudgetSpent extends Error {}

/**
 * App side of the early warning: when a watch-started diagnosis confirms a surge
 * deadlock or node-local crash loop and no alert thread exists for the workload, open
 * one, with the same thread key an alert would use (a later alert joins it).
 */
export function createEarlyWarningOpener(
  deps: EarlyWarningOpenerDeps,
): (result: RunResult, workloadHash: string) => Promise<ThreadRecord | null> {
  return async (result, workloadHash) => {
    if (result.outcome.status !== 'diagnosed') return null;
    const { diagnosis } = result.outcome;
    const finding = diagnosis.findings.find((f) => EARLY_WARNING_CODES.includes(f.code));
    if (finding === undefined) return null;
    const { namespace, name, kind } = diagnosis.target;
    const channel = deps.channelFor(namespace);
    if (deps.allows && !deps.allows({ cluster: result.cluster, namespace, channel })) return null;
    const title = `${finding.code} on ${namespace}/${typeOfKind(kind)}/${name} (cluster ${result.cluster})`;
    const root = earlyWarningRootMessage(title, finding.summary);
    const opened = await openWithinBudget(deps, { workloadHash, channel, title, root });
    return opened?.record ?? null;
  };
}

/** A thread to open: `origin` marks a warned apply's, `overflow` is its budget's one line per channel and minute. */
interface ThreadToOpen {
  workloadHash: string;
  channel: string;
  title: string;
  root: ChatMessage;
  origin?: 'admission';
  overflow?: (limit: number, title: string) => ChatMessage;
}

/**
 * Opens the workload's thread (one per workload: an existing one is returned) within
 * `deps.budget` (the shared per-minute one, or the warned applies' own); past it,
 * null, and the channel's one overflow line.
 */
export async function openWithinBudget(
  deps: EarlyWarningOpenerDeps,
  thread: ThreadToOpen,
): Promise<{ record: ThreadRecord; created: boolean } | null> {
  try {
    return await openThread(deps, thread);
  } catch (error) {
    if (!(error instanceof ThreadBudgetSpent) || !deps.budget) throw error;
    const { channel, title } = thread;
    deps.logger?.info(
      { title, channel, limit: deps.budget.limit },
      'early warning past the per-minute thread budget: no thread',
    );
    if (await deps.budget.firstOverflow(channel))
      await chatFor(deps, channel).post(
        threadConversation(alertPlatform(channel), channel),
        (thread.overflow ?? earlyWarningOverflowMessage)(deps.budget.limit, title),
      );
    return null;
  }
}

/** Opens the thread through the store (one per workload), taking one from the budget first. */
async function openThread(
  deps: EarlyWarningOpenerDeps,
  thread: ThreadToOpen,
): Promise<{ record: ThreadRecord; created: boolean }> {
  const { workloadHash, channel, title, root, origin } = thread;
  const platform = alertPlatform(channel);
  const chat = chatFor(deps, channel);
  const input = { workloadHash, ...platformTag(platform), channel, title, ...(origin ? { origin } : {}) };
  return deps.store.open(input, async () => {
    if (deps.budget && (await deps.budget.take(1)) === 0) throw new ThreadBudgetSpent();
    return (await chat.post(threadConversation(platform, channel), root)).id;
  });
}

/** The adapter of a conversation's platform; throws when the app does not serve it. */
function chatFor(deps: EarlyWarningOpenerDeps, channel: string): ChatAdapter {
  const platform = alertPlatform(channel);
  const chat = deps.chats()[platform];
  // Permanent: retrying cannot make the app serve a platform it is not configured for.
  if (!chat)
    throw new UnrecoverableError(`early-warning thread in ${platform}, which this app does not serve`);
  return chat;
}
