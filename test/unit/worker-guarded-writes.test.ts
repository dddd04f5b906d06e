/**
 * The worker's own writes across a failover (src/worker/guarded-writes.ts), on a real
 * redis-server: a result, an outcome, the plans and Undo plans they offer, a released
 * claim and an approval's nonce that no replica confirmed are written again when the
 * master that took them is gone (here: SIGKILLed and started empty, a new replication
 * history, as a promoted replica that never saw them), exactly once; a rewrite where
 * nothing was lost (the restart kept its data: append-only) changes nothing; and with a
 * journal (src/queue/guard-journal.ts) a worker restarted with the master still writes
 * them again. The Sentinel drills: test/failover/.
 */
import { Queue } from 'bullmq';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFileJournal, journalMacKey, startReplicationGuard } from '../../src/queue/guard-journal.js';
import { NOTIFY_QUEUE, QUEUE_PREFIX } from '../../src/queue/names.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import type { JournalRecord, ReplicationGuard } from '../../src/queue/replication-guard.js';
import type { NotifyJobInput } from '../../src/queue/schemas.js';
import { WORKER_REPLAY, guardWorkerWrites, replayWorkerSteps } from '../../src/worker/guarded-writes.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { signDiagnoseByApp } from '../../src/queue/diagnose-signature.js';
import { createLogger } from '../../src/logger.js';
import { startWorkers } from '../../src/worker/runtime.js';
import { fakeClusterDeps } from '../support/fake-cluster.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitUntil } from '../support/wait.js';

/** What the guard logged, to wait on a rewrite. */
function recordingLogger() {
  const lines: string[] = [];
  const log = (_fields: Record<string, unknown>, message: string): void => void lines.push(message);
  return { lines, info: log, warn: log };
}
const REWRITE = 'a Redis failover lost these writes: writing them again';
const CLUSTER = 'c1';

const result: NotifyJobInput = {
  kind: 'remediation-outcome',
  planId: 'plan-1',
  cluster: CLUSTER,
  channel: 'C01ABCDEF',
  messageTs: '1700000000.000100',
  stage: 'rolled-out',
  detail: 'Deployment/web in shop rolled out',
};

function storedPlan(id: string, createdAt: number): StoredPlan {
  return {
    plan: { id, kind: 'set-strategy', target: { kind: 'Deployment', namespace: 'shop', name: 'web' } },
    cluster: CLUSTER,
    createdAt,
    expiresAt: Date.now() + 3_600_000,
  } as unknown as StoredPlan;
}

const JOURNAL_KEY = journalMacKey(Buffer.from('this worker seal key'));

const until = (check: () => Promise<boolean>, what: string): Promise<true> =>
  waitUntil(what, () => check().catch(() => false));

