/**
 * The Redis calls of an answer, under a Redis that stalls or is full (issue 53.1, 53.6),
 * on a real redis-server behind a TCP proxy that can hold every byte (a stall):
 * - an enqueue given a deadline gives up at it, saying "stalled"; the add Redis runs
 *   once the stall ends is withdrawn, and the worker's processor reads and posts nothing;
 * - a command budget that cannot be read refuses the start visibly, saying why
 *   (stalled, or full), audited `budget-unread`, instead of letting it through;
 * - errors are classified once: full (OOM) is not "unreachable";
 * - /readyz probes a write, and says "full" when Redis refuses writes.
 */
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit.js';
import { spendBudget, createCommandBudget } from '../../src/chat/use-cases/command-budget.js';
import { plainText } from '../../src/message/rich.js';
import { redisTroubleWords } from '../../src/chat/use-cases/redis-words.js';
import { routeTable } from '../../src/app/http-server.js';
import { readyzRoute } from '../../src/app/routes/health.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { closeConnection, createProducerConnection, waitForReady } from '../../src/queue/connection.js';
import type { RedisTroubleError } from '../../src/queue/deadline.js';
import { deadlineIn, redisTrouble } from '../../src/queue/deadline.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { createProducers, QueueUnavailableError, type Producers } from '../../src/queue/producers.js';
import { probeWrites, RedisReadOnlyError } from '../../src/queue/role.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { isWithdrawn } from '../../src/queue/withdrawn.js';
import { createDiagnoseProcessor } from '../../src/worker/diagnose-processor.js';
import { fillRedis, startRedisPartition, type RedisPartition } from '../support/redis-faults.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';
import { REFUSAL_TEXT } from '../../src/chat/approvals/refusal-text.js';
import { waitUntil } from '../support/wait.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { discardLogger, httpServerPerTest } from '../support/http-test-server.js';
import { rawRequest } from '../support/raw-http.js';
import type { AppConfig } from '../../src/config/environment.js';

const logger = createLogger({ level: 'silent', name: 'test' });
let redis: TestRedis;
let link: RedisPartition;
let admin: Redis;
let connection: Redis;
let producers: Producers;

beforeAll(async () => {
  redis = await startRedis();
  link = await startRedisPartition(redis.port);
  admin = new Redis(redis.url);
  connection = createProducerConnection(link.url);
  connection.on('error', () => undefined);
  await waitForReady(connection, SIGNAL_WAIT_MS);
  producers = createProducers({ connection, clusters: ['default'], onError: () => undefined });
});

afterAll(async () => {
  await producers?.close();
  if (connection) await closeConnection(connection);
  admin?.disconnect();
  await link?.close();
  await redis?.close();
});

const job = (name: string): DiagnoseJob => ({
  mode: 'workload',
  cluster: 'default',
  target: { kind: 'Deployment', namespace: 'shop', name },
  requestedBy: 'U1',
});

function budgetServices() {
  const audited: AuditEvent[] = [];
  return {
    audited,
    services: {
      commandBudget: createCommandBudget(connection, { perUser: 5, perChannel: 20 }),
      logger,
      metrics: createMetrics(),
      audit: { record: (e: AuditEvent) => void audited.push(e) },
      config: { commandBudget: { perUser: 5, perChannel: 20 } } as unknown as AppConfig,
    },
  };
}

describe('what Redis said, classified once', () => {
  it('names full, read-only, stalled and unreachable', () => {
    expect(redisTrouble(new Error("OOM command not allowed when used memory > 'maxmemory'."))).toBe('full');
    expect(redisTrouble(new Error('MISCONF Redis is configured to save RDB snapshots'))).toBe('full');
    expect(redisTrouble(new Error("READONLY You can't write against a read only replica."))).toBe(
      'read-only',
    );
    expect(redisTrouble(new RedisReadOnlyError('the Redis server is a slave'))).toBe('read-only');
    expect(redisTrouble(new Error('Command timed out'))).toBe('stalled');
    expect(redisTrouble(new Error('connect ECONNREFUSED 127.0.0.1:6379'))).toBe('unreachable');
    expect(redisTrouble(new Error("Stream isn't writeable and enableOfflineQueue options is false"))).toBe(
      'unreachable',
    );
    expect(redisTroubleWords(new QueueUnavailableError('x', { trouble: 'full' }))).toBe(
      'Redis is full and refuses writes (out of memory)',
    );
  });
});

