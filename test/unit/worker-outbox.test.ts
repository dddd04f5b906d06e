/**
 * A remediation's outcomes through a Redis that refuses writes (src/worker/outbox.ts),
 * on a real redis-server made full (`maxmemory` below what it holds, `noeviction`): the
 * Undo plan and the reply naming it are kept, the writer goes on, and both reach Redis
 * in order once it takes writes again; an outcome whose job a later attempt started is
 * dropped (src/worker/job-fence.ts); and what a worker kept in its journal directory is
 * delivered by the next worker to start.
 */
import { Queue } from 'bullmq';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFileJournal, journalMacKey } from '../../src/queue/guard-journal.js';
import { NOTIFY_QUEUE, QUEUE_PREFIX, remediateQueueName } from '../../src/queue/names.js';
import { remediateJobId } from '../../src/queue/job-ids.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers } from '../../src/queue/producers.js';
import type { NotifyJobInput } from '../../src/queue/schemas.js';
import { createLogger } from '../../src/logger.js';
import { guardWorkerWrites } from '../../src/worker/guarded-writes.js';
import { remediationFence } from '../../src/worker/job-fence.js';
import { createOutbox, type Outbox } from '../../src/worker/outbox.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { fillRedis } from '../support/redis-faults.js';

const CLUSTER = 'c1';
const PLAN = 'set-recreate-0123456789abcdef';

let server: TestRedis;
let admin: Redis;
let dir: string;
const opened: { close(): Promise<unknown> | void }[] = [];

beforeAll(async () => {
  server = await startRedis();
  admin = new Redis(server.url);
});
afterAll(async () => {
  admin.disconnect();
  await server.close();
});
beforeEach(async () => {
  await admin.config('SET', 'maxmemory', '0');
  await admin.flushall();
  dir = await mkdtemp(join(tmpdir(), 'rd-outbox-'));
});
afterEach(async () => {
  await admin.config('SET', 'maxmemory', '0');
  for (const item of opened.splice(0)) await item.close();
  await rm(dir, { recursive: true, force: true });
});

const outcome = (stage: 'applied' | 'rolled-out', attempt: number): NotifyJobInput => ({
  kind: 'remediation-outcome',
  planId: PLAN,
  cluster: CLUSTER,
  channel: 'C01ABCDEF',
  messageTs: '1700000000.000100',
  attempt,
  stage,
  detail: `deployment/web in shop ${stage}`,
  ...(stage === 'applied' ? { undoPlanId: `undo-${PLAN}` } : {}),
});

const undoPlan = (): StoredPlan =>
  ({
    plan: {
      id: `undo-${PLAN}`,
      kind: 'set-rolling-update',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    },
    cluster: CLUSTER,
    createdAt: Date.now(),
    expiresAt: Date.now() + 3_600_000,
  }) as unknown as StoredPlan;

/** A worker's writing side as the runtime wires it, with its outbox. */
function workerOutbox(journalDir?: string): { outbox: Outbox; warnings: string[] } {
  const redis = new Redis(server.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  const producers = createProducers({ connection: redis, clusters: [CLUSTER], timeoutMs: 2_000 });
  const writes = guardWorkerWrites(
    { notify: producers.enqueueNotify, plans: createPlanStore(redis), redis },
    undefined,
  );
  const warnings: string[] = [];
  const logger = createLogger({ level: 'warn', name: 'outbox-test' }, {
    write: (line: string) => void warnings.push(String(JSON.parse(line).msg)),
  } as never);
  const outbox = createOutbox({
    writes: { notify: writes.notify, plans: writes.plans, redis },
    redis,
    logger,
    holdMs: 300,
    pauseMs: 50,
    maxPauseMs: 200,
    ...(journalDir
      ? { journal: createFileJournal(journalDir, journalMacKey(Buffer.from('outbox test key'))) }
      : {}),
  });
  opened.push({
    close: async () => {
      outbox.stop();
      await producers.close();
      redis.disconnect();
    },
  });
  return { outbox, warnings };
}

async function notifications(): Promise<NotifyJobInput[]> {
  const queue = new Queue(NOTIFY_QUEUE, { connection: admin, prefix: QUEUE_PREFIX });
  const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'completed']);
  await queue.close();
  return jobs
    .sort((a, b) => a.timestamp - b.timestamp || Number(a.id) - Number(b.id))
    .map((job) => job.data as NotifyJobInput);
}

describe('worker outbox', () => {
  it('keeps the Undo plan and the replies while Redis is full, and delivers them in order once it takes writes', async () => {
    const { outbox, warnings } = workerOutbox();
    const writes = outbox.forAttempt(remediationFence(CLUSTER, PLAN, 1));
    await fillRedis(admin);
    const started = Date.now();
    await writes.plans.save(undoPlan());
    await writes.notify(outcome('applied', 1));
    await writes.notify(outcome('rolled-out', 1));
    // The writer went on (it waits holdMs per reply, not for Redis).
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(outbox.pending()).toBe(2);
    expect(warnings).toContain('Redis refuses the outcome: kept, delivered when it takes writes');
    expect(await notifications()).toEqual([]);

    await admin.config('SET', 'maxmemory', '0');
    expect(await outbox.drained(10_000)).toBe(true);
    expect((await notifications()).map((n) => 'stage' in n && n.stage)).toEqual(['applied', 'rolled-out']);
    expect(await createPlanStore(admin).get(`undo-${PLAN}`)).toBeDefined();
  });

  it('drops an outcome whose job a later attempt started', async () => {
    const { outbox, warnings } = workerOutbox();
    // BullMQ's count of starts: another worker took the job over (attempt 2).
    await admin.hset(`${QUEUE_PREFIX}:${remediateQueueName(CLUSTER)}:${remediateJobId(PLAN)}`, 'ats', '2');
    await outbox.forAttempt(remediationFence(CLUSTER, PLAN, 1)).notify(outcome('applied', 1));
    expect(await outbox.drained(5_000)).toBe(true);
    expect(await notifications()).toEqual([]);
    expect(warnings).toContain('outcome of a job a later attempt took over: not posted');
    // The attempt that holds it speaks.
    await outbox.forAttempt(remediationFence(CLUSTER, PLAN, 2)).notify(outcome('rolled-out', 2));
    expect(await outbox.drained(5_000)).toBe(true);
    expect((await notifications()).map((n) => 'stage' in n && n.stage)).toEqual(['rolled-out']);
  });

  it('delivers what a stopped worker kept in its journal directory', async () => {
    const first = workerOutbox(dir);
    await fillRedis(admin);
    await first.outbox.forAttempt(remediationFence(CLUSTER, PLAN, 1)).notify(outcome('applied', 1));
    first.outbox.stop();
    expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    await admin.config('SET', 'maxmemory', '0');
    const next = workerOutbox(dir);
    expect(await next.outbox.drained(10_000)).toBe(true);
    expect((await notifications()).map((n) => 'stage' in n && n.stage)).toEqual(['applied']);
    expect((await readdir(dir)).filter((f) => f.endsWith('.json'))).toEqual([]);
  });
});
