import { Redis, type RedisOptions } from 'ioredis';

/**
 * Producer connection: fails fast when Redis is down (no offline queue, one try)
 * so a slash command can answer "queue unavailable" inside Slack's 3 seconds.
 */
export function createProducerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2_000,
    lazyConnect: false,
    ...options,
  });
}

/**
 * Worker connection: waits and reconnects forever (BullMQ requires
 * `maxRetriesPerRequest: null` for blocking commands).
 */
export function createWorkerConnection(url: string, options: RedisOptions = {}): Redis {
  return new Redis(url, {
    maxRetriesPerRequest: null,
    enableReadyCheck: false,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
    ...options,
  });
}

/** Resolves once the connection is ready, or rejects after `timeoutMs`. */
export async function waitForReady(connection: Redis, timeoutMs: number): Promise<void> {
  if (connection.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`Redis not ready after ${timeoutMs} ms`));
    }, timeoutMs);
    const onReady = (): void => {
      cleanup();
      resolve();
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      connection.off('ready', onReady);
    };
    connection.on('ready', onReady);
  });
}

/** Closes a connection without throwing when it is already gone. */
export async function closeConnection(connection: Redis): Promise<void> {
  try {
    await connection.quit();
  } catch {
    connection.disconnect();
  }
}