describe('a Redis that stalls', () => {
  it('an enqueue gives up at its deadline, and the late add runs nothing on the worker', async () => {
    link.stall();
    const started = Date.now();
    let caught: unknown;
    try {
      await producers.enqueueDiagnose(job('late'), { deadline: deadlineIn(300) });
    } catch (error) {
      caught = error;
    }
    const took = Date.now() - started;
    link.heal();
    expect(caught).toBeInstanceOf(QueueUnavailableError);
    expect((caught as RedisTroubleError).trouble).toBe('stalled');
    expect(took).toBeLessThan(1_500);
    // Redis runs the add once the stall ends, and the withdrawal right after it.
    const jobKey = `${QUEUE_PREFIX}:${diagnoseQueueName('default')}:diagnose.shop.late`;
    const data = await waitUntil(
      'the late add ran in Redis',
      async () => (await admin.hget(jobKey, 'data')) ?? undefined,
      SIGNAL_WAIT_MS,
    );
    const queued = JSON.parse(data) as DiagnoseJob;
    expect(queued.request).toMatch(/^[A-Za-z0-9_-]{8,}$/);
    await waitUntil(
      'the request withdrawn',
      async () => (await isWithdrawn(admin, queued.request ?? '')) || undefined,
      SIGNAL_WAIT_MS,
    );
    // The worker's processor, given that job: no read, no post.
    const collected: string[] = [];
    const notified: unknown[] = [];
    const processor = createDiagnoseProcessor({
      collect: async (ref) => {
        collected.push(ref.name);
        throw new Error('read');
      },
      diagnose: () => {
        throw new Error('diagnosed');
      },
      dryRun: async () => ({ ok: true, changes: [] }),
      scan: async () => ({ scanned: 0, entries: [] }),
      plans: {} as never,
      planTtlMs: 60_000,
      notify: async (n) => void notified.push(n),
      logger,
      withdrawn: (request) => isWithdrawn(admin, request),
    });
    const fake = {
      id: 'diagnose.shop.late',
      data: queued,
      timestamp: 1,
      attemptsMade: 0,
      attemptsStarted: 1,
      opts: {},
    };
    await expect(processor(fake as unknown as Job<DiagnoseJob>)).resolves.toBe('withdrawn');
    expect(collected).toEqual([]);
    expect(notified).toEqual([]);
  });

  it('a later request for the same target does not join a withdrawn job still waiting: it queues a fresh run', async () => {
    const jobKey = `${QUEUE_PREFIX}:${diagnoseQueueName('default')}:diagnose.shop.late`;
    const before = JSON.parse((await admin.hget(jobKey, 'data')) ?? '{}') as DiagnoseJob;
    expect(await isWithdrawn(admin, before.request ?? '')).toBe(true);
    const queued = await producers.enqueueDiagnose(job('late'), { deadline: deadlineIn(2_000) });
    expect(queued.joined).toBe(false);
    const after = JSON.parse((await admin.hget(jobKey, 'data')) ?? '{}') as DiagnoseJob;
    expect(after.request).toBe(queued.request);
    expect(await isWithdrawn(admin, after.request ?? '')).toBe(false);
  });

  it('an enqueue in time is not withdrawn', async () => {
    const queued = await producers.enqueueDiagnose(job('in-time'), { deadline: deadlineIn(2_000) });
    expect(queued.request).toBeDefined();
    expect(await isWithdrawn(admin, queued.request ?? '')).toBe(false);
  });

  it('a budget that cannot be read refuses the start, visibly, within the deadline', async () => {
    const { services, audited } = budgetServices();
    link.stall();
    const started = Date.now();
    const refusal = await spendBudget(
      services,
      { user: 'U1', channel: 'C1', entry: 'diagnose' },
      deadlineIn(300),
    );
    const took = Date.now() - started;
    link.heal();
    expect(took).toBeLessThan(1_500);
    expect(plainText(refusal ?? [])).toMatch(
      /^Not started: the queue is unavailable right now \(the command budget could not be read: Redis did not answer in time\)\. Nothing was started; please try again in a few seconds\.$/,
    );
    expect(audited).toEqual([expect.objectContaining({ reason: 'budget-unread', user: 'U1' })]);
  });

  it('an Approve whose budget cannot be read is told nothing was applied', async () => {
    const { services } = budgetServices();
    link.stall();
    const refusal = await spendBudget(
      services,
      { user: 'U1', channel: 'C1', entry: 'approve' },
      deadlineIn(300),
    );
    link.heal();
    expect(plainText(refusal ?? [])).toMatch(
      /^Not recorded: .*\. Nothing was applied; please try again in a few seconds\.$/,
    );
  });
});

