import type { Redis } from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../../queue/redis-keys.js';
import {
  markedJson,
  readMarkedJson,
  type RecordSigner,
  type RecordVerifier,
} from '../../queue/record-mark.js';
import { MAX_REFRESH_USERS } from './cards.js';

/**
 * The Teams user ids (29:…) whose clients refresh a card on sight (`refresh.userIds`,
 * cards.ts): approvers, so their client fetches their own view, where Apply is enabled.
 * The same on every app replica and across restarts: each approver the bot has seen is
 * a record in Redis (`rd:teams:approver:<object id>`: their Teams id and when they were
 * last seen, 7 days, renewed while they use the bot), and a card's list is read from
 * there for the approvers the policy names now (by Entra object id). A record decides
 * who gets a per-user view, so it carries the app's mark (record-mark.ts, a domain of its
 * own, over the object id and the stored JSON) and is zod-checked on read: a value
 * planted, altered or moved to another person reads as absent and is reported
 * (`onForged`). Only keys of the policy's approvers are read, so a Redis writer cannot
 * add anyone; nor can it make a record newer than the app wrote it. An approver the
 * policy no longer names drops off every replica's next card at once.
 *
 * Teams takes at most 60 ids: with more approvers seen, the 60 seen most recently
 * (ties by object id), so the list does not depend on which replica reads it.
 */

export interface RefreshList {
  /** An approver was seen (any activity of theirs): remember their Teams id, as of now. */
  seen(aadObjectId: string, teamsUserId: string): Promise<void>;
  /** The Teams ids of `approvers` (Entra object ids, the policy's) seen lately, at most 60. */
  userIds(approvers: readonly string[]): Promise<string[]>;
}

const REFRESH_RECORD_SECONDS = 7 * 24 * 3600;
/** A replica writes an approver's record again at most this often while the Teams id stays the same. */
export const REFRESH_RENEW_MS = 10 * 60 * 1000;
/** A stored value longer than this is not one the app wrote. */
const MAX_VALUE_CHARS = 4 * 1024;
/** Keys per MGET, so a policy with thousands of approvers does not make one huge command. */
const READ_CHUNK = 500;
const DOMAIN = 'teams approver';

const recordSchema = z
  .object({
    teamsUserId: z.string().min(1).max(512),
    seenAt: z.number().int().nonnegative(),
  })
  .strict();
type ApproverRecord = z.infer<typeof recordSchema>;

interface RedisRefreshListOptions {
  signer: RecordSigner;
  verifier: RecordVerifier;
  ttlSeconds?: number;
  renewMs?: number;
  now?: () => number;
  /** Bound of this process's memory (what it wrote lately, values it verified). */
  max?: number;
}

/** A Map that forgets its oldest entries beyond `max`. */
function boundedMap<V>(max: number) {
  const map = new Map<string, V>();
  return {
    get: (key: string): V | undefined => map.get(key),
    set(key: string, value: V): void {
      map.delete(key);
      map.set(key, value);
      while (map.size > max) {
        const oldest = map.keys().next().value;
        if (oldest === undefined) break;
        map.delete(oldest);
      }
    },
  };
}

export function redisRefreshList(redis: Redis, options: RedisRefreshListOptions): RefreshList {
  const ttl = options.ttlSeconds ?? REFRESH_RECORD_SECONDS;
  const renewMs = options.renewMs ?? REFRESH_RENEW_MS;
  const now = options.now ?? Date.now;
  const max = options.max ?? 10_000;
  const { signer, verifier } = options;
  /** What this process wrote lately, per object id: a busy approver is not a write per activity. */
  const written = boundedMap<{ teamsUserId: string; at: number }>(max);
  /** Values whose mark this process checked (by object id and exact value): a verify per card is not needed. */
  const verified = boundedMap<ApproverRecord>(max);

  const read = (aad: string, value: string): ApproverRecord | undefined => {
    const cacheKey = `${aad}\u0000${value}`;
    const hit = verified.get(cacheKey);
    if (hit !== undefined) return hit;
    const record =
      value.length <= MAX_VALUE_CHARS
        ? readMarkedJson(DOMAIN, value, (json) => ({ subject: aad, json }), recordSchema, verifier.keys)
        : undefined;
    if (record !== undefined) verified.set(cacheKey, record);
    return record;
  };

  return {
    async seen(aadObjectId, teamsUserId) {
      const aad = aadObjectId.toLowerCase();
      const at = now();
      const last = written.get(aad);
      if (last !== undefined && last.teamsUserId === teamsUserId && at - last.at < renewMs) return;
      const json = JSON.stringify({ teamsUserId, seenAt: at } satisfies ApproverRecord);
      const value = markedJson(DOMAIN, json, (stored) => ({ subject: aad, json: stored }), signer);
      await redis.set(redisKeys.teamsApprover(aad), value, 'EX', ttl);
      written.set(aad, { teamsUserId, at });
    },
    async userIds(approvers) {
      const aads = [...new Set(approvers.map((a) => a.toLowerCase()))];
      const found: { aad: string; record: ApproverRecord }[] = [];
      for (let i = 0; i < aads.length; i += READ_CHUNK) {
        const chunk = aads.slice(i, i + READ_CHUNK);
        const values = await redis.mget(chunk.map((aad) => redisKeys.teamsApprover(aad)));
        chunk.forEach((aad, j) => {
          const value = values[j];
          if (value === null || value === undefined) return;
          const record = read(aad, value);
          if (record === undefined) verifier.onForged(DOMAIN, redisKeys.teamsApprover(aad));
          else found.push({ aad, record });
        });
      }
      found.sort((a, b) => b.record.seenAt - a.record.seenAt || (a.aad < b.aad ? -1 : a.aad > b.aad ? 1 : 0));
      const ids: string[] = [];
      for (const { record } of found) {
        if (ids.length >= MAX_REFRESH_USERS) break;
        if (!ids.includes(record.teamsUserId)) ids.push(record.teamsUserId);
      }
      return ids;
    },
  };
}
