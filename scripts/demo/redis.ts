/**
 * Redis for the demo: a private `redis-server` on a free port with a temporary
 * directory (test/support/redis.ts) whenever the binary is on PATH, so a run leaves
 * nothing behind; otherwise the one at REDIS_URL, from which the keys this run wrote
 * are deleted at the end. The app and the worker have no key-prefix setting (every key
 * is under `rd:`), so "this run's keys" are the `rd:*` keys that were not there when
 * it began: REDIS_URL must name a Redis no rollout-doctor deployment uses (README).
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { startRedis } from '../../test/support/redis.js';
import { DemoError } from './demo-error.js';

export interface DemoRedis {
  url: string;
  /** How it was found, for the terminal. */
  origin: string;
  /** True for the Redis at REDIS_URL, which a real deployment may use too. */
  shared: boolean;
  close(): Promise<void>;
}

async function answers(url: string): Promise<boolean> {
  const probe = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  probe.on('error', () => undefined); // the answer is the ping below
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

/** The URL without its password, for messages. */
function masked(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}

function hasRedisServer(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * @throws DemoError when no `redis-server` binary is on PATH and REDIS_URL does not
 *   answer (or is unset).
 */
export async function demoRedis(envUrl: string | undefined): Promise<DemoRedis> {
  if (hasRedisServer()) {
    // Its own process group, like the app and the worker: Ctrl-C stops them first, then it.
    const redis = await startRedis({ ownProcessGroup: true });
    return {
      url: redis.url,
      origin: `private redis-server on port ${redis.port}${envUrl ? ' (REDIS_URL left alone: a private one leaves nothing behind)' : ''}`,
      shared: false,
      close: () => redis.close(),
    };
  }
  if (envUrl && (await answers(envUrl))) {
    const before = await ourKeys(envUrl);
    return {
      url: envUrl,
      origin: `REDIS_URL (${masked(envUrl)}; no redis-server on PATH), this run's keys deleted at the end`,
      shared: true,
      close: async () => {
        await deleteNewKeys(envUrl, before);
      },
    };
  }
  throw new DemoError(
    `${envUrl ? `REDIS_URL (${masked(envUrl)}) does not answer` : 'REDIS_URL is not set'} and no redis-server binary is on PATH. ` +
      'Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis no rollout-doctor deployment uses.',
  );
}

/** Every key rollout-doctor writes is under this prefix (src/queue/names.ts and the stores). */
const KEYS = 'rd:*';

function connect(url: string): Redis {
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined); // each command's own rejection says what failed
  return redis;
}

async function scanKeys(redis: Redis): Promise<Set<string>> {
  const keys = new Set<string>();
  let cursor = '0';
  do {
    const [next, batch] = await redis.scan(cursor, 'MATCH', KEYS, 'COUNT', 1000);
    for (const key of batch) keys.add(key);
    cursor = next;
  } while (cursor !== '0');
  return keys;
}

async function ourKeys(url: string): Promise<Set<string>> {
  const redis = connect(url);
  try {
    await redis.connect();
    return await scanKeys(redis);
  } finally {
    redis.disconnect();
  }
}

/**
 * Deletes the `rd:*` keys that appeared since the run began (UNLINK, in batches): the
 * app and the worker are stopped by then, so nothing writes them any more.
 */
export async function deleteNewKeys(url: string, before: ReadonlySet<string>): Promise<number> {
  const redis = connect(url);
  try {
    await redis.connect();
    const fresh = [...(await scanKeys(redis))].filter((k) => !before.has(k));
    for (let i = 0; i < fresh.length; i += 500) await redis.unlink(...fresh.slice(i, i + 500));
    return fresh.length;
  } finally {
    redis.disconnect();
  }
}
