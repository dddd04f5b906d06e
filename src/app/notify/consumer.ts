import { type Job, UnrecoverableError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { webApi } from '@slack/bolt';
import { NOTIFY_QUEUES, QUEUE_PREFIX } from '../../queue/names.js';
import { notifyJobSchema, type NotifyJob } from '../../queue/schemas.js';
import { asSlackBlocks } from '../blocks/text.js';
import { slackFetch } from '../slack-fetch.js';
import type { AppServices } from '../services.js';
import { deliverRun } from './run-delivery.js';
import { remediationOutcomeMessage } from './outcome-message.js';
import { overflowMessage } from '../alerts/messages.js';

/** Slack errors a retry cannot fix: drop the job instead of hammering the API. */
const PERMANENT_SLACK_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'message_not_found',
  'invalid_blocks',
  'msg_too_long',
  'invalid_auth',
  'account_inactive',
  'no_text',
  'cant_update_message',
]);

/**
 * A Web API client for the consumer that never waits out a 429 itself: the
 * consumer turns Retry-After into a BullMQ rate limit, which pauses the whole
 * notify queue (Slack's limits are per method and workspace, not per job).
 */
export function createNotifyClient(token: string, apiUrl: string | undefined): webApi.WebClient {
  return new webApi.WebClient(token, {
    fetch: slackFetch,
    ...(apiUrl ? { slackApiUrl: apiUrl } : {}),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
}

/** Handles one notify job; exported for unit tests. */
export async function handleNotify(
  services: Pick<AppServices, 'plans' | 'subscriptions' | 'logger' | 'alerts'>,
  client: webApi.WebClient,
  redis: Redis,
  job: NotifyJob,
): Promise<void> {
  switch (job.kind) {
    case 'diagnosis-progress':
    case 'diagnosis-result': {
      const final = job.kind === 'diagnosis-result';
      const refs = await services.subscriptions.publish(job.cluster, job.jobId, {
        runTs: job.runTs,
        seq: job.seq,
        final,
        update: job,
      });
      if (refs === null) return; // superseded by a newer notification of the run
      await deliverRun(services, client, refs, job, final);
      // Alert-triggered and early-warning runs also go into their incident thread.
      if (job.kind === 'diagnosis-result' && services.alerts) {
        await services.alerts.runResult(client, job);
      }
      return;
    }
    case 'alert-thread': {
      if (!services.alerts) throw new UnrecoverableError('alert intake is not configured in this app');
      await services.alerts.threadJob(client, job);
      return;
    }
    case 'alert-overflow': {
      const message = overflowMessage(job);
      await client.chat.postMessage({
        channel: job.channel,
        text: message.text,
        blocks: asSlackBlocks(message.blocks),
      });
      return;
    }
    case 'remediation-outcome': {
      const undo = job.undoPlanId ? await services.plans.get(job.undoPlanId) : undefined;
      const message = remediationOutcomeMessage(job, undo);
      await client.chat.postMessage({
        channel: job.channel,
        thread_ts: job.messageTs,
        text: message.text,
        blocks: asSlackBlocks(message.blocks),
      });
      return;
    }
  }
}

/** Pauses of the notify queue for one job while Slack answers 5xx or cannot be reached. */
const TRANSIENT_PAUSES = 8;
const MAX_PAUSE_MS = 30_000;

/**
 * Slack answered 5xx or could not be reached. Such a job must be retried before the
 * jobs queued after it: a delayed retry would let "rolled out" overtake "applied" in
 * a thread.
 */
function isTransientSlackFailure(error: unknown): boolean {
  const e = error as { code?: unknown; statusCode?: unknown } | null;
  if (e?.code === 'slack_webapi_request_error') return true;
  return e?.code === 'slack_webapi_http_error' && typeof e.statusCode === 'number' && e.statusCode >= 500;
}

function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}

/**
 * Consumes both notify lanes (`notify` for people's commands and remediations,
 * `notify-alerts` for alert traffic) in the app process, one worker each, so a pause
 * of one never holds up the other. 429 → lane-wide pause for Retry-After and the job
 * goes back without losing an attempt; Slack 5xx/network → lane-wide pause with
 * backoff (order kept), then delayed retries; other errors → retry with backoff;
 * permanent Slack errors → failed at once.
 */
export function startNotifyConsumer(
  services: AppServices,
  options: { connection: Redis; redis: Redis; client: webApi.WebClient; concurrency: number },
): Worker<NotifyJob>[] {
  return NOTIFY_QUEUES.map((queue) => startLane(queue, services, options));
}

function startLane(
  queue: string,
  services: AppServices,
  options: { connection: Redis; redis: Redis; client: webApi.WebClient; concurrency: number },
): Worker<NotifyJob> {
  const { logger, metrics } = services;
  const worker: Worker<NotifyJob> = new Worker<NotifyJob>(
    queue,
    async (job: Job<NotifyJob>) => {
      const parsed = notifyJobSchema.safeParse(job.data);
      if (!parsed.success) throw new UnrecoverableError(`malformed notify job: ${parsed.error.message}`);
      const started = performance.now();
      try {
        await handleNotify(services, options.client, options.redis, parsed.data);
        metrics.jobDuration.observe({ queue, outcome: 'completed' }, (performance.now() - started) / 1000);
      } catch (error) {
        metrics.jobDuration.observe({ queue, outcome: 'error' }, (performance.now() - started) / 1000);
        if (error instanceof Error && 'retryAfter' in error && typeof error.retryAfter === 'number') {
          metrics.slackCalls.inc({ method: parsed.data.kind, outcome: 'rate-limited' });
          logger.warn({ retryAfter: error.retryAfter, queue }, 'Slack rate limit: pausing this notify lane');
          await worker.rateLimit(Math.max(1, error.retryAfter) * 1000);
          throw Worker.RateLimitError();
        }
        if (isTransientSlackFailure(error) && job.attemptsStarted <= TRANSIENT_PAUSES) {
          // Like a 429: the job goes back to the head of the queue and the queue waits,
          // so order is kept. Past the budget it falls back to a delayed retry below.
          const pauseMs = Math.min(MAX_PAUSE_MS, 1_000 * 2 ** Math.max(0, job.attemptsStarted - 1));
          logger.warn(
            { pauseMs, kind: parsed.data.kind, queue },
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
