/**
 * A remediation's reply in its thread, posted once per notification (issue 67.9's
 * failover drill: "applied" twice in the thread, the plan applied once). BullMQ delivers
 * a notification at least once: a job whose lock lapsed, or whose completion a failover
 * lost, is taken again; the worker's rewrite of a reply a failover lost is the same
 * notification under another job id, named by the same deduplication id. Chat APIs take
 * no idempotency key, so the app keeps its own, by that id:
 *
 * - before the post, `posting:<token>` is set where nothing is (NX, 30 s);
 * - after it, `posted` (a day); a post that failed lets its mark go, so the retry posts;
 * - a delivery that finds `posted` posts nothing; one that finds another's `posting`
 *   (a delivery posting it right now, or one that died mid-post) fails, and BullMQ tries
 *   it again after its backoff, by when the other's mark says `posted` or has lapsed.
 *
 * What is left: a delivery that dies between the post and its `posted` mark (or whose
 * mark Redis refuses) is posted again once its `posting` mark lapses. Key:
 * `rd:notify-posted:<id>`; a Redis writer can hold a reply back (set `posted`) or let
 * it be posted again (delete it), never post anything.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisKeys } from '../../queue/redis-keys.js';
import { redisScript } from '../../queue/redis-script.js';

/** How long a delivery's `posting` mark holds the others off. */
export const POSTING_MS = 30_000;
/** How long a `posted` mark is kept: longer than any redelivery (the notify queue's backoff is minutes). */
const POSTED_MS = 24 * 3600 * 1000;

/** A notification being posted by another delivery now (or one that died mid-post): try again later. */
export class PostingElsewhereError extends Error {
  override name = 'PostingElsewhereError';
}

export type Posted<T> = { posted: true; value: T } | { posted: false };

export interface PostedOnce {
  /** `post()` unless notification `id` was posted already ({posted: false}). */
  once<T>(id: string, post: () => Promise<T>): Promise<Posted<T>>;
}

// KEYS: the mark. ARGV: the token. Deletes the mark only while it is this delivery's.
const LET_GO = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;
const letGo = redisScript(LET_GO);

export function createPostedOnce(
  redis: Pick<Redis, 'set' | 'get' | 'eval' | 'evalsha'>,
  onUnmarked: (id: string, error: unknown) => void = () => undefined,
): PostedOnce {
  return {
    async once(id, post) {
      const key = redisKeys.notifyPosted(id);
      const token = `posting:${randomUUID()}`;
      if ((await redis.set(key, token, 'PX', POSTING_MS, 'NX')) !== 'OK') {
        if ((await redis.get(key)) === 'posted') return { posted: false };
        throw new PostingElsewhereError(`notification ${id} is being posted by another delivery`);
      }
      let value: Awaited<ReturnType<typeof post>>;
      try {
        value = await post();
      } catch (error) {
        await letGo(redis, [key], token).catch(() => undefined);
        throw error;
      }
      // Posted: failing now would have the retry post it again; the `posting` mark holds
      // the others off for its 30 s instead.
      await redis.set(key, 'posted', 'PX', POSTED_MS).catch((error: unknown) => onUnmarked(id, error));
      return { posted: true, value };
    },
  };
}
