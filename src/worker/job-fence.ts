/**
 * Whether this worker still owns a job, read from BullMQ's own records.
 *
 * BullMQ gives a job to one worker at a time: moving it to active sets its lock
 * (`<job key>:lock`, the worker's token, expiring after the lock duration) and counts
 * the start in the job's hash (`ats`, attemptsStarted). A worker cut off from Redis
 * (a partition, a stall) cannot renew the lock; once it lapses, the stalled-job
 * checker hands the job to another worker, whose start counts one more. So:
 * - before it writes to the cluster, a worker checks the lock still holds its token
 *   (`holds`): a worker that lost its job applies nothing;
 * - every outcome names the attempt that made it (`attempt`), and before an outcome is
 *   queued it is checked that no later attempt started (`superseded`): what a worker
 *   that lost its job did is told by the worker that took it over, never by both. The
 *   app keeps the same order for outcomes already queued (src/chat/notify/root-stage.ts).
 */
import type { Redis } from 'ioredis';
import { QUEUE_PREFIX, remediateQueueName } from '../queue/names.js';
import { remediateJobId } from '../queue/job-ids.js';
import { withDeadline } from '../queue/deadline.js';

/** The job (by queue and id) and the attempt an outcome belongs to. */
export interface FenceRef {
  queue: string;
  jobId: string;
  attempt: number;
}

/** The job of a plan's remediation, and the attempt that speaks. */
export function remediationFence(cluster: string, planId: string, attempt: number): FenceRef {
  return { queue: remediateQueueName(cluster), jobId: remediateJobId(planId), attempt };
}

/** BullMQ's hash of a job (keys.ts in bullmq: `<prefix>:<queue>:<id>`). */
function jobKey(ref: { queue: string; jobId: string }): string {
  return `${QUEUE_PREFIX}:${ref.queue}:${ref.jobId}`;
}

/** This worker no longer holds the job: another worker took it over, or it ended. */
export class JobLostError extends Error {
  override name = 'JobLostError';
}

/** How long a fence read may take before the answer counts as "cannot tell". */
const FENCE_READ_MS = 2_000;

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  return withDeadline(work, what, FENCE_READ_MS);
}

/**
 * Resolves when the lock of `ref`'s job holds `token`; rejects with JobLostError when it
 * does not, and with the Redis error when Redis cannot tell (then nothing may be written
 * either: the caller fails the attempt as retryable).
 */
export async function assertHolds(
  redis: Redis,
  ref: { queue: string; jobId: string },
  token: string,
): Promise<void> {
  const lock = await bounded(redis.get(`${jobKey(ref)}:lock`), 'job lock check');
  if (lock !== token)
    throw new JobLostError(
      `job ${ref.jobId} is no longer this worker's (its lock ${lock === null ? 'lapsed' : "is another worker's"})`,
    );
}

/** How long a run's answering attempt is kept: longer than any attempt of its job runs. */
const RUN_ANSWERED_TTL_MS = 60 * 60_000;

/**
 * The attempt that posted the result of the diagnosis run `key` names
 * (redisKeys.runAnswered), if any. BullMQ runs a job again when its lock lapsed, also
 * after the first attempt posted its result (a failover took the lock's renewals, and
 * the job could not be marked completed): that attempt would re-make the plans the
 * posted message shows (the app keeps a run's first result), so each of their Approve
 * buttons would no longer match the store. Unsigned: a number written by anyone else
 * can only keep a run from answering, and the run deadline then answers for it.
 */
export async function runAnsweredBy(redis: Redis, key: string): Promise<number | undefined> {
  const value = await bounded(redis.get(key), 'run answer check');
  return value !== null && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : undefined;
}

/** Records that `attempt` posted the result of the run `key` names. */
export async function markRunAnswered(redis: Redis, key: string, attempt: number): Promise<void> {
  await bounded(redis.set(key, String(attempt), 'PX', RUN_ANSWERED_TTL_MS), 'run answer record');
}

/**
 * True when a later attempt of the job started than `ref.attempt`: the outcome is
 * stale. A job Redis no longer holds (removed, or lost with a Redis that restarted
 * empty) supersedes nothing: the outcome is the only account left.
 */
export async function superseded(redis: Redis, ref: FenceRef): Promise<boolean> {
  const started = await bounded(redis.hget(jobKey(ref), 'ats'), 'job attempt check');
  return started !== null && Number(started) > ref.attempt;
}
