import type { Redis } from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../../queue/redis-keys.js';
import {
  markedJson,
  readMarkedJson,
  type RecordSigner,
  type RecordVerifier,
} from '../../queue/record-mark.js';
import { chatMessageSchema } from '../message-schema.js';
import type { MessageRef } from '../model.js';
import type { CardStore } from './adapter.js';

/**
 * Card records in Redis (`rd:teams:card:<conversation>/<activity>`), so every app
 * replica can answer a refresh or a press on a card another replica posted. A record
 * decides what a viewer's card shows and which actions a press may ask for, so it
 * carries the app's mark (record-mark.ts, a domain of its own, over the conversation,
 * the activity id and the stored JSON): a Redis writer cannot make the bot show text or
 * offer a button it did not render, nor move a record to another card. On read the mark
 * is checked first, then the JSON is parsed with the port's message schema; a value that
 * fails either is reported (`onForged`) and read as absent ("no longer followed").
 * Records expire (TTL, default 7 days, as alert threads), so the keyspace stays bounded.
 */

const DOMAIN = 'teams-card';
/** A stored value longer than this is not one the app wrote (cards stay under 28 KB). */
const MAX_VALUE_CHARS = 512 * 1024;
export const CARD_RECORD_SECONDS = 7 * 24 * 3600;

const recordSchema = z
  .object({
    message: chatMessageSchema,
    refreshUserIds: z.array(z.string().min(1).max(512)).max(10_000),
  })
  .strict();

interface RedisCardStoreOptions {
  signer: RecordSigner;
  verifier: RecordVerifier;
  ttlSeconds?: number;
}

/** What the mark covers: where the card is and exactly what was stored for it. */
const marked = (ref: MessageRef, json: string) => ({ conversation: ref.conversation.id, id: ref.id, json });

export function redisCardStore(redis: Redis, options: RedisCardStoreOptions): CardStore {
  const ttl = options.ttlSeconds ?? CARD_RECORD_SECONDS;
  const { signer, verifier } = options;
  return {
    async set(ref, record) {
      const json = JSON.stringify({ message: record.message, refreshUserIds: record.refreshUserIds });
      const value = markedJson(DOMAIN, json, (stored) => marked(ref, stored), signer);
      await redis.set(redisKeys.teamsCard(ref.conversation.id, ref.id), value, 'EX', ttl);
    },
    async get(ref) {
      const key = redisKeys.teamsCard(ref.conversation.id, ref.id);
      const value = await redis.get(key);
      if (value === null) return undefined;
      const record =
        value.length <= MAX_VALUE_CHARS
          ? readMarkedJson(DOMAIN, value, (json) => marked(ref, json), recordSchema, verifier.keys)
          : undefined;
      if (record === undefined) verifier.onForged('teams card', key);
      return record;
    },
  };
}
