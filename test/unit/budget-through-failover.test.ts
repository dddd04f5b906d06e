/**
 * Issue 67.9: a press made in the seconds a Sentinel failover takes is held, not refused
 * with "the command budget could not be read". On a real redis-server:
 * - the budget's spend is idempotent per press: the same press taken twice counts once,
 *   two presses count twice, a refused press leaves nothing behind;
 * - a try whose reply was lost (the spend reached Redis, the connection closed) is tried
 *   again and counted once;
 * - every try shares the answer's one deadline: a Redis that stays away is refused at
 *   it, not after a full deadline per try; a full Redis is not tried again;
 * - the real producer connection to a Redis that stops and comes back inside the
 *   deadline (the master away, then the new one) gets the press through.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit.js';
import type { AppConfig } from '../../src/config/environment.js';
import {
  createCommandBudget,
  spendBudget,
  type CommandBudget,
} from '../../src/chat/use-cases/command-budget.js';
import { plainText } from '../../src/message/rich.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { closeConnection, createProducerConnection, waitForReady } from '../../src/queue/connection.js';
import { deadlineIn, failingOver, throughFailover } from '../../src/queue/deadline.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const logger = createLogger({ level: 'silent', name: 'test' });
let redis: TestRedis;
let admin: Redis;

beforeAll(async () => {
  redis = await startRedis();
  admin = new Redis(redis.url);
});

afterAll(async () => {
  admin?.disconnect();
  await redis?.close();
});

const limits = { perUser: 5, perChannel: 20 };

function servicesOf(commandBudget: CommandBudget) {
  const audited: AuditEvent[] = [];
  return {
    audited,
    services: {
      commandBudget,
      logger,
      metrics: createMetrics(),
      audit: { record: (e: AuditEvent) => void audited.push(e) },
      config: { commandBudget: limits } as unknown as AppConfig,
    },
  };
}

const spent = async (user: string): Promise<number> =>
  Number((await admin.get(redisKeys.commandBudget('user', user))) ?? '0');

describe('the command budget, spent once per press', () => {
  it('counts the same press once, two presses twice', async () => {
    const budget = createCommandBudget(admin, limits);
    expect(await budget.take('UONCE', 'CONCE', 'press-1')).toEqual({ ok: true });
    expect(await budget.take('UONCE', 'CONCE', 'press-1')).toEqual({ ok: true });
    expect(await spent('UONCE')).toBe(1);
    expect(await budget.take('UONCE', 'CONCE', 'press-2')).toEqual({ ok: true });
    expect(await spent('UONCE')).toBe(2);
    expect(Number(await admin.get(redisKeys.commandBudget('channel', 'CONCE')))).toBe(2);
    // Without a press id, as before: every take counts.
    await budget.take('UONCE', 'CONCE');
    await budget.take('UONCE', 'CONCE');
    expect(await spent('UONCE')).toBe(4);
    // The press's mark lasts the window, no longer.
    const ttl = await admin.pttl(redisKeys.commandBudgetPress('press-1'));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
  });

  it('a refused press leaves no mark: its retry is judged afresh', async () => {
    const budget = createCommandBudget(admin, { perUser: 1, perChannel: 20 });
    expect(await budget.take('UFULL', 'CFULL', 'first')).toEqual({ ok: true });
    expect(await budget.take('UFULL', 'CFULL', 'second')).toMatchObject({ ok: false, over: 'user' });
    expect(await admin.exists(redisKeys.commandBudgetPress('second'))).toBe(0);
    expect(await spent('UFULL')).toBe(1);
  });
});

describe('a press whose budget read a failover refused', () => {
  it('is tried again within the deadline and counted once when the first try reached Redis', async () => {
    const real = createCommandBudget(admin, limits);
    let tries = 0;
    // The first try runs in Redis, then its reply is lost with the connection (the
    // master died after the write): ioredis says "Connection is closed."
    const lossy: CommandBudget = {
      async take(user, channel, press) {
        tries += 1;
        const answer = await real.take(user, channel, press);
        if (tries === 1) throw new Error('Connection is closed.');
        return answer;
      },
    };
    const { services, audited } = servicesOf(lossy);
    const started = Date.now();
    const refusal = await spendBudget(
      services,
      { user: 'ULOST', channel: 'CLOST', entry: 'approve' },
      deadlineIn(2_000),
    );
    expect(refusal).toBeNull();
    expect(tries).toBe(2);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(await spent('ULOST')).toBe(1);
    expect(audited).toEqual([]);
  });

  it('shares the one deadline: a Redis that stays away is refused at it, saying "in a few seconds"', async () => {
    let tries = 0;
    const away: CommandBudget = {
      take() {
        tries += 1;
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      },
    };
    const { services, audited } = servicesOf(away);
    const started = Date.now();
    const refusal = await spendBudget(
      services,
      { user: 'UAWAY', channel: 'CAWAY', entry: 'approve' },
      deadlineIn(600),
    );
    const took = Date.now() - started;
    expect(tries).toBeGreaterThan(2);
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(900);
    expect(plainText(refusal ?? [])).toMatch(
      /^Not recorded: .*Redis is unreachable.*\. Nothing was applied; please try again in a few seconds\.$/,
    );
    expect(audited).toEqual([expect.objectContaining({ reason: 'budget-unread' })]);
  });

  it('a deadline held for a failover still gives a stalled call up after its stall bound', async () => {
    const deadline = (): ReturnType<typeof deadlineIn> => deadlineIn(1_500, Date.now, { stallMs: 300 });
    // No answer at all (a stall): given up after 300 ms, not held to the deadline.
    let started = Date.now();
    await expect(
      throughFailover(deadline(), 'stalled read', () => new Promise<never>(() => undefined)),
    ).rejects.toMatchObject({ trouble: 'stalled' });
    expect(Date.now() - started).toBeLessThan(800);
    // Refused at once (the master gone): tried again until the one deadline.
    let tries = 0;
    started = Date.now();
    await expect(
      throughFailover(deadline(), 'refused read', () => {
        tries += 1;
        return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6379'));
      }),
    ).rejects.toMatchObject({ trouble: 'unreachable' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_300);
    expect(tries).toBeGreaterThan(5);
  });

  it('a full Redis is not tried again', async () => {
    let tries = 0;
    const full: CommandBudget = {
      take() {
        tries += 1;
        return Promise.reject(new Error("OOM command not allowed when used memory > 'maxmemory'."));
      },
    };
    const { services } = servicesOf(full);
    const refusal = await spendBudget(
      services,
      { user: 'UOOM', channel: 'COOM', entry: 'diagnose' },
      deadlineIn(600),
    );
    expect(tries).toBe(1);
    expect(plainText(refusal ?? [])).toMatch(/please try again in a minute\.$/);
  });

  it('names what a failover explains', () => {
    for (const message of [
      'Connection is closed.',
      "Stream isn't writeable and enableOfflineQueue options is false",
      'Reached the max retries per request limit (which is 1). Refer to "maxRetriesPerRequest" option for details.',
      'connect ECONNREFUSED 127.0.0.1:6379',
      "READONLY You can't write against a read only replica.",
      'LOADING Redis is loading the dataset in memory',
      'All sentinels are unreachable. Retrying from scratch after 10ms.',
    ])
      expect(failingOver(new Error(message)), message).toBe(true);
    for (const message of [
      "OOM command not allowed when used memory > 'maxmemory'.",
      'Command timed out',
      'ERR Error running script',
    ])
      expect(failingOver(new Error(message)), message).toBe(false);
  });

  it('the producer connection to a Redis away and back within the deadline gets the press through', async () => {
    const own = await startRedis();
    const connection = createProducerConnection(own.url);
    connection.on('error', () => undefined);
    try {
      await waitForReady(connection, SIGNAL_WAIT_MS);
      const { services } = servicesOf(createCommandBudget(connection, limits));
      await own.stop('SIGKILL');
      // Back 600 ms into the press (a failover's new master, on loopback).
      const back = new Promise((resolve) => setTimeout(resolve, 600)).then(() => own.start());
      const started = Date.now();
      const refusal = await spendBudget(
        services,
        { user: 'UBACK', channel: 'CBACK', entry: 'approve' },
        deadlineIn(2_500),
      );
      const took = Date.now() - started;
      await back;
      expect(plainText(refusal ?? [])).toBe('');
      expect(took).toBeLessThan(2_500);
      expect(Number(await connection.get(redisKeys.commandBudget('user', 'UBACK')))).toBe(1);
    } finally {
      await closeConnection(connection);
      await own.close();
    }
  });
});
