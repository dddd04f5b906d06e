/**
 * One budget for every lane that opens Slack threads: alert threads and
 * early-warning threads take from the same per-minute count,
 * `ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE`, shared by every app replica in
 * Redis (`rd:alerts:minute:<minute>`). Past it an alert workload is summarised by the
 * intake (src/app/alerts/intake.ts) and an early warning by the opener
 * (early-warning-threads.ts), once per channel per minute
 * (`rd:alerts:ew-overflow:<channel>:<minute>`). Threads the admission webhook's warned
 * applies open take from a budget of their own (ADMISSION_BUDGET_KEYS,
 * `ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE`), so made-up reviews can never spend
 * the one a real alert needs.
 *
 * A Redis writer can spend the budget (set the counter high: new threads are summarised,
 * loudly, in the channel and the log) or lift it (delete the counter): never open a
 * thread or post anything of its own choosing.
 */
import { redisKeys } from '../../queue/redis-keys.js';
import type { Redis } from 'ioredis';
import { redisScript } from '../../queue/redis-script.js';

const MINUTE_BUDGET = `
local used = tonumber(redis.call('GET', KEYS[1]) or '0')
local grant = math.max(0, math.min(tonumber(ARGV[1]), tonumber(ARGV[2]) - used))
if grant > 0 then
  redis.call('INCRBY', KEYS[1], grant)
  redis.call('EXPIRE', KEYS[1], 120)
end
return grant
`;
const minuteBudget = redisScript(MINUTE_BUDGET);

export interface ThreadBudget {
  /** The per-minute limit, for the summary line. */
  readonly limit: number;
  /** How many of `wanted` new threads still fit in this minute (taken at once). */
  take(wanted: number): Promise<number>;
  /** True the first time in this minute an early warning in `channel` found no room. */
  firstOverflow(channel: string): Promise<boolean>;
}

/** Where a budget counts: the shared one by default; warned applies have their own. */
interface BudgetKeys {
  minute: (minute: number) => string;
  overflow: (channel: string, minute: number) => string;
}

const SHARED_KEYS: BudgetKeys = { minute: redisKeys.threadMinute, overflow: redisKeys.earlyWarningOverflow };

/** The warned applies' budget (ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE): never spends the alerts'. */
export const ADMISSION_BUDGET_KEYS: BudgetKeys = {
  minute: redisKeys.admissionMinute,
  overflow: redisKeys.admissionOverflow,
};

/** The app's reads of warned applies' workloads (admission-parking.ts), per minute; no overflow line. */
export const ADMISSION_READ_KEYS: BudgetKeys = {
  minute: redisKeys.admissionReadMinute,
  overflow: redisKeys.admissionOverflow,
};

/** Reads of warned applies' workloads a minute, per thread they may open: a few are read early. */
export const ADMISSION_READS_PER_THREAD = 4;

export function createThreadBudget(
  redis: Pick<Redis, 'eval' | 'evalsha' | 'set'>,
  limit: number,
  now: () => number = Date.now,
  keys: BudgetKeys = SHARED_KEYS,
): ThreadBudget {
  const minute = (): number => Math.floor(now() / 60_000);
  return {
    limit,
    async take(wanted) {
      if (wanted <= 0) return 0;
      return Number(await minuteBudget(redis, [keys.minute(minute())], String(wanted), String(limit)));
    },
    async firstOverflow(channel) {
      const key = keys.overflow(channel, minute());
      return (await redis.set(key, '1', 'EX', 120, 'NX')) === 'OK';
    },
  };
}
