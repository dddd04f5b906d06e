import type { Redis } from 'ioredis';
import { createEarlyWarningOpener } from './early-warning-threads.js';
import { createAdmissionWarningOpener } from './admission-threads.js';
import { createAdmissionParking } from './admission-parking.js';
import type { RecordSigner, RecordVerifier } from '../../queue/record-mark.js';
import type { NotifyJob } from '../../queue/schemas.js';
import type { AlertNotifyHooks, ThreadRoot } from './hooks.js';
import type { ThreadBudget } from './thread-budget.js';
import { deliverAlertResult, type RunResult } from './results.js';
import { createThreadStore, type ThreadStore } from '../../queue/alert-thread-store.js';
import { handleAlertThreadJob } from './thread-updates.js';
import type { PlanStore } from '../../queue/plan-store.js';
import { UnrecoverableError } from 'bullmq';
import type { ChatAdapter } from '../../chat/adapter.js';
import { platformTag, type ChatPlatform } from '../../platforms/chat-refs.js';
import { alertPlatform, postResultInThread } from './chat-thread.js';

export type { AlertNotifyHooks } from './hooks.js';

interface AlertNotifyDeps {
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
  /** The warned applies' own per-minute budget (ADMISSION_BUDGET_KEYS): never the alerts'. */
  admissionBudget?: ThreadBudget;
  /** The app's mark on the warned applies it parks, and its check (record-mark.ts). */
  records?: { signer: RecordSigner; verifier: RecordVerifier };
  /** Queues a read of a parked warned apply's workload (admission-parking.ts). */
  readBack?: (job: Extract<NotifyJob, { kind: 'admission-warning' }>) => Promise<void>;
  /**
   * The app's mark that a thread got its run's result (subscriptions.markAnswered): the
   * thread's deadline watch (thread-deadline.ts) then leaves it alone.
   */
  markAnswered?: (root: ThreadRoot) => Promise<void>;
  /** The chat adapters by platform (services.chats), read at each call. */
  chats: () => Partial<Record<ChatPlatform, ChatAdapter>>;
}

/** Builds the hooks over one Redis connection and the plan store (for button states). */
export function createAlertNotifyHooks(deps: AlertNotifyDeps): AlertNotifyHooks {
  const store = deps.store ?? createThreadStore(deps.redis);
  const openerDeps = {
    store,
    channelFor: deps.channelFor,
    ...(deps.allows ? { allows: deps.allows } : {}),
    ...(deps.threadBudget ? { budget: deps.threadBudget } : {}),
    chats: deps.chats,
    logger: deps.logger,
  };
  const { budget: _shared, ...withoutBudget } = openerDeps;
  const admission = createAdmissionParking({
    redis: deps.redis,
    open: createAdmissionWarningOpener({
      ...withoutBudget,
      ...(deps.admissionBudget ? { budget: deps.admissionBudget } : {}),
    }),
    ...(deps.records ? { records: deps.records } : {}),
    ...(deps.readBack ? { readBack: deps.readBack } : {}),
    logger: deps.logger,
  });
  return {
    // Posted only once a run shows the applied object at its generation (admission-parking.ts).
    admissionWarning: (job) => admission.park(job),
    threadJob(job) {
      return handleAlertThreadJob(
        { store, logger: deps.logger, linkHosts: deps.linkHosts ?? [], chats: deps.chats },
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
    async runResult(update) {
      const result: RunResult = { cluster: update.cluster, jobId: update.jobId, outcome: update.outcome };
      // A warned apply this run shows in the cluster opens its thread first; the result joins it.
      await admission.confirm(result);
      return deliverAlertResult(
        {
          store,
          logger: deps.logger,
          openEarlyWarning: createEarlyWarningOpener(openerDeps),
          postInThread: async (thread) => {
            const platform = alertPlatform(thread.channel);
            const chat = deps.chats()[platform];
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
