/**
 * A Lua script run by its SHA-1 (EVALSHA): the whole text goes to Redis only when Redis
 * does not know it yet (NOSCRIPT: a fresh or restarted server, a failover to a replica
 * that never ran it), then by its hash again. The scripts on a person's answer path
 * (the command budget, a message's subscription, an alert's intake) run for every
 * request; sent whole, each call wrote the script's text to the socket and had Redis
 * hash it again.
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

type RedisScriptArg = string | number | Buffer;

/** Runs the script with `keys` then `args`, as EVAL would. */
type RedisScript = (
  redis: Pick<Redis, 'eval' | 'evalsha'>,
  keys: readonly string[],
  ...args: RedisScriptArg[]
) => Promise<unknown>;

export function redisScript(source: string): RedisScript {
  const sha = createHash('sha1').update(source).digest('hex');
  return async (redis, keys, ...args) => {
    try {
      return await redis.evalsha(sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error && error.message.startsWith('NOSCRIPT'))) throw error;
      return redis.eval(source, keys.length, ...keys, ...args);
    }
  };
}
