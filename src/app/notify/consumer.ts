import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { NOTIFY_QUEUES, QUEUE_PREFIX } from '../../queue/names.js';
import { verifyNotify, type NotifyKeys } from '../../queue/notify-signature.js';
import type { NotifyJob } from '../../queue/schemas.js';
import type { AppServices } from '../services.js';
import { handleNotify } from './handle-notify.js';
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ChatFailure } from '../../chat/model.js';

/** Pauses of the notify queue for one job while a chat API answers 5xx or cannot be reached. */
const TRANSIENT_PAUSES = 8;
const MAX_PAUSE_MS = 30_000;

/** What a failure means, as the adapter of the platform whose API it came from tells. */
function chatFailureOf(
  chats: AppServices['chats'],
  error: unknown,
): (ChatFailure & { platform: string }) | undefined {
  for (const chat of Object.values(chats ?? {}) as ChatAdapter[]) {
    const failure = chat.failureOf?.(error);
    if (failure) return { ...failure, platform: chat.platform };
  }
  return undefined;
}

/**
 * Consumes both notify lanes (`notify` for people's commands and remediations,
 * `notify-alerts` for alert traffic) in the app process, one worker each, so a pause
 * of one never holds up the other. 429 → lane-wide pause for Retry-After and the job
 * goes back without losing an attempt; a chat API's 5xx/network → lane-wide pause with
 * backoff (order kept), then delayed retries; other errors → retry with backoff;
 * permanent refusals → failed at once. Which is which, each platform's adapter tells
 * (ChatAdapter.failureOf).
 */
type ConsumerOptions = {
  connection: Redis;
  concurrency: number;
  /** Who may sign which notification (src/queue/notify-signature.ts). */
  keys: NotifyKeys;
};

export function startNotifyConsumer(services: AppServices, options: ConsumerOptions): Worker<NotifyJob>[] {
  return NOTIFY_QUEUES.map((queue) => startLane(queue, services, options));
}

function startLane(queue: string, services: AppServices, options: ConsumerOptions): Worker<NotifyJob> {
  const { logger, metrics } = services;
  const worker: Worker<NotifyJob> = new Worker<NotifyJob>(
    queue,
    async (job: Job<NotifyJob>) => {
      // Nothing in Redis is posted as the bot unless its maker signed it: a worker for
      // results and outcomes, the app for its alert threads (DESIGN.md §2).
      const parsed = verifyNotify(job.data, options.keys);
      if (!parsed.ok) {
        services.audit.record({
          action: 'notification',
          planId: String(job.id ?? ''),
          kind: String((job.data as { kind?: unknown } | undefined)?.kind ?? '').slice(0, 40),
          queue,
          outcome: 'tampered',
          detail: parsed.reason,
        });
        throw new UnrecoverableError(`notify job refused: ${parsed.reason}`);
      }
      const started = performance.now();
      try {
        // Its deduplication id names it across a rewrite under another job id (a worker's
        // reply a failover lost); a redelivery of the same job has the same id either way.
        await handleNotify(services, parsed.job, job.data, job.deduplicationId ?? job.id);
        metrics.jobDuration.observe({ queue, outcome: 'completed' }, (performance.now() - started) / 1000);
      } catch (error) {
        metrics.jobDuration.observe({ queue, outcome: 'error' }, (performance.now() - started) / 1000);
        // How the platform's API failed, as its adapter tells (undefined: not a chat API's failure).
        const failure = chatFailureOf(services.chats, error);
        const platform = failure?.platform ?? 'chat';
        if (failure?.kind === 'rate-limited') {
          metrics.chatCalls.inc({ platform, method: parsed.job.kind, outcome: 'rate-limited' });
          logger.warn(
            { retryAfter: failure.retryAfterSeconds, queue, platform },
            `${platform} rate limit: pausing this notify lane`,
          );
          await worker.rateLimit(Math.max(1, failure.retryAfterSeconds) * 1000);
          throw Worker.RateLimitError();
        }
        if (failure?.kind === 'transient' && job.attemptsStarted <= TRANSIENT_PAUSES) {
          // Like a 429: the job goes back to the head of the queue and the queue waits,
          // so order is kept. Past the budget it falls back to a delayed retry below.
          const pauseMs = Math.min(MAX_PAUSE_MS, 1_000 * 2 ** Math.max(0, job.attemptsStarted - 1));
          logger.warn(
            { pauseMs, kind: parsed.job.kind, queue, platform },
            `${platform} unavailable: pausing this notify lane`,
          );
          await worker.rateLimit(pauseMs);
          throw Worker.RateLimitError();
        }
        if (failure?.kind === 'permanent')
          throw new UnrecoverableError(`${platform} refused: ${failure.code}`);
        throw error;
      }
    },
    { connection: options.connection, prefix: QUEUE_PREFIX, concurrency: options.concurrency },
  );
  worker.on('error', (error) => logger.error({ err: error }, 'notify consumer error'));
  worker.on('failed', (job, error) =>
    logger.warn({ jobId: job?.id, kind: job?.data.kind, err: error }, 'notification failed'),
  );
  return worker;
}