/** One worker's writing side on `server`: its connection, producers, plans, guard. */
function workerSide(server: TestRedis, journalDir?: string) {
  const redis = new Redis(server.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  const producers: Producers = createProducers({ connection: redis, clusters: [CLUSTER], timeoutMs: 5_000 });
  const deps = { notify: producers.enqueueNotify, plans: createPlanStore(redis), redis };
  const logger = recordingLogger();
  // No replica: WAIT never confirms, so every write is watched, as when the master dies as it answers.
  const guard: ReplicationGuard = startReplicationGuard(
    redis,
    { replicas: 1, timeoutMs: 20, ...(journalDir ? { journalDir } : {}) },
    {
      logger,
      checkEveryMs: 20,
      replayers: { [WORKER_REPLAY]: replayWorkerSteps(deps) },
      journalKey: JOURNAL_KEY,
    },
  );
  const notifyQueue = new Queue(NOTIFY_QUEUE, { connection: redis, prefix: QUEUE_PREFIX });
  const close = async (): Promise<void> => {
    guard.stop();
    await notifyQueue.close();
    await producers.close();
    redis.disconnect();
  };
  return { redis, deps, guard, logger, writes: guardWorkerWrites(deps, guard), notifyQueue, close };
}

/** The notifications waiting in the notify lane (the app posts each once). */
async function queued(q: Queue): Promise<NotifyJobInput[]> {
  return (await q.getJobs(['waiting'])).map((j) => j.data as NotifyJobInput);
}

describe('the worker’s writes across a failover', () => {
  let server: TestRedis;
  const sides: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    server = await startRedis({ appendonly: true });
  });
  afterEach(async () => {
    await Promise.all(sides.splice(0).map((s) => s.close()));
    const flush = new Redis(server.url);
    flush.on('error', () => undefined);
    await flush.flushall().catch(() => undefined);
    flush.disconnect();
  });
  afterAll(async () => server.close());

  /** The master dies with everything it held; the one that answers next never saw it. */
  async function loseEverything(): Promise<void> {
    await server.stop('SIGKILL');
    const aof = join(server.dir, 'appendonlydir');
    await rm(aof, { recursive: true, force: true });
    await server.start();
  }

  it('a reply with the Undo plan it offers and a released claim, lost with the master, are written again once', async () => {
    const side = workerSide(server);
    sides.push(side);
    const { writes, redis, deps, notifyQueue, guard } = side;
    // A claim, as the app's approval made it, that a failed apply releases.
    await redis.set(redisKeys.plan('plan-0').claim, 'U1|1700000000000');
    await writes.plans.save(storedPlan('undo-1', 1));
    await writes.plans.release('plan-0');
    await writes.notify(result);
    expect(guard.pending()).toBe(1);
    expect(await queued(notifyQueue)).toHaveLength(1);

    // The restarted server starts empty (its append-only files removed); the guard may
    // write the plan again before any read here, so the loss is proven by the rewrite
    // being logged once, below, not by reading the key in between.
    await loseEverything();
    await until(async () => (await queued(notifyQueue)).length === 1, 'the reply queued again');
    expect(await queued(notifyQueue)).toEqual([expect.objectContaining(result)]);
    expect((await deps.plans.get('undo-1'))?.createdAt).toBe(1);
    // Watched on (still no replica) under the new master's history: not written a third time.
    await new Promise((r) => setTimeout(r, 200));
    expect(side.logger.lines.filter((l) => l === REWRITE)).toHaveLength(1);
    expect(await queued(notifyQueue)).toHaveLength(1);
    expect(guard.pending()).toBe(1);
  });

  it('judged lost where nothing was lost (a restart that kept its data): the rewrite changes nothing', async () => {
    const side = workerSide(server);
    sides.push(side);
    const { writes, redis, deps, notifyQueue } = side;
    await redis.set(redisKeys.plan('plan-0').claim, 'U1|1700000000000');
    await writes.plans.save(storedPlan('plan-2', 1));
    await writes.plans.release('plan-0');
    await writes.notify(result);
    // Since then: a later diagnosis refreshed the plan, and a new approval claimed plan-0.
    await deps.plans.save(storedPlan('plan-2', 2));
    await redis.set(redisKeys.plan('plan-0').claim, 'U2|1700000099000');
    const replid = /master_replid:(\w+)/.exec(await redis.info('replication'))?.[1];
    await server.stop('SIGTERM'); // append-only: the data survives, the replication id does not
    await server.start();
    await until(
      async () => /master_replid:(\w+)/.exec(await redis.info('replication'))?.[1] !== replid,
      'the restarted server',
    );
    // The guard judges the writes lost (another history) and writes them again.
    // Its last step, the reply, ends it: BullMQ drops the add (a "deduplicated" event), or
    // (without the reply's deduplication id) queues it a second time.
    const deduplicated = async (): Promise<boolean> =>
      (await redis.xrange(`${QUEUE_PREFIX}:${NOTIFY_QUEUE}:events`, '-', '+')).some(([, f]) =>
        f.includes('deduplicated'),
      );
    await until(
      async () => (await deduplicated()) || (await queued(notifyQueue)).length > 1,
      'the rewrite of the reply',
    );
    expect(side.logger.lines).toContain(REWRITE);
    expect(side.guard.pending()).toBe(1);
    expect(await queued(notifyQueue)).toHaveLength(1);
    expect((await deps.plans.get('plan-2'))?.createdAt).toBe(2);
    expect(await redis.get(redisKeys.plan('plan-0').claim)).toBe('U2|1700000099000');
  });

  it('an approval’s nonce is on the replicas before the apply, and set again if lost', async () => {
    const side = workerSide(server);
    sides.push(side);
    const key = redisKeys.approvalNonce('n-1');
    await side.redis.set(key, 'job-1', 'PX', 60_000, 'NX');
    await side.writes.nonce({ key, value: 'job-1', expiresAt: Date.now() + 60_000 });
    expect(side.guard.pending()).toBe(1);
    await loseEverything();
    await until(async () => (await side.redis.get(key)) === 'job-1', 'the nonce set again');
    expect(await side.redis.pttl(key)).toBeGreaterThan(50_000);
  });

  it('a worker restarted while the master died still writes again what it wrote before (journal)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rd-guard-journal-'));
    try {
      const first = workerSide(server, dir);
      await first.writes.plans.save(storedPlan('plan-3', 1));
      await first.writes.notify(result);
      expect(await readdir(dir)).toHaveLength(1);
      // The worker stops (its memory gone), then the master dies with the writes.
      await first.close();
      await loseEverything();

      const second = workerSide(server, dir);
      sides.push(second);
      await until(async () => (await queued(second.notifyQueue)).length === 1, 'the reply queued again');
      expect(await queued(second.notifyQueue)).toEqual([expect.objectContaining(result)]);
      expect((await second.deps.plans.get('plan-3'))?.createdAt).toBe(1);
      // Still unconfirmed (no replica): kept in the journal under the new mark.
      expect(second.guard.pending()).toBe(1);
      expect(await readdir(dir)).toHaveLength(1);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('progress lines are queued as they come, unguarded', async () => {
    const side = workerSide(server);
    sides.push(side);
    await side.writes.notify({
      kind: 'diagnosis-progress',
      jobId: 'j1',
      cluster: CLUSTER,
      runTs: 1,
      seq: 1,
      text: 'collecting…',
    } as NotifyJobInput);
    expect(side.guard.pending()).toBe(0);
  });
});

