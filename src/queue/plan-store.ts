import { redisKeys } from './redis-keys.js';
import { remediateJobId } from './job-ids.js';
import { QUEUE_PREFIX, remediateQueueName } from './names.js';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { planSealSchema, shownDigest } from '../trust/plan-seal.js';
import type { StoredPlan } from '../trust/stored-plan.js';

/**
 * Remediation plans stored server-side; a Slack button carries the plan id and the
 * digest of the plan as shown (src/trust/plan-seal.ts `shownDigest`).
 * Keys: `rd:plan:<id>` (hash: json, expiresAt), `rd:plan:<id>:approvals` (set of
 * approvals: the app's marks, `<user>~<signature>`), `rd:plan:<id>:approvals-shown` (the shown digest those approvals were
 * given for, with `~<duration>` when their approver chose how long an exclusion lasts), `rd:plan:<id>:claim` ("U1,U2|<ms>" once claimed; a claim whose job
 * never got queued is let go after ORPHAN_CLAIM_MS). Keys outlive the
 * plan's expiry by a day so a late click can be told "expired", not "unknown".
 */

export type { DryRunSummary, FieldChange, StoredPlan } from '../trust/stored-plan.js';

export type ClaimResult =
  /** `marks`: the approvals as recorded (the `approver` values given to `approve`), for checking. */
  | { status: 'claimed'; approvers: string[]; marks: string[]; at: number; stored: StoredPlan }
  | { status: 'recorded'; approvals: number; required: number; stored: StoredPlan }
  | { status: 'same-approver'; stored: StoredPlan }
  | { status: 'already-claimed'; approvers: string[]; at: number; stored: StoredPlan }
  | { status: 'expired'; stored: StoredPlan }
  /** The stored plan is not the one the approver was shown (its shown digest differs): nothing recorded. */
  | { status: 'changed'; stored: StoredPlan }
  /**
   * Approvals of this plan as shown are recorded for another duration (`lasts`: theirs,
   * absent for the plan's own): nothing recorded, theirs stand.
   */
  | { status: 'other-duration'; lasts?: string; stored: StoredPlan }
  | { status: 'unknown' };

export interface PlanStore {
  /**
   * `ifAbsent`: only where the plan is not stored (a worker writing again what a
   * failover lost: src/worker/guarded-writes.ts), so a later copy and its approvals stay.
   */
  save(stored: StoredPlan, options?: { ifAbsent?: boolean }): Promise<void>;
  get(id: string): Promise<StoredPlan | undefined>;
  /**
   * Records an approval of the plan as shown (`shown`, its shown digest) and claims the
   * plan once `required` distinct approvals of it as shown the same way are recorded,
   * atomically: of many concurrent clicks exactly one gets 'claimed'. 'changed' when the
   * stored plan is not what `shown` names. `approver`: a user id, or as the app records
   * it, the user's mark `<user>~<signature>` (the same for the same user and plan as shown).
   */
  approve(
    id: string,
    approver: string,
    required: number,
    shown: string,
    now?: number,
    /**
     * Every id of the approver's person (src/policy/people.ts): an approval already
     * recorded under any of them is this person's, 'same-approver'.
     */
    sameperson?: readonly string[],
    /**
     * How long the node exclusion lasts, as this approver chose it (absent: as the plan
     * says): approvals count together only for the same duration; one for another
     * while some are recorded is 'other-duration'.
     */
    lasts?: string,
  ): Promise<ClaimResult>;
  /** Who claimed it and when, if anyone. */
  claimOf(id: string): Promise<{ approvers: string[]; at: number } | undefined>;
  /**
   * Drops a claim and its approvals, when the claimed job could not be queued or failed.
   * `claimedAt`: only the claim made then (a release written again after a failover
   * must not drop a later approval's claim).
   */
  release(id: string, options?: { claimedAt?: number }): Promise<void>;
  /**
   * Writes a claim again as `approve` made it (`marks`, `at`) unless the plan has one:
   * a failover lost it (src/queue/replication-guard.ts). False when a claim was there.
   */
  restoreClaim(stored: StoredPlan, marks: readonly string[], at: number): Promise<boolean>;
}

