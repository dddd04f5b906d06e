import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { startRedis, type TestRedis } from '../support/redis.js';

/**
 * enqueueDiagnose against a real Redis: the first request for a target queues a job,
 * later ones while it exists join it (one job), and a request after the job is gone
 * starts a new run. `joined` comes from an EXISTS sent with the add in one round trip.
 */

let redis: TestRedis;
let connection: Redis;
let producers: Producers;
let queue: Queue;

const request = (name: string, user = 'U1') =>
  producers.enqueueDiagnose({
    mode: 'workload',
    cluster: 'default',
    target: { kind: 'Deployment', namespace: 'shop', name },
    requestedBy: user,
  });

beforeAll(async () => {
  redis = await startRedis();
  connection = createProducerConnection(redis.url);
  producers = createProducers({ connection, clusters: ['default'] });
  queue = new Queue(diagnoseQueueName('default'), { connection, prefix: QUEUE_PREFIX });
});

// Each test stands alone: no jobs left by another test (this file's Redis is private
// and has no workers, so emptying it is safe).
beforeEach(async () => {
  const admin = new Redis(redis.url);
  try {
    await admin.flushdb();
  } finally {
    admin.disconnect();
  }
});

afterAll(async () => {
  await queue?.close();
  await producers?.close();
  if (connection) await closeConnection(connection);
  await redis?.close();
});

describe('enqueueDiagnose join detection', () => {
  it('queues the first request and joins the following ones to the same job', async () => {
    const first = await request('web');
    const second = await request('web', 'U2');
    expect(first.joined).toBe(false);
    expect(second).toEqual({ jobId: first.jobId, joined: true });
    expect(await queue.getWaitingCount()).toBe(1);
    const job = await queue.getJob(first.jobId);
    expect(job?.data).toMatchObject({ requestedBy: 'U1', target: { name: 'web' } });
  });

  it('keeps concurrent requests for different targets apart, and one job per target', async () => {
    const results = await Promise.all(['a', 'b', 'c', 'a'].map((name) => request(name)));
    expect(results.slice(0, 3).every((r) => !r.joined)).toBe(true);
    expect(new Set(results.map((r) => r.jobId)).size).toBe(3);
    // Two requests for one target in the same instant both may read "not there yet";
    // the deterministic job id still makes them one job.
    expect(await queue.getWaitingCount()).toBe(3);
  });

  it('starts a new run once the job is gone', async () => {
    const first = await request('api');
    const job = await queue.getJob(first.jobId);
    await job?.remove();
    expect(await request('api')).toEqual({ jobId: first.jobId, joined: false });
  });

  it("takes a person's diagnosis before any number of background (alert) diagnoses queued earlier", async () => {
    for (let i = 0; i < 30; i += 1) {
      await producers.enqueueDiagnose(
        {
          mode: 'workload',
          cluster: 'default',
          target: { kind: 'Deployment', namespace: 'flood', name: `made-up-${i}` },
          requestedBy: 'ALERTMANAGER',
        },
        { background: true },
      );
    }
    await request('typed-by-a-person');
    const order: string[] = [];
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      resolveDone = resolve;
    });
    const worker = new Worker(
      diagnoseQueueName('default'),
      async (job) => {
        order.push((job.data as { target: { name: string } }).target.name);
        if (order.length === 31) resolveDone();
      },
      { connection: { url: redis.url }, prefix: QUEUE_PREFIX, concurrency: 1 },
    );
    try {
      await done;
    } finally {
      await worker.close();
    }
    expect(order[0]).toBe('typed-by-a-person');
    expect(order.slice(1)).toEqual(Array.from({ length: 30 }, (_, i) => `made-up-${i}`));
  });

  it('a person joining a background run waiting behind other alerts takes it to the front', async () => {
    for (let i = 0; i < 10; i += 1) {
      await producers.enqueueDiagnose(
        {
          mode: 'workload',
          cluster: 'default',
          target: { kind: 'Deployment', namespace: 'flood', name: `bg-${i}` },
          requestedBy: 'ALERTMANAGER',
        },
        { background: true },
      );
    }
    const joined = await producers.enqueueDiagnose({
      mode: 'workload',
      cluster: 'default',
      target: { kind: 'Deployment', namespace: 'flood', name: 'bg-7' },
      requestedBy: 'U0ONCALL',
    });
    expect(joined.joined).toBe(true);
    expect((await queue.getJob(joined.jobId))?.priority).toBe(0);
    const order: string[] = [];
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => {
      resolveDone = resolve;
    });
    const worker = new Worker(
      diagnoseQueueName('default'),
      async (job) => {
        order.push((job.data as { target: { name: string } }).target.name);
        if (order.length === 10) resolveDone();
      },
      { connection: { url: redis.url }, prefix: QUEUE_PREFIX, concurrency: 1 },
    );
    try {
      await done;
    } finally {
      await worker.close();
    }
    expect(order[0]).toBe('bg-7');
    expect(order).toHaveLength(10);
  });
});
