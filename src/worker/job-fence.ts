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

/**
 * True when a later attempt of the job started than `ref.attempt`: the outcome is
 * stale. A job Redis no longer holds (removed, or lost with a Redis that restarted
 * empty) supersedes nothing: the outcome is the only account left.
 */
export async function superseded(redis: Redis, ref: FenceRef): Promise<boolean> {
  const started = await bounded(redis.hget(jobKey(ref), 'ats'), 'job attempt check');
  return started !== null && Number(started) > ref.attempt;
}
