import type { Redis } from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../../queue/redis-keys.js';
import {
  markedJson,
  readMarkedJson,
  type RecordSigner,
  type RecordVerifier,
} from '../../queue/record-mark.js';

/**
 * What the bot learns from the activities Teams sends it and needs again later, on any
 * app replica:
 *
 * - how to reach a person in its personal chat with them (a not-found answer is told
 *   there, src/chat/notify/run-delivery.ts): their Teams user id (29:…) and the service
 *   URL of their activities, by Entra object id (what a run remembers as its requester;
 *   without Microsoft Graph nothing else maps one to the other);
 * - the service URL of a conversation (the Bot Connector endpoint of its tenant's
 *   region), where results, outcomes and deletions for its cards go.
 *
 * In Redis (`rd:teams:person:<object id>`, `rd:teams:conversation:<id>`, 7 days, renewed
 * while in use), so the replica that delivers a result, or one restarted since the
 * asker wrote, reaches them. A record steers where the bot speaks and where its token
 * goes, so it carries the app's mark (record-mark.ts, a domain of its own per kind, over
 * the key's subject and the stored JSON) and is zod-checked on read: a value planted,
 * altered or moved to another person or conversation reads as absent and is reported
 * (`onForged`). Absent, a private answer stays on the public card and a conversation
 * uses the configured TEAMS_SERVICE_URL. The connector checks a service URL's host
 * against TEAMS_SERVICE_URL_HOSTS again before the bot's token goes there.
 */

export interface TeamsPerson {
  /** Their Teams user id (29:…), the one member of the personal chat. */
  teamsUserId: string;
  /** The Bot Connector service URL of their activities. */
  serviceUrl: string;
}

export interface TeamsDirectory {
  person(aadObjectId: string): Promise<TeamsPerson | undefined>;
  setPerson(aadObjectId: string, person: TeamsPerson): Promise<void>;
  serviceUrl(conversationId: string): Promise<string | undefined>;
  setServiceUrl(conversationId: string, serviceUrl: string): Promise<void>;
}

const DIRECTORY_RECORD_SECONDS = 7 * 24 * 3600;
/** A stored value longer than this is not one the app wrote. */
const MAX_VALUE_CHARS = 8 * 1024;

const serviceUrl = z.url({ protocol: /^https?$/ }).max(2048);
const personSchema = z.object({ teamsUserId: z.string().min(1).max(512), serviceUrl }).strict();
const conversationSchema = z.object({ serviceUrl }).strict();

interface RedisDirectoryOptions {
  signer: RecordSigner;
  verifier: RecordVerifier;
  ttlSeconds?: number;
}

export function redisTeamsDirectory(redis: Redis, options: RedisDirectoryOptions): TeamsDirectory {
  const ttl = options.ttlSeconds ?? DIRECTORY_RECORD_SECONDS;
  const { signer, verifier } = options;

  /** One kind of marked record: `domain` names it in the mark and in tamper reports. */
  const records = <T>(
    domain: 'teams person' | 'teams conversation',
    keyOf: (subject: string) => string,
    schema: z.ZodType<T>,
  ) => ({
    async set(subject: string, value: T): Promise<void> {
      const json = JSON.stringify(value);
      await redis.set(
        keyOf(subject),
        markedJson(domain, json, (stored) => ({ subject, json: stored }), signer),
        'EX',
        ttl,
      );
    },
    async get(subject: string): Promise<T | undefined> {
      const key = keyOf(subject);
      const value = await redis.get(key);
      if (value === null) return undefined;
      const read =
        value.length <= MAX_VALUE_CHARS
          ? readMarkedJson(domain, value, (json) => ({ subject, json }), schema, verifier.keys)
          : undefined;
      if (read === undefined) verifier.onForged(domain, key);
      return read;
    },
  });
  const people = records('teams person', redisKeys.teamsPerson, personSchema);
  const conversations = records('teams conversation', redisKeys.teamsConversation, conversationSchema);
  return {
    person: (aad) => people.get(aad.toLowerCase()),
    setPerson: (aad, { teamsUserId, serviceUrl }) =>
      people.set(aad.toLowerCase(), { teamsUserId, serviceUrl }),
    serviceUrl: async (conversationId) => (await conversations.get(conversationId))?.serviceUrl,
    setServiceUrl: (conversationId, url) => conversations.set(conversationId, { serviceUrl: url }),
  };
}
/**
 * The directory as this process uses it: reads go to this process's memory first (what
 * it learned or read lately), then to the store; writes happen only when a value
 * changed or is half its TTL old here, so a busy approver's card refreshes do not each
 * cost a Redis write. Bounded (oldest forgotten first).
 */
export function cachedDirectory(
  store: TeamsDirectory,
  options: { max?: number; renewMs?: number; now?: () => number } = {},
) {
  const max = options.max ?? 10_000;
  const renewMs = options.renewMs ?? (DIRECTORY_RECORD_SECONDS * 1000) / 2;
  const now = options.now ?? Date.now;
  const known = new Map<string, { value: string; at: number }>();
  const remember = (key: string, value: string, at: number): void => {
    known.delete(key);
    known.set(key, { value, at });
    while (known.size > max) {
      const oldest = known.keys().next().value;
      if (oldest === undefined) break;
      known.delete(oldest);
    }
  };
  /** Writes through unless this process wrote the same value within `renewMs`. */
  const learn = async (key: string, value: string, write: () => Promise<void>): Promise<void> => {
    const last = known.get(key);
    if (last !== undefined && last.value === value && last.at > 0 && now() - last.at < renewMs) return;
    await write();
    remember(key, value, now());
  };
  return {
    learnPerson: (aad: string, person: TeamsPerson) =>
      learn(`p\u0000${aad.toLowerCase()}`, `${person.teamsUserId}\n${person.serviceUrl}`, () =>
        store.setPerson(aad, person),
      ),
    learnServiceUrl: (conversationId: string, url: string) =>
      learn(`c\u0000${conversationId}`, url, () => store.setServiceUrl(conversationId, url)),
    /** A person is read from the store each time: their record may be newer on another replica. */
    person: (aad: string) => store.person(aad),
    async serviceUrl(conversationId: string): Promise<string | undefined> {
      const key = `c\u0000${conversationId}`;
      const hit = known.get(key);
      if (hit !== undefined) return hit.value;
      const url = await store.serviceUrl(conversationId);
      // Read, not written here: at 0, so the next activity from it still writes it through.
      if (url !== undefined) remember(key, url, 0);
      return url;
    },
  };
}
