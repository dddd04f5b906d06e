/**
 * The connection factory on a real Sentinel set (test/support/redis-sentinel.ts): the
 * app's producer connection and a BullMQ worker follow a SIGKILLed master and a
 * SENTINEL FAILOVER by themselves, a write that meets the demoted master is resent to
 * the new one (READONLY), a claim WAITs for the replica, and a write the master died
 * with before its replica had it is written again by the replication guard, and so is
 * a worker's thread reply with the Undo plan it offers (once).
 */
import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  closeConnection,
  createProducerConnection,
  createWorkerConnection,
} from '../../src/queue/connection.js';
import { parseRedisUrl } from '../../src/queue/redis-url.js';
import { createReplicationGuard } from '../../src/queue/replication-guard.js';
import { NOTIFY_QUEUE, QUEUE_PREFIX } from '../../src/queue/names.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers } from '../../src/queue/producers.js';
import type { NotifyJobInput } from '../../src/queue/schemas.js';
import { guardWorkerWrites } from '../../src/worker/guarded-writes.js';
import { HOOK_TIMEOUT_MS, SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';
import { startSentinelSet, type SentinelSet } from '../support/redis-sentinel.js';

let set: SentinelSet;
const open: Redis[] = [];
/** Keeps a connection for closing; its errors during a failover are expected (the app logs them). */
const kept = (c: Redis): Redis => {
  c.on('error', () => undefined);
  open.push(c);
  return c;
};

beforeAll(async () => {
  set = await startSentinelSet();
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await Promise.all(open.map((c) => closeConnection(c)));
  await set?.close();
});

/** Retries `work` until it resolves (the producer fails fast while the master is away). */
async function eventually<T>(work: () => Promise<T>, timeoutMs = SIGNAL_WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe('Redis Sentinel: the connection factory', () => {
  it('finds the master through the sentinels, and WAIT reaches the replica', async () => {
    const redis = kept(createProducerConnection(set.url));
    await eventually(() => redis.set('rd:test:first', '1'));
    expect(Number(await redis.wait(1, 5_000))).toBe(1);
    const port = /^tcp_port:(\d+)/m.exec(await redis.info('server'))?.[1];
    expect(Number(port)).toBe((await set.master()).port);
  });

  it(
    'a SENTINEL FAILOVER demotes the master: writes follow it, and every write WAIT confirmed is kept',
    async () => {
      const redis = kept(createProducerConnection(parseRedisUrl(set.url), { enableOfflineQueue: true }));
      await eventually(() => redis.set('rd:test:before', 'x'));
      expect(Number(await redis.wait(1, 2_000))).toBe(1);
      const confirmed: string[] = [];
      let writing = true;
      // Writes race the failover: some land on the old master after the promotion and
      // are dropped when it resyncs as a replica (replication is asynchronous); those
      // WAIT confirmed on a replica before the switch must all be on the new master.
      const writer = (async () => {
        for (let i = 0; writing || i < 5; i += 1) {
          const id = `w${i}`;
          await eventually(async () => {
            await redis.sadd('rd:test:writes', id);
            if (Number(await redis.wait(1, 300)) >= 1) confirmed.push(id);
          });
        }
      })();
      const { old, next } = await set.failover();
      writing = false;
      await writer;
      expect(next.port).not.toBe(old.port);
      const direct = kept(createProducerConnection(`redis://127.0.0.1:${next.port}`));
      const stored = await eventually(() => direct.smembers('rd:test:writes'));
      expect(confirmed.length).toBeGreaterThan(5);
      expect(confirmed.filter((id) => !stored.includes(id))).toEqual([]);
      expect(await direct.get('rd:test:before')).toBe('x');
      // The connection now writes to the new master, not the demoted one.
      await redis.set('rd:test:after', 'y');
      expect(await direct.get('rd:test:after')).toBe('y');
    },
    STORY_TIMEOUT_MS,
  );

  it(
    'a SIGKILLed master: a BullMQ worker takes the jobs queued after the failover',
    async () => {
      const connection = kept(createWorkerConnection(set.url));
      const producer = kept(
        createProducerConnection(set.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 }),
      );
      const queue = new Queue('rd-sentinel-test', { connection: producer });
      const done: string[] = [];
      const worker = new Worker(
        'rd-sentinel-test',
        async (job) => {
          done.push(String(job.data.n));
        },
        { connection },
      );
      worker.on('error', () => undefined);
      queue.on('error', () => undefined);
      try {
        await queue.add('one', { n: 1 });
        await eventually(async () => {
          if (!done.includes('1')) throw new Error('not yet');
        });
        const { old } = await set.killMaster();
        await eventually(() => queue.add('two', { n: 2 }));
        await eventually(async () => {
          if (!done.includes('2')) throw new Error('not yet');
        }, SIGNAL_WAIT_MS);
        expect(done).toEqual(['1', '2']);
        await set.revive(old); // back as a replica of the new master
      } finally {
        await worker.close(true);
        await queue.close();
      }
    },
    STORY_TIMEOUT_MS,
  );

  it(
    'a write the master dies with before its replica has it is written again on the new master',
    async () => {
      await set.synced();
      const redis = kept(
        createProducerConnection(set.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 }),
      );
      await eventually(() => redis.set('rd:test:guard-before', '1'));
      expect(Number(await redis.wait(1, 5_000))).toBe(1);
      // Nothing written from here on reaches the replica.
      const old = await set.cutOffReplicas();
      const warnings: string[] = [];
      let redone = 0;
      const guard = createReplicationGuard(redis, {
        replicas: 1,
        timeoutMs: 200,
        checkEveryMs: 100,
        logger: { info: () => undefined, warn: (_f, message) => warnings.push(message) },
      });
      try {
        await redis.set('rd:test:guarded', 'queued');
        const write = async (): Promise<void> => {
          redone += 1;
          await redis.set('rd:test:guarded', 'queued');
        };
        expect(await guard.confirm({ label: 'test', fields: {}, redo: write })).toEqual({
          wanted: 1,
          reached: 0,
        });
        expect(guard.pending()).toBe(1);
        const { next } = await set.killMaster();
        const direct = kept(createProducerConnection(`redis://127.0.0.1:${next.port}`));
        // The promoted replica never had it; the guard sees its history end before the write.
        expect(await eventually(() => direct.get('rd:test:guard-before'))).toBe('1');
        await eventually(async () => {
          if ((await direct.get('rd:test:guarded')) !== 'queued') throw new Error('not written again yet');
        }, SIGNAL_WAIT_MS);
        expect(redone).toBe(1);
        expect(warnings).toContain('a Redis failover lost these writes: writing them again');
        await set.revive(old); // back as a replica of the new master, without the password
        await set.synced();
        await eventually(async () => {
          if (guard.pending() !== 0) throw new Error('still watched');
        }, SIGNAL_WAIT_MS);
      } finally {
        guard.stop();
      }
    },
    STORY_TIMEOUT_MS,
  );

  it(
    'a worker reply and its Undo plan the master dies with are queued again on the new master, once',
    async () => {
      await set.synced();
      const redis = kept(
        createProducerConnection(set.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 }),
      );
      await eventually(() => redis.ping());
      const producers = createProducers({ connection: redis, clusters: ['c1'], timeoutMs: 10_000 });
      const plans = createPlanStore(redis);
      const warnings: string[] = [];
      const guard = createReplicationGuard(redis, {
        replicas: 1,
        timeoutMs: 200,
        checkEveryMs: 100,
        logger: { info: () => undefined, warn: (_f, message) => warnings.push(message) },
      });
      const writes = guardWorkerWrites({ notify: producers.enqueueNotify, plans, redis }, guard);
      const reply: NotifyJobInput = {
        kind: 'remediation-outcome',
        planId: 'plan-w1',
        cluster: 'c1',
        channel: 'C01ABCDEF',
        messageTs: '1700000000.000100',
        stage: 'rolled-out',
        detail: 'Deployment/web in shop rolled out',
      };
      const undo = {
        plan: { id: 'undo-w1', kind: 'set-strategy', target: { namespace: 'shop', name: 'web' } },
        cluster: 'c1',
        createdAt: 1,
        expiresAt: Date.now() + 3_600_000,
      } as unknown as StoredPlan;
      try {
        // Nothing written from here on reaches the replica.
        const old = await set.cutOffReplicas();
        await writes.plans.save(undo);
        await writes.notify(reply);
        expect(guard.pending()).toBe(1);
        const { next } = await set.killMaster();
        const direct = kept(createProducerConnection(`redis://127.0.0.1:${next.port}`));
        const notify = new Queue(NOTIFY_QUEUE, { connection: direct, prefix: QUEUE_PREFIX });
        const queued = async (): Promise<NotifyJobInput[]> =>
          (await notify.getJobs(['waiting'])).map((j) => j.data as NotifyJobInput);
        try {
          await eventually(async () => {
            if ((await queued()).length === 0) throw new Error('not queued again yet');
          }, SIGNAL_WAIT_MS);
          expect(await queued()).toEqual([expect.objectContaining(reply)]);
          expect(await direct.hexists('rd:plan:undo-w1', 'json')).toBe(1);
          expect(warnings).toContain('a Redis failover lost these writes: writing them again');
          await set.revive(old);
          await set.synced();
          await eventually(async () => {
            if (guard.pending() !== 0) throw new Error('still watched');
          }, SIGNAL_WAIT_MS);
          expect(await queued()).toHaveLength(1);
        } finally {
          await notify.close();
        }
      } finally {
        guard.stop();
        await producers.close();
      }
    },
    STORY_TIMEOUT_MS,
  );
});
