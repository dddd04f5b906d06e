/**
 * Redis for the demo: the one at REDIS_URL when it answers, otherwise a private
 * `redis-server` on a free port with a temporary directory (test/support/redis.ts).
 */
import { spawnSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { startRedis } from '../../test/support/redis.js';

export interface DemoRedis {
  url: string;
  /** How it was found, for the terminal. */
  origin: string;
  /** True for the Redis at REDIS_URL, which a real deployment may use too. */
  shared: boolean;
  close(): Promise<void>;
}

/** A human problem the demo reports and exits non-zero on, without a stack trace. */
export class DemoError extends Error {
  override name = 'DemoError';
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
 * @throws DemoError when REDIS_URL does not answer (or is unset) and no
 *   `redis-server` binary is on PATH.
 */
export async function demoRedis(envUrl: string | undefined): Promise<DemoRedis> {
  if (envUrl && (await answers(envUrl))) {
    return {
      url: envUrl,
      origin: `REDIS_URL (${masked(envUrl)})`,
      shared: true,
      close: async () => undefined,
    };
  }
  if (!hasRedisServer()) {
    throw new DemoError(
      `${envUrl ? `REDIS_URL (${masked(envUrl)}) does not answer` : 'REDIS_URL is not set'} and no redis-server binary is on PATH. ` +
        'Install Redis (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a Redis no rollout-doctor deployment uses.',
    );
  }
  // Its own process group, like the app and the worker: Ctrl-C stops them first, then it.
  const redis = await startRedis({ ownProcessGroup: true });
  return {
    url: redis.url,
    origin: `private redis-server on port ${redis.port}${envUrl ? ' (REDIS_URL did not answer)' : ''}`,
    shared: false,
    close: () => redis.close(),
  };
}
