/**
 * Whether this worker still owns its job before it writes to the cluster
 * (src/worker/job-fence.ts assertHolds), read from BullMQ's own lock key on a real Redis,
 * each arm (issue 68.1): its own token holds; a lapsed lock (the stalled-job check may
 * hand the job on) and another worker's token do not; a Redis that cannot answer is no
 * licence to write either.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assertHolds,
  JobLostError,
  markRunAnswered,
  runAnsweredBy,
  superseded,
} from '../../src/worker/job-fence.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { QUEUE_PREFIX } from '../../src/queue/names.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
let client: Redis;
const ref = { queue: 'remediate.prod', jobId: 'remediate-plan-1' };
const lockKey = `${QUEUE_PREFIX}:${ref.queue}:${ref.jobId}:lock`;

beforeAll(async () => {
  redis = await startRedis();
  client = new Redis(redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  client.disconnect();
  await redis.close();
});

describe('assertHolds: the job is still this worker’s', () => {
  it('its own token: it holds', async () => {
    await client.set(lockKey, 'token-a', 'PX', 30_000);
    await expect(assertHolds(client, ref, 'token-a')).resolves.toBeUndefined();
  });

  it('a lapsed lock: lost, nothing may be written', async () => {
    await client.del(lockKey);
    await expect(assertHolds(client, ref, 'token-a')).rejects.toThrow(
      new JobLostError("job remediate-plan-1 is no longer this worker's (its lock lapsed)"),
    );
  });

  it("another worker's token: lost", async () => {
    await client.set(lockKey, 'token-b', 'PX', 30_000);
    await expect(assertHolds(client, ref, 'token-a')).rejects.toBeInstanceOf(JobLostError);
  });

  it('a later attempt started: the outcome of this one is stale; the same one is not', async () => {
    await client.hset(`${QUEUE_PREFIX}:${ref.queue}:${ref.jobId}`, 'ats', '2');
    expect(await superseded(client, { ...ref, attempt: 1 })).toBe(true);
    expect(await superseded(client, { ...ref, attempt: 2 })).toBe(false);
  });
});

describe("runAnsweredBy: which attempt posted a run's result", () => {
  const key = redisKeys.runAnswered('prod', 'diagnose.shop.web', 1_700_000_000_000);

  it('none yet; then the attempt that posted, kept with an expiry', async () => {
    expect(await runAnsweredBy(client, key)).toBeUndefined();
    await markRunAnswered(client, key, 1);
    expect(await runAnsweredBy(client, key)).toBe(1);
    expect(await client.pttl(key)).toBeGreaterThan(0);
  });

  it('a value that is no attempt number reads as none', async () => {
    for (const value of ['not-a-number', '', '0', '1e3']) {
      await client.set(key, value);
      expect(await runAnsweredBy(client, key)).toBeUndefined();
    }
  });
});
