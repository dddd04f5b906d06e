/**
 * The early warning's leader lease: every worker replica competes for one Redis key
 * per cluster and the holder watches, so N replicas hold the watches of one and queue
 * each diagnosis once. When the leader dies its lease lapses and another replica takes
 * over within `leaseMs`.
 */
import { redisKeys } from '../../queue/redis-keys.js';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { waitForReady } from '../../queue/connection.js';

// Renews the lease when this replica holds it; takes it when nobody does (a Redis
// restart without persistence forgets the key: the leader keeps its role). 1: held.
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

// Takes the lease from a holder no worker wrote (its value does not carry the workers'
// mark, or it never expires), only if it is still the value that was judged.
const TAKE_OVER = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Redis key of the early-warning leader lease of a cluster. */
export function leaderKey(cluster: string): string {
  return redisKeys.earlyWarningLeader(cluster);
}

interface LeaseOptions {
  redis: Redis;
  cluster: string;
  leaseMs: number;
  /** This replica took the lease: start watching. */
  onLead(): void;
  /**
   * Stop watching (awaited before the next renewal): another replica holds the lease
   * now ('lost'), or this one stops ('stopped').
   */
  onFollow(why: 'lost' | 'stopped'): Promise<void>;
  /** Redis did not answer a renewal: the role stays as it was. */
  onUnreachable(reason: string): void;
  /**
   * The workers' mark on a holder value (an HMAC under the plan seal key, which only
   * workers hold): a value without it, or one that never expires, was written by
   * someone else, in Redis, to switch the early warning off. It is taken over, and
   * `onForeign` says so (a warning and a metric), every time.
   */
  mark?: { holder(id: string): string; isWorkers(value: string): boolean };
  onForeign?(): void;
}

interface Lease {
  readonly leader: boolean;
  /** Stops competing; a leader stops watching (onFollow) and gives the lease up. */
  stop(): Promise<void>;
}

/** Competes for the lease now and every `leaseMs / 3`, one renewal at a time. */
export function startLease(options: LeaseOptions): Lease {
  const { redis, leaseMs } = options;
  const key = leaderKey(options.cluster);
  const id = options.mark ? options.mark.holder(randomUUID()) : randomUUID();
  let leader = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let transition: Promise<void> = Promise.resolve();

  const tick = async (): Promise<void> => {
    let held: boolean;
    try {
      await waitForReady(redis, leaseMs / 3);
      held = Number(await redis.eval(LEASE, 1, key, id, String(leaseMs))) === 1;
      if (!held && options.mark) held = await takeOverForeign();
    } catch (error) {
      // Redis away: nobody can take the lease meanwhile; keep the current role.
      options.onUnreachable(error instanceof Error ? error.message : String(error));
      return;
    }
    if (stopped) return;
    if (held && !leader) {
      leader = true;
      options.onLead();
    } else if (!held && leader) {
      leader = false;
      await options.onFollow('lost');
    }
  };
  /** A holder no worker wrote is taken over (and reported); a worker's is left alone. */
  const takeOverForeign = async (): Promise<boolean> => {
    const [holder, ttl] = await Promise.all([redis.get(key), redis.pttl(key)]);
    if (holder === null || (options.mark?.isWorkers(holder) === true && ttl > 0)) return false;
    options.onForeign?.();
    return Number(await redis.eval(TAKE_OVER, 1, key, holder, id, String(leaseMs))) === 1;
  };
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      transition = transition.then(tick).finally(schedule);
    }, leaseMs / 3);
  };
  transition = tick().finally(schedule);

  return {
    get leader() {
      return leader;
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await transition;
      if (leader) {
        leader = false;
        await options.onFollow('stopped');
        await redis.eval(RELEASE, 1, key, id).catch(() => undefined);
      }
    },
  };
}
