/**
 * What the app keeps for a Draft post-mortem button: which incident the
 * message carrying it is about and the thread's language, written when the outcome
 * reply that carries it is posted (./outcome-delivery.ts), read when it is pressed
 * (src/chat/use-cases/postmortem-press.ts). The button itself carries nothing: the
 * incident comes from this record, never from what the platform sends back.
 *
 * Keys: `rd:pm-button:<message>` ("<mark>\n<json>", the app's mark over the message and
 * the JSON, record-mark.ts: a Redis writer cannot point a thread's button at another
 * incident) and `rd:pm-draft:<message>:<entries>` (when the draft of the record at that
 * many events was posted from the message: a second press on an unchanged record posts
 * nothing). Both expire with the incident's record (ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS).
 */
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { LANGS, type Lang } from '../../i18n/lang.js';
import { platformOf } from '../../platforms/chat-refs.js';
import { readIncidentJournal } from '../../queue/incident-journal.js';
import {
  markedJson,
  readMarkedJson,
  type RecordSigner,
  type RecordVerifier,
} from '../../queue/record-mark.js';
import { redisKeys } from '../../queue/redis-keys.js';
import type { AuditLog } from '../../postmortem/read-audit.js';
import type { MessageRef } from './subscriptions.js';

/** The incident a button's message is about (CLUSTER/NAMESPACE/NAME) and the language of its thread. */
export interface PostmortemButton {
  incident: string;
  cluster: string;
  namespace: string;
  lang: Lang;
}

export interface PostmortemButtons {
  /** Keeps, under the app's mark, what the button on `message` drafts. */
  remember(message: MessageRef, button: PostmortemButton): Promise<void>;
  /** What the button on `message` drafts; null when nothing was kept (or kept and expired, or not the app's). */
  of(message: MessageRef): Promise<PostmortemButton | null>;
  /**
   * Claims the posting of the draft of `message`'s incident as its record stands now
   * (`entries` events): null when this press is the first for that record; else when
   * the draft of that same record was posted (ms).
   */
  claimDraft(message: MessageRef, entries: number, at: number): Promise<number | null>;
  /** Gives a claim back (its draft could not be posted). */
  releaseDraft(message: MessageRef, entries: number): Promise<void>;
  /** The incident's record (src/queue/incident-journal.ts). */
  read(incident: string): Promise<AuditLog>;
}

const DOMAIN = 'postmortem-button';

const buttonSchema = z
  .object({
    incident: z.string().min(5).max(800),
    cluster: z.string().min(1).max(253),
    namespace: z.string().min(1).max(253),
    lang: z.enum(LANGS),
  })
  .strict();

/** What the mark covers: where the message is (its platform too) and exactly what was stored. */
const covered = (message: MessageRef) => (json: string) => ({
  platform: platformOf(message),
  channel: message.channel,
  ts: message.ts,
  json,
});

export function createPostmortemButtons(
  redis: Redis,
  options: { records: { signer: RecordSigner; verifier: RecordVerifier }; retentionMs: number },
): PostmortemButtons {
  const { signer, verifier } = options.records;
  const ttl = options.retentionMs;
  return {
    async remember(message, button) {
      const json = JSON.stringify(buttonSchema.parse(button));
      const value = markedJson(DOMAIN, json, covered(message), signer);
      await redis.set(redisKeys.postmortemButton(message), value, 'PX', ttl);
    },
    async of(message) {
      const key = redisKeys.postmortemButton(message);
      const value = await redis.get(key);
      if (value === null) return null;
      const button = readMarkedJson(DOMAIN, value, covered(message), buttonSchema, verifier.keys);
      if (button === undefined) {
        verifier.onForged('post-mortem button', key);
        return null;
      }
      return button;
    },
    async claimDraft(message, entries, at) {
      const key = redisKeys.postmortemDraft(message, entries);
      if ((await redis.set(key, String(at), 'PX', ttl, 'NX')) === 'OK') return null;
      const earlier = Number(await redis.get(key));
      return Number.isFinite(earlier) && earlier > 0 ? earlier : at;
    },
    async releaseDraft(message, entries) {
      await redis.del(redisKeys.postmortemDraft(message, entries));
    },
    read: (incident) => readIncidentJournal(redis, incident),
  };
}
