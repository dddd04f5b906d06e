/**
 * Issue 67.2: `HSET rd:notify-alerts:meta paused 1` held two real alerts with 0 posts and
 * no log line. A paused lane, and one whose oldest waiting job does not move, is now
 * reported (rollout_doctor_notify_lane_problem and an error line), against a real
 * redis-server and BullMQ's own keys.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLaneHealth, STALL_MS } from '../../src/app/notify/lane-health.js';
import type { Logger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { ALERT_NOTIFY_QUEUE, QUEUE_PREFIX } from '../../src/queue/names.js';
import { startRedis, type TestRedis } from '../support/redis.js';

describe('the notify lanes’ health', () => {
  let redis: TestRedis;
  let admin: Redis;
  let queue: Queue;

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    queue = new Queue(ALERT_NOTIFY_QUEUE, { connection: admin, prefix: QUEUE_PREFIX });
  });
  afterAll(async () => {
    await queue?.close();
    admin?.disconnect();
    await redis?.close();
  });

  it('reports a paused lane and a stalled one, and says when it moves again', async () => {
    const lines: { level: string; msg: string }[] = [];
    const logger = {
      error: (_: object, msg: string) => lines.push({ level: 'error', msg }),
      info: (_: object, msg: string) => lines.push({ level: 'info', msg }),
    } as unknown as Logger;
    const metrics = createMetrics();
    let t = 1_000_000;
    const health = createLaneHealth({
      connection: admin,
      gauge: metrics.notifyLaneProblem,
      logger,
      now: () => t,
    });
    const gauge = () => metrics.registry.getSingleMetricAsString('rollout_doctor_notify_lane_problem');

    await queue.add('alert-thread', { x: 1 });
    await queue.add('alert-thread', { x: 2 });
    // What the reporter did: no BullMQ call, one HSET.
    await admin.hset(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:meta`, 'paused', '1');
    expect(await health.check()).toEqual([{ queue: ALERT_NOTIFY_QUEUE, problem: 'paused' }]);
    expect(await gauge()).toMatch(/queue="notify-alerts",reason="paused"\} 1/);
    expect(lines).toEqual([{ level: 'error', msg: expect.stringContaining('notify lane paused') }]);
    // Reported once while it lasts, not on every check.
    await health.check();
    expect(lines).toHaveLength(1);

    await admin.hdel(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:meta`, 'paused');
    expect(await health.check()).toEqual([]);
    expect(await gauge()).toMatch(/reason="paused"\} 0/);
    expect(lines[1]).toEqual({ level: 'info', msg: 'notify lane moves again' });

    // No consumer takes the jobs: the oldest waits on.
    t += STALL_MS - 1;
    expect(await health.check()).toEqual([]);
    t += 1;
    expect(await health.check()).toEqual([{ queue: ALERT_NOTIFY_QUEUE, problem: 'stalled' }]);
    expect(await gauge()).toMatch(/queue="notify-alerts",reason="stalled"\} 1/);
    expect(lines[2]).toEqual({ level: 'error', msg: expect.stringContaining('notify lane stalled') });

    // A job taken: the lane moves, the clock starts again for the next oldest.
    await admin.rpop(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:wait`);
    expect(await health.check()).toEqual([]);
    expect(await gauge()).toMatch(/reason="stalled"\} 0/);
    t += STALL_MS;
    expect(await health.check()).toEqual([{ queue: ALERT_NOTIFY_QUEUE, problem: 'stalled' }]);
    await admin.del(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:wait`);
    expect(await health.check()).toEqual([]);
  });
});
