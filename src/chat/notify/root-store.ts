/**
 * Where an approved plan's message is and what it showed, kept by the app under its
 * mark in `rd:root:<planId>` (the approval key, a domain of its own, over the plan and
 * the record): what ./root-update.ts re-renders, on every platform, as
 * outcomes arrive. A value that does not verify is dropped with a warning. No chat
 * platform's markup or SDK here: ChatServices names these types.
 */
import { createHash, createPublicKey, sign, verify } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { redisKeys } from '../../queue/redis-keys.js';
import {
  anyConversation,
  anyMessageId,
  checkRef,
  platformField,
  platformTag,
} from '../../platforms/chat-refs.js';
import type { SigningKey } from '../../trust/approval-signature.js';
import type { MessageRef } from './subscriptions.js';
import { createRootStages, type RootStages } from './root-stage.js';

export const rootRecordSchema = z
  .object({
    /** The message's chat platform (src/platforms/chat-refs.ts), under the record's mark; absent: Slack. */
    platform: platformField,
    channel: anyConversation,
    ts: anyMessageId,
    /** The thread the plan's outcomes are posted in (the message itself when it is a root). */
    threadTs: anyMessageId,
    /** The approved plan is an Undo: its outcomes read as undone or not. */
    undo: z.boolean(),
    /** The fix's name as the state line says it ("set-rolling-update", "undo of exclude-node"). */
    what: z.string().max(200),
    /** "approved by <@U1> at …", as rendered at approval time. */
    approval: z.string().max(2000),
    /** The verdict line's text as first rendered. */
    verdict: z.string().max(3000),
    blocks: z.array(z.record(z.string(), z.unknown())).max(50),
  })
  .superRefine((r, ctx) =>
    checkRef({ platform: r.platform, conversation: r.channel, message: r.ts, thread: r.threadTs }, ctx),
  );

/** A root message the app rendered, kept to re-render its state line. */
export type RootRecord = z.infer<typeof rootRecordSchema>;

const TTL_SECONDS = 7 * 24 * 3600;
const DOMAIN = 'rollout-doctor root-state v1';

function markBytes(planId: string, record: RootRecord): Buffer {
  const digest = createHash('sha256').update(JSON.stringify(record)).digest('hex');
  return Buffer.from(`${DOMAIN}\n${planId}\n${digest}`);
}

export interface RootStates {
  /**
   * Keeps what the app put on a message for `planId` (and its Undo, under the undo's id).
   * `ifAbsent`: only when no record is kept (writing again what a failover lost, never
   * over a later state).
   */
  record(planId: string, record: RootRecord, options?: { ifAbsent?: boolean }): Promise<void>;
  /** The record, only when the app's mark on it verifies; null when absent or altered. */
  load(planId: string): Promise<RootRecord | null>;
  /** Where each approved message's state line stands, ordered across replicas (./root-stage.ts). */
  stages: RootStages;
}

/**
 * @param onForged called when a stored record does not verify (a Redis writer altered
 *   it): the app does not edit the message, and says so where operators look.
 * @param onForgedStage the same for a message's stage record (./root-stage.ts).
 */
export function createRootStates(
  redis: Redis,
  key: SigningKey,
  onForged: (planId: string) => void,
  onForgedStage: (message: MessageRef) => void = () => undefined,
  onForgedHeld: (planId: string) => void = () => undefined,
): RootStates {
  const publicKey = createPublicKey(key.privateKey);
  const keyOf = redisKeys.rootState;
  return {
    stages: createRootStages(redis, key, onForgedStage, onForgedHeld),
    async record(planId, record, options = {}) {
      const value = rootRecordSchema.parse(record);
      const mark = sign(null, markBytes(planId, value), key.privateKey).toString('base64url');
      const stored = JSON.stringify({ record: value, mark });
      if (options.ifAbsent) await redis.set(keyOf(planId), stored, 'EX', TTL_SECONDS, 'NX');
      else await redis.set(keyOf(planId), stored, 'EX', TTL_SECONDS);
    },
    async load(planId) {
      const raw = await redis.get(keyOf(planId));
      if (raw === null) return null;
      try {
        const parsed = z
          .object({ record: rootRecordSchema, mark: z.string().max(200) })
          .parse(JSON.parse(raw));
        if (verify(null, markBytes(planId, parsed.record), publicKey, Buffer.from(parsed.mark, 'base64url')))
          return parsed.record;
      } catch {
        // falls through: not a record the app wrote
      }
      onForged(planId);
      return null;
    },
  };
}

/** The message a record is on. */
export function rootRef(record: RootRecord): MessageRef {
  return { ...platformTag(record.platform), channel: record.channel, ts: record.ts };
}
