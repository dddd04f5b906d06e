import type { webApi } from '@slack/bolt';
import type { Redis } from 'ioredis';
import { createEarlyWarningOpener } from './early-warning-threads.js';
import type { AlertNotifyHooks, ThreadRoot } from './hooks.js';
import type { ThreadBudget } from './thread-budget.js';
import { deliverAlertResult, type RunResult } from './results.js';
import { createThreadStore, type ThreadStore } from '../../queue/alert-thread-store.js';
import { handleAlertThreadJob, type SlackThreadApi } from './thread-updates.js';
import { asSlackBlocks } from '../../chat/slack/blocks/text.js';
import type { PlanStore } from '../../queue/plan-store.js';
import { UnrecoverableError } from 'bullmq';
import type { ChatAdapter } from '../../chat/adapter.js';
import { platformTag, type ChatPlatform } from '../../queue/chat-refs.js';
import { alertPlatform, postResultInThread } from './chat-thread.js';

export type { AlertNotifyHooks } from './hooks.js';

export interface AlertNotifyDeps {
  redis: Redis;
  plans: PlanStore;
  channelFor: (namespace: string) => string;
  /** The read policy's word on alert and early-warning threads per namespace and channel. */
  allows?: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
  logger: { debug(obj: object, msg: string): void; info(obj: object, msg: string): void };
  store?: ThreadStore;
  /** Alertmanager and Prometheus hosts whose URLs are shown as links (config alerts.linkHosts). */
  linkHosts?: readonly string[];
  /** The per-minute budget alert and early-warning threads share (thread-budget.ts). */
  threadBudget?: ThreadBudget;
  /**
   * The app's mark that a thread got its run's result (subscriptions.markAnswered): the
   * thread's deadline watch (thread-deadline.ts) then leaves it alone.
   */
  markAnswered?: (root: ThreadRoot) => Promise<void>;
  /** The chat adapters by platform (services.chats, read at each call), for threads in Teams. */
  chats?: () => Partial<Record<ChatPlatform, ChatAdapter>>;
}

/** Adapts Bolt's WebClient to the two calls thread handling makes. */
export function slackThreadApi(client: webApi.WebClient): SlackThreadApi {
  return {
    async postMessage(args) {
      const { blocks, ...rest } = args;
      const posted = await client.chat.postMessage({
        ...rest,
        ...(blocks ? { blocks: asSlackBlocks(blocks) } : {}),
      });
      return posted.ts !== undefined ? { ts: posted.ts } : {};
    },
    async update(args) {
      const { blocks, ...rest } = args;
      return client.chat.update({ ...rest, ...(blocks ? { blocks: asSlackBlocks(blocks) } : {}) });
    },
  };
}

/** Builds the hooks over one Redis connection and the plan store (for button states). */
export function createAlertNotifyHooks(deps: AlertNotifyDeps): AlertNotifyHooks {
  const store = deps.store ?? createThreadStore(deps.redis);
  return {
    threadJob(client: webApi.WebClient, job) {
      return handleAlertThreadJob(
        {
          store,
          slack: slackThreadApi(client),
          logger: deps.logger,
          linkHosts: deps.linkHosts ?? [],
          ...(deps.chats ? { chats: deps.chats } : {}),
        },
        job,
      );
    },
    async threadRoot(job) {
      const record = await store.find(job.workloadHash, job.groupHash);
      // A Teams root names its platform: the run deadline answers through its adapter.
      return record === null
        ? null
        : { ...platformTag(record.platform), channel: record.channel, ts: record.ts };
    },
    runResult(client: webApi.WebClient, update) {
      const result: RunResult = { cluster: update.cluster, jobId: update.jobId, outcome: update.outcome };
      const slack = slackThreadApi(client);
      return deliverAlertResult(
        {
          store,
          logger: deps.logger,
          openEarlyWarning: createEarlyWarningOpener({
            store,
            slack,
            channelFor: deps.channelFor,
            ...(deps.allows ? { allows: deps.allows } : {}),
            ...(deps.threadBudget ? { budget: deps.threadBudget } : {}),
            ...(deps.chats ? { chats: deps.chats } : {}),
            logger: deps.logger,
          }),
          postInThread: async (thread) => {
            const platform = alertPlatform(thread.channel);
            const chat = deps.chats?.()[platform];
            if (!chat)
              throw new UnrecoverableError(`alert thread in ${platform}, which this app does not serve`);
            await postResultInThread(chat, deps.plans, thread, update);
            await deps.markAnswered?.({ ...platformTag(platform), channel: thread.channel, ts: thread.ts });
          },
        },
        result,
      );
    },
  };
}
