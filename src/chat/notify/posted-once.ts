/**
 * A remediation's reply in its thread, posted once per notification (a failover
 * once showed "applied" twice in the thread for a plan applied once). BullMQ delivers
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
 * Both marks are confirmed on the replicas like the app's other writes
 * (src/queue/replication-guard.ts): WAITed for, and set again on the new master when a
 * failover lost them, so a reply the worker writes again after a failover (the
 * notification lost with the old master) finds its mark there and is not posted twice.
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
import type { ReplicationGuard } from '../../queue/replication-guard.js';

/** How long a delivery's `posting` mark holds the others off. */
const POSTING_MS = 30_000;
/** How long a `posted` mark is kept: longer than any redelivery (the notify queue's backoff is minutes). */
const POSTED_MS = 24 * 3600 * 1000;

/** A notification being posted by another delivery now (or one that died mid-post): try again later. */
export class PostingElsewhereError extends Error {
  override name = 'PostingElsewhereError';
}

type Posted<T> = { posted: true; value: T } | { posted: false };

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

interface PostedOnceOptions {
  /** A `posted` mark Redis refused (the reply may be posted again by a redelivery). */
  onUnmarked?: (id: string, error: unknown) => void;
  /** The app's replication guard, once it exists: the marks are confirmed through it. */
  replication?: () => Pick<ReplicationGuard, 'confirm' | 'socket'> | undefined;
}

export function createPostedOnce(
  redis: Pick<Redis, 'set' | 'get' | 'eval' | 'evalsha'>,
  options: PostedOnceOptions = {},
): PostedOnce {
  const { onUnmarked = () => undefined } = options;
  /** WAITs for the mark on the replicas; a failover that lost it has `redo` set it again. */
  const confirmed = async (
    label: string,
    id: string,
    socket: number | undefined,
    redo: () => Promise<unknown>,
  ): Promise<void> => {
    await options.replication?.()?.confirm({
      label,
      fields: { notification: id },
      redo: async () => void (await redo()),
      ...(socket === undefined ? {} : { socket }),
    });
  };
  return {
    async once(id, post) {
      const key = redisKeys.notifyPosted(id);
      const token = `posting:${randomUUID()}`;
      const socket = options.replication?.()?.socket();
      if ((await redis.set(key, token, 'PX', POSTING_MS, 'NX')) !== 'OK') {
        if ((await redis.get(key)) === 'posted') return { posted: false };
        throw new PostingElsewhereError(`notification ${id} is being posted by another delivery`);
      }
      let value: Awaited<ReturnType<typeof post>>;
      try {
        // Set again where nothing is (never over `posted`).
        await confirmed('posting mark', id, socket, () => redis.set(key, token, 'PX', POSTING_MS, 'NX'));
        value = await post();
      } catch (error) {
        await letGo(redis, [key], token).catch(() => undefined);
        throw error;
      }
      // Posted: failing now would have the retry post it again; the `posting` mark holds
      // the others off for its 30 s instead.
      try {
        const after = options.replication?.()?.socket();
        await redis.set(key, 'posted', 'PX', POSTED_MS);
        await confirmed('posted mark', id, after, () => redis.set(key, 'posted', 'PX', POSTED_MS));
      } catch (error) {
        onUnmarked(id, error);
      }
      return { posted: true, value };
    },
  };
}
