/**
 * Scripts on a person's answer path go to Redis by their hash (src/queue/redis-script.ts):
 * the whole text once, when Redis does not know it, and by EVALSHA afterwards.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisScript } from '../../src/queue/redis-script.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const COUNT = "return redis.call('INCRBY', KEYS[1], ARGV[1])";

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis.disconnect();
  await server.close();
});

/** How many times Redis ran each command so far (INFO commandstats). */
async function calls(): Promise<{ eval: number; evalsha: number }> {
  const stats = await redis.info('commandstats');
  const of = (name: string): number =>
    Number(new RegExp(`^cmdstat_${name}:calls=(\\d+)`, 'm').exec(stats)?.[1] ?? 0);
  return { eval: of('eval'), evalsha: of('evalsha') };
}

describe('redisScript', () => {
  it('runs on a server that never saw it, then by its hash alone', async () => {
    const count = redisScript(COUNT);
    await redis.script('FLUSH');
    const before = await calls();
    expect(await count(redis, ['rs:a'], '2')).toBe(2);
    expect(await count(redis, ['rs:a'], 3)).toBe(5);
    expect(await count(redis, ['rs:a'], '1')).toBe(6);
    const after = await calls();
    // The first call: EVALSHA refused (NOSCRIPT), then EVAL; the next two: EVALSHA only.
    expect(after.eval - before.eval).toBe(1);
    expect(after.evalsha - before.evalsha).toBe(3);
  });

  it('sends the script again when Redis forgot it (a restart, a failover)', async () => {
    const count = redisScript(COUNT);
    expect(await count(redis, ['rs:b'], '1')).toBe(1);
    await redis.script('FLUSH');
    expect(await count(redis, ['rs:b'], '1')).toBe(2);
  });

  it("passes Redis's other errors through", async () => {
    const failing = redisScript("return redis.error_reply('NOPE not today')");
    await expect(failing(redis, [])).rejects.toThrow(/NOPE not today/);
    const wrongType = redisScript("return redis.call('INCR', KEYS[1])");
    await redis.set('rs:text', 'not a number');
    await expect(wrongType(redis, ['rs:text'])).rejects.toThrow(/not an integer/);
    const { eval: evals } = await calls();
    await expect(wrongType(redis, ['rs:text'])).rejects.toThrow(/not an integer/);
    // Not retried as EVAL: only NOSCRIPT sends the text again.
    expect((await calls()).eval).toBe(evals);
  });
});
