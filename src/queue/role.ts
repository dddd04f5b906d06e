import type { Redis } from 'ioredis';

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