describe('a full Redis (maxmemory, noeviction)', () => {
  const servers = httpServerPerTest(discardLogger('readyz-full'), {
    headersTimeoutMs: 2_000,
    requestTimeoutMs: 4_000,
    keepAliveTimeoutMs: 1_000,
  });

  it('is called full, in the budget refusal, the enqueue and /readyz', async () => {
    const readyz = readyzRoute({ pingRedis: () => probeWrites(connection), slackReady: () => true, logger });
    const { url } = await servers.start(routeTable([readyz]));
    const full = await fillRedis(admin);
    try {
      const { services } = budgetServices();
      const refusal = await spendBudget(services, { user: 'U2', channel: 'C2', entry: 'diagnose' });
      expect(plainText(refusal ?? [])).toContain('Redis is full and refuses writes (out of memory)');
      // A full Redis waits for someone to free memory: not a few seconds' failover.
      expect(plainText(refusal ?? [])).toMatch(/please try again in a minute\.$/);
      await expect(
        producers.enqueueDiagnose(job('full'), { deadline: deadlineIn(2_000) }),
      ).rejects.toMatchObject({
        trouble: 'full',
      });
      const res = await rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x');
      expect(res.status).toBe(503);
      expect(res.text).toContain('"redis":"full"');
      expect(res.text).toContain('"waitingFor":["redis (writes refused: full, out of memory)"]');
    } finally {
      await full.release();
    }
    expect((await rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x')).status).toBe(200);
  });
});

describe('an approval press Redis cannot take during a failover (issue 67.9)', () => {
  it('says "please try again in a few seconds": unreachable, read-only or stalled; a full Redis "in a minute"', async () => {
    // A Redis that is not there (the master gone, Sentinel not yet switched): the real error.
    const gone = createProducerConnection(`redis://127.0.0.1:${await freePort()}`);
    gone.on('error', () => undefined);
    const unreachable = await gone.get('rd:plan:p1').then(
      () => undefined,
      (error: unknown) => error,
    );
    gone.disconnect();
    expect(redisTrouble(unreachable)).toBe('unreachable');
    const readOnly = new Error("READONLY You can't write against a read only replica.");
    const stalled = new Error('record the approval: Redis did not answer within 2000 ms');
    for (const error of [unreachable, readOnly, stalled]) {
      expect(plainText(REFUSAL_TEXT.notRecorded(error))).toMatch(
        /^The approval could not be recorded: .*\. Nothing was applied\. Please try again in a few seconds\.$/,
      );
      expect(plainText(REFUSAL_TEXT.notQueued(error))).toMatch(/Please try again in a few seconds\.$/);
    }
    expect(plainText(REFUSAL_TEXT.notRecorded(new Error('OOM command not allowed')))).toMatch(
      /Please try again in a minute\.$/,
    );
  });
});
