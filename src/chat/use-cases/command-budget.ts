/**
 * How many runs one person, and one channel, may start per minute.
 * Every entry that posts or queues for a person takes from the same budget: the
 * `/rollout-doctor` command, the Re-run button, and Approve/Undo (which queue a
 * remediation). Each posts publicly and queues a person-priority job ahead of every
 * alert: without a budget one reader could flood both. Counted in Redis
 * so every app replica shares it; a command past either budget is answered privately
 * and starts nothing. A window opens with the first command and lasts a minute (no
 * calendar-minute edge at which twice the budget fits); both counters are taken
 * atomically (a refused command does not use up the other's budget).
 *
 * Keys: `rd:budget:cmd:u:<user>` and `rd:budget:cmd:c:<channel>` (expire with the window),
 * and `rd:budget:cmd:p:<press>`, one per start taken (a random id of the app's; expires
 * with the window), so a try again of the same start counts once. A Redis writer can only
 * refuse commands here (set a counter high) or allow more (delete it): never post, read
 * or approve anything.
 */
import { createHash, randomUUID } from 'node:crypto';
import { redisKeys } from '../../queue/redis-keys.js';
import { redisScript } from '../../queue/redis-script.js';
import type { Redis } from 'ioredis';
import type { Rich } from '../model.js';
import { icon, say } from '../../message/rich.js';
import type { Audit } from '../../audit.js';
import type { AppConfig } from '../../config/environment.js';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';
import { deadlineIn, throughFailover, type Deadline } from '../../queue/deadline.js';
import { ANSWER_DEADLINE_MS, redisTroubleWords, tryAgainWords } from './redis-words.js';

interface CommandBudgetLimits {
  perUser: number;
  perChannel: number;
}

type BudgetAnswer = { ok: true } | { ok: false; over: 'user' | 'channel'; retryAfterSeconds: number };

export interface CommandBudget {
  /**
   * One start from the person's and the channel's budget. `press`: the start's own id;
   * taken again with the same id (a retry after a lost reply), it is counted once.
   */
  take(user: string, channel: string, press?: string): Promise<BudgetAnswer>;
}

// KEYS: user counter, channel counter, and (optional) the press's marker. ARGV: user
// limit, channel limit, window ms. Returns {0} (taken), or {1 (user over) | 2 (channel
// over), ms until that window ends}. A press whose marker is there was taken already (an
// earlier try of the same press, whose reply was lost): {0} again, nothing counted twice.
// A refused press sets no marker (it took nothing), so its retry is judged afresh.
const TAKE = `
if KEYS[3] and redis.call('EXISTS', KEYS[3]) == 1 then return {0} end
local u = tonumber(redis.call('GET', KEYS[1]) or '0')
local c = tonumber(redis.call('GET', KEYS[2]) or '0')
if u >= tonumber(ARGV[1]) then return {1, redis.call('PTTL', KEYS[1])} end
if c >= tonumber(ARGV[2]) then return {2, redis.call('PTTL', KEYS[2])} end
for i = 1, 2 do
  if redis.call('INCR', KEYS[i]) == 1 or redis.call('PTTL', KEYS[i]) < 0 then
    redis.call('PEXPIRE', KEYS[i], tonumber(ARGV[3]))
  end
end
if KEYS[3] then redis.call('SET', KEYS[3], '1', 'PX', tonumber(ARGV[3])) end
return {0}
`;

/**
 * Every id is its own counter, on every platform: a short id of plain characters (a
 * Slack U…/C…, an Entra object id) is used as it is; any other shape (a Teams
 * conversation id, an id of a platform still to come, or something malformed) by its
 * SHA-256, marked `~` so it can never equal a plain id. Never folded into one shared key
 * (one key shared by every Teams id would let one member's flood refuse everyone).
 */
export function budgetKeyPart(id: string): string {
  return /^[A-Za-z0-9-]{1,64}$/.test(id)
    ? id
    : `~${createHash('sha256').update(id).digest('hex').slice(0, 40)}`;
}

/** On the ack path: by its hash, the whole script only when Redis does not know it. */
const take = redisScript(TAKE);

export function createCommandBudget(
  redis: Pick<Redis, 'eval' | 'evalsha'>,
  limits: CommandBudgetLimits,
): CommandBudget {
  return {
    async take(user, channel, press) {
      const [code, ms] = (await take(
        redis,
        [
          redisKeys.commandBudget('user', budgetKeyPart(user)),
          redisKeys.commandBudget('channel', budgetKeyPart(channel)),
          ...(press === undefined ? [] : [redisKeys.commandBudgetPress(budgetKeyPart(press))]),
        ],
        String(limits.perUser),
        String(limits.perChannel),
        '60000',
      )) as [number, number?];
      if (Number(code) === 0) return { ok: true };
      const retryAfterSeconds = Math.max(1, Math.ceil(Number(ms ?? 60_000) / 1000));
      return { ok: false, over: Number(code) === 1 ? 'user' : 'channel', retryAfterSeconds };
    },
  };
}