const storedPlanSchema = z.object({
  plan: z.looseObject({
    id: z.string(),
    kind: z.string(),
    target: z.looseObject({ namespace: z.string(), name: z.string() }),
  }),
  cluster: z.string(),
  createdAt: z.number(),
  expiresAt: z.number(),
  dryRun: z.unknown().optional(),
  undoOf: z.string().optional(),
  seal: planSealSchema.optional(),
});

const TOMBSTONE_SECONDS = 24 * 3600;

/**
 * A claim with no remediation job this long after it was made is let go by the next
 * approval (the APPROVE script): longer than an approval takes to queue its job
 * (the enqueue's 1.5 s bound, the WAIT and a loaded machine).
 */
export const ORPHAN_CLAIM_MS = 10_000;

/** BullMQ's key of the plan's remediation job (prefix, queue, job id). */
function remediateJobKey(cluster: string, planId: string): string {
  return `${QUEUE_PREFIX}:${remediateQueueName(cluster)}:${remediateJobId(planId)}`;
}

const APPROVE = `
local exp = tonumber(redis.call('HGET', KEYS[1], 'expiresAt'))
if exp == nil then return {'unknown'} end
local claim = redis.call('GET', KEYS[3])
if claim then
  -- A claim whose job was never queued (the write after it met a read-only Redis, or
  -- the app stopped between the two), older than the enqueue could take: let go, with
  -- its approvals, so the plan can be approved again. No job: nothing applies it.
  local at = tonumber(string.match(claim, '|(%d+)$') or '')
  if redis.call('EXISTS', KEYS[5]) == 1 or at == nil or tonumber(ARGV[2]) - at < tonumber(ARGV[6]) then
    return {'already-claimed', claim}
  end
  redis.call('DEL', KEYS[3], KEYS[2])
end
if tonumber(ARGV[2]) > exp then return {'expired'} end
local was = redis.call('GET', KEYS[4])
if was ~= ARGV[5] then
  -- The same plan as shown, approved for another duration (the approver's
  -- choice is part of what is approved): refused, the approvals recorded stand.
  if was and string.sub(was, 1, 64) == string.sub(ARGV[5], 1, 64) and redis.call('SCARD', KEYS[2]) > 0 then
    return {'other-duration', was}
  end
  redis.call('DEL', KEYS[2])
  redis.call('SET', KEYS[4], ARGV[5], 'EX', tonumber(ARGV[4]))
end
if redis.call('SISMEMBER', KEYS[2], ARGV[1]) == 1 then return {'same-approver'} end
-- One person, several ids (ARGV[7..]: every id of theirs): recorded once.
if #ARGV > 6 then
  for _, m in ipairs(redis.call('SMEMBERS', KEYS[2])) do
    local user = string.match(m, '^([^~]*)~')
    for i = 7, #ARGV do
      if user == ARGV[i] then return {'same-approver'} end
    end
  end
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('EXPIRE', KEYS[2], tonumber(ARGV[4]))
redis.call('EXPIRE', KEYS[4], tonumber(ARGV[4]))
local n = redis.call('SCARD', KEYS[2])
if n < tonumber(ARGV[3]) then return {'recorded', tostring(n)} end
local value = table.concat(redis.call('SMEMBERS', KEYS[2]), ',') .. '|' .. ARGV[2]
redis.call('SET', KEYS[3], value, 'EX', tonumber(ARGV[4]))
return {'claimed', value}
`;

// A claimed plan stays as it was claimed: its approval names the digest of that copy
// (expiry included), so a re-run refreshing it would have the apply refused.
const SAVE = `
if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
if ARGV[4] == 'if-absent' and redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'json', ARGV[1], 'expiresAt', ARGV[2])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[3]))
redis.call('DEL', KEYS[2], KEYS[4])
return 1
`;

/** Drops the claim (and its approvals) only when it is the one made at ARGV[1]. */
const RELEASE_IF = `
local claim = redis.call('GET', KEYS[2])
if not claim or string.match(claim, '|(%d+)$') ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1], KEYS[2], KEYS[3])
`;

