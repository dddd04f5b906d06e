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
 * The approval's own edit ("applying…") goes through the same record: it records
 * 'applying' before its edit and shows whatever is latest (approvedStage). An
 * outcome can come before the approval has kept its message (a worker that applies
 * within the approval's round trip): every outcome first holds its stage under its plan
 * (`rd:plan-stage:<plan>`, ordered the same way), then looks for the message; the
 * approval keeps the message, then takes the held stage over. Whichever comes second
 * sees the other's write, so no outcome is lost.
 *
 * Outcomes are fenced by the remediate job's attempt: a worker cut off
 * from Redis while another took its job over may deliver its outcomes late, after the
 * other's. Each plan keeps the latest attempt that spoke (`rd:outcome-fence:<plan>`,
 * raised in the same script that moves the stage): an outcome of an earlier attempt
 * moves nothing, and `fence` tells the caller not to post it either.
 *
 * The record carries the app's mark (the approval key, a domain of its own, over the
 * message, plan, stage and time): a Redis writer can hold a line back (it could delete
 * the root record too), never make the app show a stage it did not record.
 */
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { FIX_STAGE_ORDER, NOT_APPLIED_STAGES, undoStageOf, type FixStage } from '../use-cases/outcome.js';
import { messageKeyPart } from '../../platforms/chat-refs.js';
import { redisKeys } from '../../queue/redis-keys.js';
import type { SigningKey } from '../../trust/approval-signature.js';
import type { MessageRef } from './subscriptions.js';

/** A stage of one plan on an approved message, and when the app learned of it. */
interface StageEntry {
  planId: string;
  stage: FixStage;
  at: number;
  /** The remediate job's attempt that said it (outcomes only); an earlier attempt than the plan's latest moves nothing. */
  attempt?: number | undefined;
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
  /**
   * Holds an outcome's stage under its plan (as a fix's stage: fixStageOf(job, false)),
   * for an approval that has not kept its message yet; later stages only.
   */
  hold(entry: StageEntry): Promise<void>;
  /** The stage held for `planId`, only when the app's mark on it verifies. */
  held(planId: string): Promise<StageEntry | null>;
  /**
   * Records that `attempt` of `planId`'s job spoke; false when a later attempt already
   * did (the outcome is stale: post nothing).
   */
  fence(planId: string, attempt: number): Promise<boolean>;
}

const TTL_SECONDS = 7 * 24 * 3600;
const DOMAIN = 'rollout-doctor root-stage v1';

/** The fence step of both scripts: KEYS[2] the plan's latest attempt, ARGV[8] this one ('0': none); ARGV[6] ttl. */
const FENCE_STEP = `
local attempt = tonumber(ARGV[8])
if attempt > 0 then
  local latest = tonumber(redis.call('GET', KEYS[2]) or '0')
  if attempt < latest then return 0 end
  if attempt > latest then redis.call('SET', KEYS[2], ARGV[8], 'EX', ARGV[6]) end
end
`;

/** KEYS[2] the fence, ARGV[6] ttl, ARGV[8] the attempt: 1 unless a later attempt spoke. */
const FENCE = `${FENCE_STEP}
return 1
`;

/**
 * KEYS[1] the record, KEYS[2] the plan's fence; ARGV: rank, stage, plan, at, mark, ttl,
 * approval ('1'), attempt, then the stages that applied nothing. 1 when the entry is
 * the message's stage now, else 0.
 */
