import { Redis, SentinelConnector, type RedisOptions } from 'ioredis';
import type { RedisTarget } from './redis-url.js';

type SentinelTarget = Extract<RedisTarget, { kind: 'sentinel' }>;
type Address = { host: string; port: number };

/**
 * The master comes from the sentinels' agreement, not from whichever answers first.
 * ioredis asks one sentinel (`SENTINEL get-master-addr-by-name`) and
 * connects where it says, sending the data nodes' password there; a sentinel that lies
 * (compromised, or an address on the path that answers on its port) would receive that
 * password, in plain TCP with `redis+sentinel://`. So before a connection goes to the
 * address one sentinel names, every sentinel listed in REDIS_URL is asked, and the
 * address is used only when a majority of them (at least two) name the same one, as
 * the sentinels' own failover needs a majority to elect a master; otherwise the answer
 * counts as invalid and ioredis asks the next sentinel, then starts over. Sentinels
 * learned from a sentinel's answer are not used (`updateSentinels: false`): the
 * majority is of the ones the operator listed.
 *
 * With a single sentinel listed there is nobody to agree with: REDIS_URL must then be
 * `rediss+sentinel://`, where the data nodes are reached over TLS with the server's
 * certificate verified (src/queue/redis-url.ts refuses anything else).
 */
export function agreementNeeded(sentinels: number): number {
  return Math.max(2, Math.floor(sentinels / 2) + 1);
}

/** What one listed sentinel says the master is (null: no answer, or not an address). */
async function askSentinel(
  target: SentinelTarget,
  sentinel: Address,
  timeoutMs: number,
): Promise<string | null> {
  const client = new Redis({
    host: sentinel.host,
    port: sentinel.port,
    ...(target.sentinelUsername ? { username: target.sentinelUsername } : {}),
    ...(target.sentinelPassword ? { password: target.sentinelPassword } : {}),
    ...(target.sentinelTls ? { tls: {} } : {}),
    lazyConnect: true,
    enableReadyCheck: false,
    enableOfflineQueue: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    connectTimeout: timeoutMs,
    commandTimeout: timeoutMs,
  });
  client.on('error', () => undefined);
  try {
    const answer = await client.call('SENTINEL', 'get-master-addr-by-name', target.name);
    if (!Array.isArray(answer) || answer.length < 2) return null;
    const [host, port] = answer as unknown[];
    return `${String(host)}:${String(port)}`;
  } catch {
    return null;
  } finally {
    client.disconnect();
  }
}

/** Whether a majority of the listed sentinels name `address` as the master. */
async function sentinelsAgree(target: SentinelTarget, address: Address, timeoutMs = 1_000): Promise<boolean> {
  const said = await Promise.all(target.sentinels.map((s) => askSentinel(target, s, timeoutMs)));
  const agreeing = said.filter((a) => a === `${address.host}:${address.port}`).length;
  return agreeing >= agreementNeeded(target.sentinels.length);
}

/** ioredis' own resolveMaster (declared private there), to call before checking its answer. */
const askFirst = (
  SentinelConnector.prototype as unknown as {
    resolveMaster(this: unknown, client: unknown): Promise<Address | null>;
  }
).resolveMaster;

/**
 * ioredis options for a Sentinel target whose master is used only when the listed
 * sentinels agree on it: ioredis' SentinelConnector with its `resolveMaster` checked.
 * A master one sentinel names and the majority does not is refused with an error that
 * ioredis reports (`sentinelError`, then "All sentinels are unreachable… Last error:")
 * and the next sentinel is asked.
 */
export function agreeingConnector(
  target: SentinelTarget,
): Pick<RedisOptions, 'Connector' | 'updateSentinels'> {
  class AgreeingSentinelConnector extends SentinelConnector {}
  Object.defineProperty(AgreeingSentinelConnector.prototype, 'resolveMaster', {
    value: async function resolveMaster(this: unknown, client: unknown): Promise<Address | null> {
      const first = await askFirst.call(this, client);
      if (first === null) return null;
      if (await sentinelsAgree(target, first)) return first;
      throw new Error(
        `the sentinels do not agree on master ${target.name}: one named ${first.host}:${first.port}, fewer than ${agreementNeeded(target.sentinels.length)} of the ${target.sentinels.length} listed did; not connecting there`,
      );
    },
  });
  // ioredis hands a Connector the Redis options, sentinel ones included (Redis.js).
  const Connector = AgreeingSentinelConnector as unknown as NonNullable<RedisOptions['Connector']>;
  return { Connector, updateSentinels: false };
}
