import { Redis, type RedisOptions } from 'ioredis';
import { parseRedisUrl, sentinelOptions, type RedisTarget } from './redis-url.js';
import { agreeingConnector } from './sentinel-agreement.js';
import { followSwitches } from './switch-watch.js';

/**
 * The one place a Redis connection is built (app, workers, benches): one endpoint or
 * a Sentinel set (src/queue/redis-url.ts), with the same failover handling for both.
 */
function connect(target: RedisTarget | string, options: RedisOptions): Redis {
  const resolved = typeof target === 'string' ? parseRedisUrl(target) : target;
  const failover: RedisOptions = { reconnectOnError: reconnectOnReadonly };
  if (resolved.kind === 'single') return new Redis(resolved.url, { ...failover, ...options });
  // The master is whatever a majority of the listed sentinels name (sentinel-agreement.ts).
  const redis = new Redis({
    ...sentinelOptions(resolved),
    ...agreeingConnector(resolved),
    ...failover,
    ...options,
  });
  // +switch-master moves it at once, not when the old master's socket finally errors.
  followSwitches(resolved, redis);
  return redis;
}

/**
 * A write answered READONLY went to a master that was demoted (a failover, or a
 * partition healed the wrong way round). Reconnect, which asks the sentinels for the
 * master again (or reaches the new server behind a managed service's one address),
 * and resend the command: READONLY means it was not executed. 2: reconnect and resend.
 */
export function reconnectOnReadonly(error: Error): 2 | false {
  return error.message.startsWith('READONLY') ? 2 : false;
}

/**
 * Producer connection: fails fast when Redis is down (no offline queue, one try)
 * so a slash command can answer "queue unavailable" inside Slack's 3 seconds. It
 * reconnects at least every 500 ms (ioredis' default backs off to 2 s): a press held
 * through a failover (src/queue/deadline.ts throughFailover) reaches the new master
 * within half a second of the sentinels naming it, not up to 2 s later, past its deadline.
 */
export function createProducerConnection(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  return connect(target, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(times * 50, PRODUCER_RECONNECT_MS),
    lazyConnect: false,
    ...options,
  });
}

/** The longest the producer connection waits between tries to reconnect. */
const PRODUCER_RECONNECT_MS = 500;

/**
 * Worker connection: waits and reconnects forever (BullMQ requires
 * `maxRetriesPerRequest: null` for blocking commands).
 */
export function createWorkerConnection(target: RedisTarget | string, options: RedisOptions = {}): Redis {
  return connect(target, {
    maxRetriesPerRequest: null,
    enableReadyCheck: false,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  });
}

type ConnectionEvent = 'ready' | 'error' | 'close';

/** The first of `events` the connection emits, or 'timeout' after `timeoutMs`. */
function firstEvent(
  connection: Redis,
  events: readonly ConnectionEvent[],
  timeoutMs: number,
): Promise<ConnectionEvent | 'timeout'> {
  return new Promise((resolve) => {
    const handlers = events.map((event) => [event, () => done(event)] as const);
    const done = (what: ConnectionEvent | 'timeout'): void => {
      clearTimeout(timer);
      for (const [event, handler] of handlers) connection.off(event, handler);
      resolve(what);
    };
    const timer = setTimeout(() => done('timeout'), timeoutMs);
    for (const [event, handler] of handlers) connection.on(event, handler);
  });
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export async function waitForReady(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return;
  if ((await firstEvent(connection, ['ready'], timeoutMs)) === 'timeout')
    throw new Error(`Redis not ready after ${timeoutMs} ms`);
}

/**
 * Resolves once the connection is ready, or has failed to connect once (an error or a
 * close: Redis refuses or is not there, and answers will say so), or after `timeoutMs`;
 * never rejects. For a process about to serve: what it serves first finds Redis as it
 * is, not a connection still being made, which a producer (no offline queue) would
 * report as "unreachable".
 */
export async function firstConnection(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready' || connection.status === 'end') return;
  await firstEvent(connection, ['ready', 'error', 'close'], timeoutMs);
}

/** How long work that must reach Redis waits for it (a failover takes seconds). */
const REDIS_AWAY_MS = 15_000;

/**
 * `work` (Redis calls), tried again every 250 ms while it fails, for up to `forMs`: for
 * writes and reads that must not be skipped because a failover was under way (a
 * posted message's subscription, the check after a run's progress line).
 */
export async function whileRedisAway<T>(work: () => Promise<T>, forMs = REDIS_AWAY_MS): Promise<T> {
  const deadline = Date.now() + forMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

/** How long a QUIT may wait for its answer before the socket is simply closed. */
const QUIT_BOUND_MS = 1_000;

/**
 * Closes a connection without throwing when it is already gone, and without waiting on
 * a Redis that is not there: QUIT only on a ready connection, and for at most a second;
 * otherwise, and after that, `disconnect()`. A QUIT sent while the connection was away
 * sat in the offline queue until Redis came back, which with a Sentinel set shut down
 * was never, and held a worker's SIGTERM up until the kubelet's SIGKILL.
 */
export async function closeConnection(connection: Redis): Promise<void> {
  if (connection.status !== 'ready') {
    connection.disconnect();
    return;
  }
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      connection.quit(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer to QUIT')), QUIT_BOUND_MS);
      }),
    ]);
  } catch {
    connection.disconnect();
  } finally {
    clearTimeout(timer);
  }
}
