/**
 * Where an approved message's state line stands, decided in Redis so every app replica
 * agrees. Each replica's notify consumer takes outcomes from the same queue, so one
 * plan's "applied" and "rolled out" can be handled at once by two replicas and their
 * edits of the message can land in either order. One record per approved message
 * (`rd:root-stage:<message>`, shared by its plan and the plan's Undo) holds the latest
 * stage; a Lua script moves it forward only (FIX_STAGE_ORDER in
 * src/chat/use-cases/outcome.ts) and counts each move. An outcome whose stage is not
 * later edits nothing; one that is edits the message, then reads the record again: if a
 * later stage came in meanwhile (another replica's edit may have landed before this
 * one), it shows that one too. The last edit to land is therefore made after the
 * latest stage was recorded, by a replica that read it (docs/operations.md, "Several app
 * replicas").
 *
 * The record carries the app's mark (the approval key, a domain of its own, over the
 * message, plan, stage and time): a Redis writer can hold a line back (it could delete
 * the root record too), never make the app show a stage it did not record.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { FIX_STAGE_ORDER, NOT_APPLIED_STAGES, type FixStage } from '../../chat/use-cases/outcome.js';
import { messageKeyPart } from '../../queue/chat-refs.js';
import { redisKeys } from '../../queue/redis-keys.js';
import type { SigningKey } from '../../trust/approval-signature.js';
import type { MessageRef } from './subscriptions.js';

/** A stage of one plan on an approved message, and when the app learned of it. */
export interface StageEntry {
  planId: string;
  stage: FixStage;
  at: number;
}

/** The latest stage as recorded, with the count of moves that got it there. */
export interface KeptStage extends StageEntry {
  seq: number;
}

export interface RootStages {
  /**
   * Records `entry` as the message's stage unless a later one is kept; true when it is
   * (the same plan and stage again, a retried delivery, counts: its time stays).
   * `approval`: written by an approval, which also follows a stage that applied nothing
   * (an Undo pressed again after it failed).
   */
  advance(message: MessageRef, entry: StageEntry, options?: { approval?: boolean }): Promise<boolean>;
  /** The latest stage, only when the app's mark on it verifies; null when absent or altered. */
  latest(message: MessageRef): Promise<KeptStage | null>;
}

const TTL_SECONDS = 7 * 24 * 3600;
const DOMAIN = 'rollout-doctor root-stage v1';

/**
 * KEYS[1] the record; ARGV: rank, stage, plan, at, mark, ttl, approval ('1'), then the
 * stages that applied nothing. 1 when the entry is the message's stage now, else 0.
 */
const ADVANCE = `
local cur = redis.call('HMGET', KEYS[1], 'rank', 'stage', 'plan')
local rank = tonumber(cur[1])
if rank then
  if cur[2] == ARGV[2] and cur[3] == ARGV[3] then return 1 end
  if tonumber(ARGV[1]) < rank then
    local again = false
    if ARGV[7] == '1' then
      for i = 8, #ARGV do if cur[2] == ARGV[i] then again = true end end
    end
    if not again then return 0 end
  end
end
redis.call('HSET', KEYS[1], 'rank', ARGV[1], 'stage', ARGV[2], 'plan', ARGV[3], 'at', ARGV[4], 'mark', ARGV[5])
redis.call('HINCRBY', KEYS[1], 'seq', 1)
redis.call('EXPIRE', KEYS[1], ARGV[6])
return 1
`;

const keptSchema = z.object({
  plan: z.string().min(1).max(200),
  stage: z.enum(Object.keys(FIX_STAGE_ORDER) as [FixStage, ...FixStage[]]),
  at: z.coerce.number().int().nonnegative(),
  seq: z.coerce.number().int().positive(),
  mark: z.string().max(200),
});

function markBytes(message: MessageRef, entry: StageEntry): Buffer {
  return Buffer.from(
    `${DOMAIN}\n${messageKeyPart(message)}\n${entry.planId}\n${entry.stage}\n${String(entry.at)}`,
  );
}

/**
 * @param onForged called when a stored stage does not verify: the app edits nothing
 *   for it, and says so where operators look.
 */
export function createRootStages(
  redis: Redis,
  key: SigningKey,
  onForged: (message: MessageRef) => void,
): RootStages {
  const publicKey: KeyObject = createPublicKey(key.privateKey);
  return {
    async advance(message, entry, options = {}) {
      const mark = sign(null, markBytes(message, entry), key.privateKey).toString('base64url');
      const kept = await redis.eval(
        ADVANCE,
        1,
        redisKeys.rootStage(message),
        String(FIX_STAGE_ORDER[entry.stage]),
        entry.stage,
        entry.planId,
        String(entry.at),
        mark,
        String(TTL_SECONDS),
        options.approval ? '1' : '0',
        ...NOT_APPLIED_STAGES,
      );
      return Number(kept) === 1;
    },
    async latest(message) {
      const raw = await redis.hgetall(redisKeys.rootStage(message));
      if (Object.keys(raw).length === 0) return null;
      const parsed = keptSchema.safeParse(raw);
      if (parsed.success) {
        const { plan, stage, at, seq, mark } = parsed.data;
        const entry = { planId: plan, stage, at };
        if (verify(null, markBytes(message, entry), publicKey, Buffer.from(mark, 'base64url')))
          return { ...entry, seq };
      }
      onForged(message);
      return null;
    },
  };
}

/** Moves at most this often per outcome: one per rank above applying is already more than a plan has. */
const MAX_EDITS = Object.keys(FIX_STAGE_ORDER).length;

/**
 * Records `mine` and, when it is the message's stage now, shows the latest stage with
 * `show` until the record stays put across an edit: whatever order replicas' edits
 * land in, the last one shows the latest stage. False when a later stage was kept (the
 * replica that recorded it shows it) or the record cannot be read back.
 */
export async function showLatestStage(
  stages: RootStages,
  message: MessageRef,
  mine: StageEntry,
  show: (latest: KeptStage) => Promise<void>,
  options: { approval?: boolean } = {},
): Promise<boolean> {
  if (!(await stages.advance(message, mine, options))) return false;
  let latest = await stages.latest(message);
  for (let edits = 0; latest && edits < MAX_EDITS; edits++) {
    await show(latest);
    const now = await stages.latest(message);
    if (!now || now.seq === latest.seq) return true;
    latest = now;
  }
  return latest !== null;
}
