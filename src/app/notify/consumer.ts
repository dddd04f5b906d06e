import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { webApi } from '@slack/bolt';
import { NOTIFY_QUEUES, QUEUE_PREFIX } from '../../queue/names.js';
import { verifyNotify, type NotifyKeys } from '../../queue/notify-signature.js';
import type { NotifyJob } from '../../queue/schemas.js';
import type { AppServices } from '../services.js';
import { handleNotify } from './handle-notify.js';
import {
  PERMANENT_SLACK_ERRORS,
  isTransientSlackFailure,
  slackErrorCode,
} from '../../chat/slack/slack-errors.js';

/** Pauses of the notify queue for one job while Slack answers 5xx or cannot be reached. */
const TRANSIENT_PAUSES = 8;
const MAX_PAUSE_MS = 30_000;

/**
 * Consumes both notify lanes (`notify` for people's commands and remediations,
 * `notify-alerts` for alert traffic) in the app process, one worker each, so a pause
 * of one never holds up the other. 429 → lane-wide pause for Retry-After and the job
 * goes back without losing an attempt; Slack 5xx/network → lane-wide pause with
 * backoff (order kept), then delayed retries; other errors → retry with backoff;
 * permanent Slack errors → failed at once.
 */
type ConsumerOptions = {
  connection: Redis;
  redis: Redis;
  client: webApi.WebClient;
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
        await handleNotify(services, options.client, options.redis, parsed.job, job.data);
        metrics.jobDuration.observe({ queue, outcome: 'completed' }, (performance.now() - started) / 1000);
      } catch (error) {
        metrics.jobDuration.observe({ queue, outcome: 'error' }, (performance.now() - started) / 1000);
        if (error instanceof Error && 'retryAfter' in error && typeof error.retryAfter === 'number') {
          metrics.slackCalls.inc({ method: parsed.job.kind, outcome: 'rate-limited' });
          logger.warn({ retryAfter: error.retryAfter, queue }, 'Slack rate limit: pausing this notify lane');
          await worker.rateLimit(Math.max(1, error.retryAfter) * 1000);
          throw Worker.RateLimitError();
        }
        if (isTransientSlackFailure(error) && job.attemptsStarted <= TRANSIENT_PAUSES) {
          // Like a 429: the job goes back to the head of the queue and the queue waits,
          // so order is kept. Past the budget it falls back to a delayed retry below.
          const pauseMs = Math.min(MAX_PAUSE_MS, 1_000 * 2 ** Math.max(0, job.attemptsStarted - 1));
          logger.warn(
            { pauseMs, kind: parsed.job.kind, queue },
            'Slack unavailable: pausing this notify lane',
          );
          await worker.rateLimit(pauseMs);
          throw Worker.RateLimitError();
        }
        const code = slackErrorCode(error);
        if (code && PERMANENT_SLACK_ERRORS.has(code)) throw new UnrecoverableError(`Slack refused: ${code}`);
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
