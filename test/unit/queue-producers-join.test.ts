import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
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

const request = (name: string, user = 'U1', id?: string) =>
  producers.enqueueDiagnose({
    mode: 'workload',
    cluster: 'default',
    target: { kind: 'Deployment', namespace: 'shop', name },
    requestedBy: user,
    ...(id ? { request: id } : {}),
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
    const job = await queue.getJob(first.jobId);
    // The run joined is named by its job's add time: the runTs its notifications carry.
    expect(second).toEqual({ jobId: first.jobId, joined: true, joinedRun: job?.timestamp });
    expect(await queue.getWaitingCount()).toBe(1);
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

/**
 * A run a worker took and holds: the first job waits for `release()`; any job after it
 * (a fresh run queued beside) stays active until the test ends, so it can be read.
 */
async function heldRun(name: string, requestId: string) {
  const first = await request(name, 'U1', requestId);
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let endAll: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => {
    endAll = resolve;
  });
  let taken: () => void = () => undefined;
  const takenOnce = new Promise<void>((resolve) => {
    taken = resolve;
  });
  let jobs = 0;
  const worker = new Worker(
    diagnoseQueueName('default'),
    async () => {
      jobs += 1;
      if (jobs > 1) return ended;
      taken();
      await released;
      return 'withdrawn';
    },
    { connection: { url: redis.url }, prefix: QUEUE_PREFIX, concurrency: 2 },
  );
  await takenOnce;
  expect(await queue.getJobState(first.jobId)).toBe('active');
  return {
    jobId: first.jobId,
    release,
    close: async () => {
      release();
      endAll();
      await worker.close();
    },
  };
}

describe('joining a run whose request was withdrawn', () => {
  let close: (() => Promise<void>) | undefined;
  afterEach(async () => {
    vi.restoreAllMocks();
    await close?.();
    close = undefined;
  });

  const withdraw = (id: string) => connection.set(redisKeys.withdrawn(id), '1', 'PX', 60_000);

  it('waits for a worker to drop a taken, withdrawn job and queues a fresh run', async () => {
    const run = await heldRun('late', 'request-late-1');
    close = run.close;
    await withdraw('request-late-1');
    // The worker drops the job once the producer looks again (its first wait for it).
    const original = Queue.prototype.getJobState;
    let reads = 0;
    vi.spyOn(Queue.prototype, 'getJobState').mockImplementation(function (this: Queue, id: string) {
      reads += 1;
      if (reads === 2) run.release();
      return original.call(this, id);
    });
    const second = await request('late', 'U2');
    expect(second).toEqual({ jobId: run.jobId, joined: false });
    expect(reads).toBeGreaterThan(2);
    const job = await queue.getJob(run.jobId);
    expect(job?.data).toMatchObject({ requestedBy: 'U2' });
  });

  it('joins a taken job whose request stands', async () => {
    const run = await heldRun('taken', 'request-taken-1');
    close = run.close;
    const stamp = (await queue.getJob(run.jobId))?.timestamp;
    expect(await request('taken', 'U2')).toEqual({ jobId: run.jobId, joined: true, joinedRun: stamp });
    expect((await queue.getJob(run.jobId))?.data).toMatchObject({ requestedBy: 'U1' });
  });

  it('joins a withdrawn job still running after the wait: it ran past the withdrawn check', async () => {
    const run = await heldRun('slow', 'request-slow-1');
    close = run.close;
    await withdraw('request-slow-1');
    expect(await request('slow', 'U2')).toMatchObject({ jobId: run.jobId, joined: true });
    expect(await queue.getJobState(run.jobId)).toBe('active');
  });
});