describe('the worker runtime', () => {
  it('guards a diagnosis result and its plans; a worker restarted after the master died writes them again', async () => {
    const server = await startRedis();
    const dir = await mkdtemp(join(tmpdir(), 'rd-guard-journal-'));
    const env = {
      ...testKeys.workerEnv,
      REDIS_URL: server.url,
      REDIS_WAIT_REPLICAS: '1', // no replica answers: every write is watched
      REDIS_WAIT_TIMEOUT_MS: '20',
      REDIS_WAIT_JOURNAL_DIR: dir,
      ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '1',
    };
    const config = loadWorkerConfig(env);
    const logger = createLogger({ level: 'silent', name: 'guard-test' });
    const app = new Redis(server.url, { enableOfflineQueue: true, maxRetriesPerRequest: 3 });
    app.on('error', () => undefined);
    const producers = createProducers({
      connection: app,
      clusters: [config.cluster],
      timeoutMs: 5_000,
      signDiagnose: (job, jobId) => signDiagnoseByApp(job, jobId, testKeys.approval),
    });
    const notifyQueue = new Queue(NOTIFY_QUEUE, { connection: app, prefix: QUEUE_PREFIX });
    const results = async (): Promise<NotifyJobInput[]> =>
      (await queued(notifyQueue)).filter((j) => j.kind === 'diagnosis-result');
    let workers = startWorkers(config, logger, fakeClusterDeps([]));
    try {
      await producers.enqueueDiagnose({
        mode: 'workload',
        cluster: config.cluster,
        target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
        requestedBy: 'U1',
      });
      await until(async () => (await results()).length === 1, 'the result');
      const result = (await results())[0];
      const plans = (await app.keys('rd:plan:*')).sort();
      expect(plans.length).toBeGreaterThan(0);
      await until(async () => workers.replication.pending() > 0, 'the result watched');
      expect((await readdir(dir)).length).toBeGreaterThan(0);

      // The worker stops, then the master dies with all it held.
      await workers.stop();
      await server.stop('SIGKILL');
      await server.start();
      expect(await app.keys('rd:plan:*')).toEqual([]);
      workers = startWorkers(config, logger, fakeClusterDeps([]));
      await until(async () => (await results()).length === 1, 'the result queued again');
      expect(await results()).toEqual([result]);
      expect((await app.keys('rd:plan:*')).sort()).toEqual(plans);
    } finally {
      await workers.stop();
      await notifyQueue.close();
      await producers.close();
      app.disconnect();
      await server.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A journal record of a worker outcome (the fields as the guard keeps them). */
const journalRecord = (overrides: Partial<JournalRecord> = {}): JournalRecord => ({
  id: 'k1-1-1',
  label: 'worker remediation-outcome',
  fields: { planId: 'plan-1' },
  replay: { kind: WORKER_REPLAY, data: [] },
  mark: { replid: 'a'.repeat(40), offset: 7 },
  since: 1,
  ...overrides,
});

/** `work` in a fresh journal directory, removed afterwards. */
async function inJournalDir(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-guard-journal-'));
  try {
    await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('the journal file', () => {
  it('keeps a record whole, drops files that do not parse, and forgets a record once removed', () =>
    inJournalDir(async (dir) => {
      const journal = createFileJournal(dir, JOURNAL_KEY);
      const record = journalRecord();
      journal.put(record);
      await writeFile(join(dir, 'k2-1-1.json'), '{"id":"k2-1-1"'); // cut short by a crash
      await writeFile(join(dir, 'k3-1-1.json.tmp'), '{}');
      expect(createFileJournal(dir, JOURNAL_KEY).load()).toEqual({
        records: [record],
        dropped: ['k2-1-1.json'],
        refused: [],
      });
      expect(await readdir(dir)).toEqual(['k1-1-1.json']);
      journal.remove(record.id);
      expect(createFileJournal(dir, JOURNAL_KEY).load()).toEqual({ records: [], dropped: [], refused: [] });
      expect(() => journal.put({ ...record, id: '../x' })).toThrow();
    }));

  it("refuses a record whose MAC is not this process's: edited, unsigned, or another key's (issue 54.7)", () =>
    inJournalDir(async (dir) => {
      const journal = createFileJournal(dir, JOURNAL_KEY);
      const record = journalRecord({
        replay: { kind: WORKER_REPLAY, data: [{ step: 'outcome', planId: 'plan-1' }] },
        mark: undefined,
      });
      journal.put(record);
      journal.put({ ...record, id: 'k2-1-1', since: 2 });
      journal.put({ ...record, id: 'k3-1-1', since: 3 });
      journal.put({ ...record, id: 'k4-1-1', since: 4 });
      // Edited: another plan in the replay, the MAC kept.
      const edited = JSON.parse(await readFile(join(dir, 'k2-1-1.json'), 'utf8')) as Record<string, unknown>;
      edited.replay = { kind: WORKER_REPLAY, data: [{ step: 'outcome', planId: 'plan-evil' }] };
      await writeFile(join(dir, 'k2-1-1.json'), JSON.stringify(edited));
      // Unsigned, as the journal was before: refused, not replayed.
      const { mac: _mac, ...unsigned } = JSON.parse(
        await readFile(join(dir, 'k3-1-1.json'), 'utf8'),
      ) as Record<string, unknown>;
      await writeFile(join(dir, 'k3-1-1.json'), JSON.stringify(unsigned));
      // Written under another process's key.
      createFileJournal(dir, journalMacKey(Buffer.from('another worker seal key'))).put({
        ...record,
        id: 'k4-1-1',
        since: 4,
      });
      const loaded = createFileJournal(dir, JOURNAL_KEY).load();
      expect(loaded.records.map((r) => r.id)).toEqual(['k1-1-1']);
      expect(loaded.refused.sort()).toEqual(['k2-1-1.json', 'k4-1-1.json']);
      expect(loaded.dropped).toEqual(['k3-1-1.json']);
      expect(await readdir(dir)).toEqual(['k1-1-1.json']);
    }));
});
