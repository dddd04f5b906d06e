/**
 * A person's job whose answer said "not started". The app gives up on an
 * enqueue at its deadline, but what it sent is not cancelled: on a Redis that stalled,
 * the add runs once the stall ends. Such a job carries its request's id (`request`, in
 * the signed job data); the app marks that id withdrawn right after giving up, on the
 * same connection, so Redis runs the mark right after the late add. A worker runs no job
 * whose request is withdrawn: it reads no cluster and posts nothing, since nobody was
 * told the run started.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { SIGNED_JOB_MS } from './diagnose-signature.js';
import { redisKeys } from './redis-keys.js';

/** A job is refused by its signature's expiry anyway; its mark outlives that, and the tolerated skew. */
const WITHDRAWN_MS = SIGNED_JOB_MS + 5 * 60_000;

/** A fresh request id (job ids are per target, so joined runs share theirs: this one is the request's own). */
export function newRequestId(): string {
  return randomBytes(12).toString('base64url');
}

/** Marks `request` withdrawn; best effort, never waited on (the person is answered already). */
export function withdrawRequest(redis: Pick<Redis, 'set'>, request: string): void {
  redis.set(redisKeys.withdrawn(request), '1', 'PX', WITHDRAWN_MS).catch(() => undefined);
}

/** True when the app withdrew `request` (its answer said nothing was started). */
export async function isWithdrawn(redis: Pick<Redis, 'exists'>, request: string): Promise<boolean> {
  return (await redis.exists(redisKeys.withdrawn(request))) === 1;
}
