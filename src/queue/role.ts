import type { Redis } from 'ioredis';
import { redisKeys } from './redis-keys.js';

/** PING answers on a replica too; a read-only server cannot take a job or a claim. */
export class RedisReadOnlyError extends Error {
  override name = 'RedisReadOnlyError';
}

/**
 * Resolves when the server behind `redis` takes writes (ROLE says master), rejects
 * with RedisReadOnlyError when it is a replica: one address whose server was demoted
 * during a managed failover, or a Sentinel master not yet left after a switch. A
 * service that does not allow ROLE (an ACL, a managed service's command list) is
 * judged by PING alone.
 */
export async function pingWritable(redis: Redis): Promise<void> {
  let role: unknown;
  try {
    role = await redis.call('ROLE');
  } catch (error) {
    const message = error instanceof Error ? error.message : '';
    if (!/unknown command|NOPERM|not allowed|disabled/i.test(message)) throw error;
    await redis.ping();
    return;
  }
  const kind = Array.isArray(role) ? String(role[0]) : '';
  if (kind !== 'master') throw new RedisReadOnlyError(`the Redis server is a ${kind || 'non-master'}`);
}

/** How long the write probe's key lives: long enough for the probe, never left behind. */
const PROBE_MS = 10_000;

/**
 * `pingWritable`, then one small write (SET of `rd:readyz:probe` with a short expiry):
 * a master that answers but refuses writes (full: OOM with `noeviction`; MISCONF)
 * rejects with Redis's own refusal, so /readyz can say so. Sequential: a
 * write sent to a replica would be answered READONLY, which makes the connection look
 * for the master again (connection.ts).
 */
export async function probeWrites(redis: Redis): Promise<void> {
  await pingWritable(redis);
  await redis.set(redisKeys.readyzProbe(), String(process.pid), 'PX', PROBE_MS);
}