const ADVANCE = `${FENCE_STEP}
local cur = redis.call('HMGET', KEYS[1], 'rank', 'stage', 'plan')
local rank = tonumber(cur[1])
if rank then
  if cur[2] == ARGV[2] and cur[3] == ARGV[3] then return 1 end
  if tonumber(ARGV[1]) < rank then
    local again = false
    if ARGV[7] == '1' then
      for i = 9, #ARGV do if cur[2] == ARGV[i] then again = true end end
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

/** What the mark covers: where the record is (a message, or `plan:` for a held stage) and its entry. */
function markBytes(where: string, entry: StageEntry): Buffer {
  return Buffer.from(`${DOMAIN}\n${where}\n${entry.planId}\n${entry.stage}\n${String(entry.at)}`);
}

const heldPart = (planId: string): string => `plan:${planId}`;

/**
 * @param onForged called when a stored stage does not verify: the app edits nothing
 *   for it, and says so where operators look.
 * @param onForgedHeld the same for a stage held under its plan (`rd:plan-stage`).
 */
export function createRootStages(
  redis: Redis,
  key: SigningKey,
  onForged: (message: MessageRef) => void,
  onForgedHeld: (planId: string) => void = () => undefined,
): RootStages {
  const publicKey: KeyObject = createPublicKey(key.privateKey);
  const advanceAt = async (
    recordKey: string,
    where: string,
    entry: StageEntry,
    approval: boolean,
  ): Promise<boolean> => {
    const mark = sign(null, markBytes(where, entry), key.privateKey).toString('base64url');
    const kept = await redis.eval(
      ADVANCE,
      2,
      recordKey,
      redisKeys.outcomeFence(entry.planId),
      String(FIX_STAGE_ORDER[entry.stage]),
      entry.stage,
      entry.planId,
      String(entry.at),
      mark,
      String(TTL_SECONDS),
      approval ? '1' : '0',
      String(entry.attempt ?? 0),
      ...NOT_APPLIED_STAGES,
    );
    return Number(kept) === 1;
  };
  /** The record at `recordKey` when its mark verifies; undefined when absent, null when altered. */
  const readAt = async (recordKey: string, where: string): Promise<KeptStage | null | undefined> => {
    const raw = await redis.hgetall(recordKey);
    if (Object.keys(raw).length === 0) return undefined;
    const parsed = keptSchema.safeParse(raw);
    if (parsed.success) {
      const { plan, stage, at, seq, mark } = parsed.data;
      const entry = { planId: plan, stage, at };
      if (verify(null, markBytes(where, entry), publicKey, Buffer.from(mark, 'base64url')))
        return { ...entry, seq };
    }
    return null;
  };
  return {
    advance(message, entry, options = {}) {
      const where = messageKeyPart(message);
      return advanceAt(redisKeys.rootStage(message), where, entry, options.approval === true);
    },
    async latest(message) {
      const kept = await readAt(redisKeys.rootStage(message), messageKeyPart(message));
      if (kept === null) onForged(message);
      return kept ?? null;
    },
    async hold(entry) {
      await advanceAt(redisKeys.planStage(entry.planId), heldPart(entry.planId), entry, false);
    },
    async fence(planId, attempt) {
      const args = ['', '', '', '', '', String(TTL_SECONDS), '', String(attempt)];
      const key = redisKeys.outcomeFence(planId);
      return Number(await redis.eval(FENCE, 2, key, key, ...args)) === 1;
    },
    async held(planId) {
      const kept = await readAt(redisKeys.planStage(planId), heldPart(planId));
      if (kept === null) onForgedHeld(planId);
      if (!kept || kept.planId !== planId) return null;
      return { planId, stage: kept.stage, at: kept.at };
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
  return showUntilSettled(stages, message, show);
}

/**
 * The approval's own edit of its message, made by its adapter after the press answers
 * (PressReply.mark and settle): records `mine` ('applying', or 'undoing' for an Undo)
 * before the edit, takes over a stage an outcome of the plan held before the message was
 * kept (`undo`: as the Undo's stage), and gives the latest stage to show now, `mine` or
 * later (the edit is made whether or not `mine` is the latest: it also replaces the
 * buttons), or null when the record cannot be read back (the caller shows `mine`). After
 * each edit landed, `settle` gives a later stage to show again, or undefined once the
 * record stayed put across the edit.
 */
export async function approvedStage(
  stages: RootStages,
  message: MessageRef,
  mine: StageEntry,
  options: { undo?: boolean } = {},
): Promise<{ latest: KeptStage; settle: () => Promise<KeptStage | undefined> } | null> {
  await stages.advance(message, mine, { approval: options.undo === true });
  // After `mine`: a held "failed" of an Undo stays later than its "undoing".
  const early = await stages.held(mine.planId);
  if (early) {
    const stage = options.undo ? undoStageOf(early.stage) : early.stage;
    await stages.advance(message, { ...early, stage });
  }
  let shown = await stages.latest(message);
  if (!shown) return null;
  let edits = 0;
  return {
    latest: shown,
    async settle() {
      if (!shown || ++edits >= MAX_EDITS) return undefined;
      const now = await stages.latest(message);
      if (!now || now.seq === shown.seq) return undefined;
      shown = now;
      return now;
    },
  };
}

/** Shows the latest stage until the record stays put across an edit; false when it cannot be read. */
async function showUntilSettled(
  stages: RootStages,
  message: MessageRef,
  show: (latest: KeptStage) => Promise<void>,
): Promise<boolean> {
  let latest = await stages.latest(message);
  for (let edits = 0; latest && edits < MAX_EDITS; edits++) {
    await show(latest);
    const now = await stages.latest(message);
    if (!now || now.seq === latest.seq) return true;
    latest = now;
  }
  return latest !== null;
}