/** The entries that start work for a person; each names its refusals in the audit. */
type BudgetEntry = 'diagnose' | 'scan' | 'rerun' | 'approve' | 'undo';

/**
 * Takes one start from the person's and the channel's budget. Returns null when the
 * entry may go on, or the private refusal to show its caller (the refusal is counted
 * and audited as `rate-limited` here, so no entry can forget it). A budget that cannot be
 * read in time (Redis stalled, full, read-only or unreachable) is not skipped: the start
 * is refused, saying why, counted `budget-unread` and audited. The read is
 * bounded by `deadline`, the answer's (src/queue/deadline.ts); within it, a read a
 * failover refused (no connection, READONLY) is tried again, counted once however many
 * tries reached Redis.
 */
export async function spendBudget(
  services: {
    commandBudget?: CommandBudget | undefined;
    logger: Logger;
    metrics: Metrics;
    audit: Audit;
    config: AppConfig;
  },
  start: { user: string; channel: string; entry: BudgetEntry },
  deadline: Deadline = deadlineIn(ANSWER_DEADLINE_MS),
): Promise<Rich | null> {
  if (!services.commandBudget) return null;
  const { commandBudget } = services;
  // The start's own id: a retry through a failover (the reply to an earlier try lost
  // with the old master) is counted once.
  const press = randomUUID();
  let answer: BudgetAnswer;
  try {
    answer = await throughFailover(deadline, 'command budget', () =>
      commandBudget.take(start.user, start.channel, press),
    );
  } catch (error) {
    return budgetUnread(services, start, error);
  }
  if (answer.ok) return null;
  services.metrics.commands.inc({ command: start.entry, outcome: 'rate-limited' });
  services.audit.record({
    action: 'refusal',
    planId: start.entry,
    user: start.user,
    reason: 'rate-limited',
    detail: `${answer.over === 'user' ? 'per-person' : 'per-channel'} budget, channel ${start.channel}`,
  });
  const who =
    answer.over === 'user'
      ? `you started ${services.config.commandBudget.perUser} runs this minute`
      : `this channel started ${services.config.commandBudget.perChannel} runs this minute`;
  return say`${icon('expired')} Not started: ${who}, the most rollout-doctor takes. Try again in ${answer.retryAfterSeconds} s; a run already under way for the same target is joined, not repeated.`;
}

/** The refusal of a start whose budget could not be read: counted, audited, said with why. */
function budgetUnread(
  services: Pick<Parameters<typeof spendBudget>[0], 'logger' | 'metrics' | 'audit'>,
  start: { user: string; channel: string; entry: BudgetEntry },
  error: unknown,
): Rich {
  const why = redisTroubleWords(error);
  // Logged off the answer's path: the log line is not what decides the answer.
  setImmediate(() => services.logger.warn({ err: error }, 'command budget not read: start refused'));
  services.metrics.commands.inc({ command: start.entry, outcome: 'budget-unread' });
  services.audit.record({
    action: 'refusal',
    planId: start.entry,
    user: start.user,
    reason: 'budget-unread',
    detail: `${why}, channel ${start.channel}`,
  });
  // "queue is unavailable": the budget lives in the Redis the queue does. A press of
  // Approve or Undo is told what it cares about: nothing was applied.
  if (start.entry === 'approve' || start.entry === 'undo')
    return say`${icon('failed')} Not recorded: the queue is unavailable right now (the command budget could not be read: ${why}). Nothing was applied; please try again ${tryAgainWords(error)}.`;
  return say`${icon('failed')} Not started: the queue is unavailable right now (the command budget could not be read: ${why}). Nothing was started; please try again ${tryAgainWords(error)}.`;
}

/**
 * Approve and Undo: the budget of someone the policy lets approve somewhere. Whoever
 * approves nowhere is refused by the approval's own decision (`not-approver`, private,
 * audited) and spends nothing, so an outsider pressing Apply in a flood never uses up
 * the channel's budget before an approver's press.
 */
export async function spendApproverBudget(
  services: Parameters<typeof spendBudget>[0] & {
    policy?: { approvesSomewhere?(user: string): Promise<boolean> } | undefined;
  },
  start: { user: string; channel: string; entry: 'approve' | 'undo' },
  deadline?: Deadline,
): Promise<Rich | null> {
  const approver = (await services.policy?.approvesSomewhere?.(start.user)) ?? true;
  return approver ? spendBudget(services, start, deadline) : null;
}
