import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { EARLY_WARNING_CODES } from '../../queue/alert-jobs.js';
import { escapeMrkdwn, mrkdwn, trusted, asIs, type Mrkdwn } from '../../chat/slack/blocks/mrkdwn.js';
import type { ThreadBudget } from './thread-budget.js';
import { context, section } from '../../chat/slack/blocks/text.js';
import type { RunResult } from './results.js';
import type { SlackThreadApi } from './thread-updates.js';
import type { ThreadRecord, ThreadStore } from '../../queue/alert-thread-store.js';
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ChatMessage } from '../../chat/model.js';
import { icon, say } from '../../chat/rich.js';
import { platformTag, type ChatPlatform } from '../../queue/chat-refs.js';
import { alertPlatform, earlyWarningRootMessage, threadConversation } from './chat-thread.js';

export interface EarlyWarningOpenerDeps {
  store: ThreadStore;
  slack: SlackThreadApi;
  channelFor: (namespace: string) => string;
  /** The read policy's word on alerts (src/policy/read-policy.ts): no thread where it says no. */
  allows?: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
  /** The budget alert threads take from too: no new thread past it, one summary per channel and minute. */
  budget?: ThreadBudget;
  logger?: { info(obj: object, msg: string): void };
  /** The chat adapters by platform (services.chats), for threads in a Teams channel. */
  chats?: () => Partial<Record<ChatPlatform, ChatAdapter>>;
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
    try {
      return await openThread(deps, { workloadHash, channel, title, summary: finding.summary });
    } catch (error) {
      if (!(error instanceof ThreadBudgetSpent) || !deps.budget) throw error;
      deps.logger?.info(
        { namespace, name, channel, limit: deps.budget.limit },
        'early warning past the per-minute thread budget: no thread',
      );
      if (await deps.budget.firstOverflow(channel)) {
        const chat = chatFor(deps, channel);
        if (chat)
          await chat.post(
            threadConversation(alertPlatform(channel), channel),
            overflowNote(deps.budget.limit, title),
          );
        else await deps.slack.postMessage({ channel, ...overflowLine(deps.budget.limit, title) });
      }
      return null;
    }
  };
}

/** The one line per channel and minute for early warnings past the shared budget. */
function overflowLine(limit: number, first: string): { text: Mrkdwn; blocks: Record<string, unknown>[] } {
  const text = mrkdwn`:warning: More new incident threads this minute than rollout-doctor opens: the early warning for ${first} got no thread, and later ones this minute are only counted in the app's log (limit ${limit} per minute for alert and early-warning threads together, ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE).`;
  return { text, blocks: [section(text)] };
}

/** Opens the thread through the store (one per workload), taking one from the shared budget first. */
async function openThread(
  deps: EarlyWarningOpenerDeps,
  thread: { workloadHash: string; channel: string; title: string; summary: string },
): Promise<ThreadRecord> {
  const { workloadHash, channel, title, summary } = thread;
  const platform = alertPlatform(channel);
  const chat = chatFor(deps, channel);
  const { record } = await deps.store.open(
    { workloadHash, ...platformTag(platform), channel, title },
    async () => {
      if (deps.budget && (await deps.budget.take(1)) === 0) throw new ThreadBudgetSpent();
      if (chat)
        return (
          await chat.post(threadConversation(platform, channel), earlyWarningRootMessage(title, summary))
        ).id;
      const text = mrkdwn`:warning: *Early warning:* ${title}\n${asIs(escapeMrkdwn(summary))}`;
      const posted = await deps.slack.postMessage({
        channel,
        text: mrkdwn`Early warning: ${title}`,
        blocks: [
          section(text),
          context(trusted('Found by the rollout-doctor watch before any alert fired.')),
        ],
      });
      if (posted.ts === undefined) throw new Error('chat.postMessage returned no ts');
      return posted.ts;
    },
  );
  return record;
}

/** The adapter of a conversation outside Slack; undefined for Slack (its Web API); throws when not served. */
function chatFor(deps: EarlyWarningOpenerDeps, channel: string): ChatAdapter | undefined {
  const platform = alertPlatform(channel);
  if (platform === 'slack') return undefined;
  const chat = deps.chats?.()[platform];
  if (!chat) throw new Error(`early-warning thread in ${platform}, which this app does not serve`);
  return chat;
}

/** overflowLine as a port message. */
function overflowNote(limit: number, first: string): ChatMessage {
  return {
    summary: say`${icon('warning')} More new incident threads this minute than rollout-doctor opens: the early warning for ${first} got no thread, and later ones this minute are only counted in the app's log (limit ${String(limit)} per minute for alert and early-warning threads together, ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE).`,
    parts: [],
  };
}