/**
 * A claim's approvers (user ids) and their recorded approvals as given to `approve`
 * (`marks`: the app's `<user>~<signature>`, src/trust/approval-signature.ts).
 */
function parseClaim(value: string): { approvers: string[]; marks: string[]; at: number } {
  const [who = '', at = '0'] = value.split('|');
  const marks = who.split(',').filter((u) => u !== '');
  return { approvers: marks.map((m) => m.split('~')[0] ?? ''), marks, at: Number(at) };
}

/** @example createPlanStore(redis).approve(planId, 'U123', 1) */
export function createPlanStore(redis: Redis): PlanStore {
  const keys = (id: string): [string, string, string, string] => {
    const k = redisKeys.plan(id);
    return [k.plan, k.approvals, k.claim, k.approvalsShown];
  };
  const get = async (id: string): Promise<StoredPlan | undefined> => {
    const json = await redis.hget(keys(id)[0], 'json');
    if (json === null) return undefined;
    return storedPlanSchema.parse(JSON.parse(json)) as unknown as StoredPlan;
  };
  const ttlFor = (stored: StoredPlan, now: number): number =>
    Math.max(1, Math.ceil((stored.expiresAt - now) / 1000) + TOMBSTONE_SECONDS);
  return {
    async save(stored, options = {}) {
      // A re-run produces the same plan id for an unchanged Deployment: refresh the
      // plan and its expiry and forget approvals of an unclaimed earlier copy, so every
      // approval of a two-person rule falls inside one validity window. A claimed plan
      // is left as claimed (it must not apply twice, and its approval names that copy).
      await redis.eval(
        SAVE,
        4,
        ...keys(stored.plan.id),
        JSON.stringify(stored),
        String(stored.expiresAt),
        String(ttlFor(stored, Date.now())),
        options.ifAbsent ? 'if-absent' : 'always',
      );
    },
    get,
    async approve(id, approver, required, shown, now = Date.now(), sameperson = [], lasts = undefined) {
      const stored = await get(id);
      if (!stored) return { status: 'unknown' };
      // Approvals are of what was shown: a stored plan that differs is not approved, and
      // approvals recorded for another shown digest are forgotten (the script), so the
      // two people of a two-person rule approved the very same plan.
      if (shownDigest(stored) !== shown) return { status: 'changed', stored };
      const reply = (await redis.eval(
        APPROVE,
        5,
        ...keys(id),
        remediateJobKey(stored.cluster, id),
        approver,
        String(now),
        String(required),
        String(ttlFor(stored, now)),
        // What the approvals are of: the plan as shown, and the duration chosen for it.
        lasts === undefined ? shown : `${shown}~${lasts}`,
        String(ORPHAN_CLAIM_MS),
        ...sameperson,
      )) as string[];
      const [status, value = ''] = reply;
      switch (status) {
        case 'claimed': {
          const { approvers, marks, at } = parseClaim(value);
          return { status, approvers, marks, at, stored };
        }
        case 'recorded':
          return { status, approvals: Number(value), required, stored };
        case 'already-claimed': {
          const { approvers, at } = parseClaim(value);
          return { status, approvers, at, stored };
        }
        case 'expired':
        case 'same-approver':
          return { status, stored };
        case 'other-duration': {
          const theirs = value.split('~')[1];
          return { status, ...(theirs ? { lasts: theirs } : {}), stored };
        }
        default:
          return { status: 'unknown' };
      }
    },
    async release(id, options = {}) {
      const [, approvals, claim, shownKey] = keys(id);
      if (options.claimedAt === undefined) await redis.del(approvals, claim, shownKey);
      else await redis.eval(RELEASE_IF, 3, approvals, claim, shownKey, String(options.claimedAt));
    },
    async restoreClaim(stored, marks, at) {
      const value = `${marks.join(',')}|${at}`;
      const ttl = ttlFor(stored, Date.now());
      return (await redis.set(keys(stored.plan.id)[2], value, 'EX', ttl, 'NX')) === 'OK';
    },
    async claimOf(id) {
      const value = await redis.get(keys(id)[2]);
      return value === null ? undefined : parseClaim(value);
    },
  };
}
