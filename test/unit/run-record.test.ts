/**
 * A run record a Redis writer pins cannot silence a workload (issue 67.8): a record the
 * app would not have written (unsigned, another run's, ahead of the clock, without or
 * beyond its expiry) is ignored, reported and dropped, and the next diagnosis is still
 * delivered; a genuine fresh record still orders notifications and answers a request
 * that joined a finished run. Against a real redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import { distrustOf, dropRunRecord, readRunRecord } from '../../src/chat/notify/run-record.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { signNotify, verifyNotify } from '../../src/queue/notify-signature.js';
import type { RunUpdate } from '../../src/queue/schemas.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

const verify = (stored: unknown) => verifyNotify(stored, testKeys.notify.keys);
const DAY_MS = 24 * 3600 * 1000;

function setup(jobId: string) {
  const ignored: { key: string; reason: string }[] = [];
  const subs = createSubscriptions(redis, verify, testKeys.approval, {
    onIgnored: (key, reason) => ignored.push({ key, reason }),
  });
  const key = redisKeys.run('default', jobId).run;
  const result = (runTs: number, seq = 2): Extract<RunUpdate, { kind: 'diagnosis-result' }> => ({
    kind: 'diagnosis-result',
    jobId,
    cluster: 'default',
    runTs,
    seq,
    outcome: { status: 'failed', reason: 'deployment/web in shop: cluster unreachable' },
  });
  const progress = (runTs: number, seq: number): RunUpdate => ({
    kind: 'diagnosis-progress',
    jobId,
    cluster: 'default',
    runTs,
    seq,
    text: 'collecting…',
  });
  const publish = (update: RunUpdate, now = Date.now()) =>
    subs.publish(
      'default',
      jobId,
      {
        runTs: update.runTs,
        seq: update.seq,
        final: update.kind === 'diagnosis-result',
        update,
        signed: signNotify(update, 'worker', testKeys.notify.signing),
      },
      now,
    );
  const ask = (ts: string, addedAt: number) =>
    subs.subscribe('default', jobId, { channel: 'C1', ts }, addedAt, {
      requestedBy: 'U0ASKER',
      cluster: 'default',
    });
  return { subs, key, ignored, result, progress, publish, ask };
}

describe('a pinned run record', () => {
  it('a run number no run reaches, kept for ever, with a garbage payload: the next diagnosis is delivered', async () => {
    const t = setup('diagnose.shop.pinned');
    await redis.hset(t.key, { run: String(Number.MAX_SAFE_INTEGER), seq: '0', final: '0', payload: 'junk' });
    await redis.persist(t.key);
    const now = Date.now();
    expect(await t.ask('1.1', now)).toEqual({ state: 'none' });
    const shownIn = await t.publish(t.result(now));
    expect(shownIn?.map((r) => r.ts)).toEqual(['1.1']);
    expect(t.ignored).toEqual([{ key: t.key, reason: 'no expiry' }]);
    // The record is the genuine result now, with its expiry.
    expect(await redis.hget(t.key, 'run')).toBe(String(now));
    expect(await redis.ttl(t.key)).toBeGreaterThan(0);
  });

  it('the same pin with an expiry: ignored as ahead of the clock', async () => {
    const t = setup('diagnose.shop.pinned-ttl');
    await redis.hset(t.key, { run: String(Date.now() + 365 * DAY_MS), seq: '9', final: '0', payload: '{}' });
    await redis.expire(t.key, 3600);
    const now = Date.now();
    await t.ask('2.1', now);
    expect((await t.publish(t.progress(now, 1)))?.map((r) => r.ts)).toEqual(['2.1']);
    expect(t.ignored.map((i) => i.reason)).toEqual(['times ahead of this clock']);
  });

  it('a genuine old result made to look finished in the future: a new request is not handed it, and gets the new run', async () => {
    const t = setup('diagnose.shop.replayed');
    const old = Date.now() - 3_600_000;
    await t.publish(t.result(old), old + 5_000);
    // A writer moves its finish into the far future and takes its expiry away.
    await redis.hset(t.key, 'finishedAt', String(Date.now() + 30 * DAY_MS));
    await redis.persist(t.key);
    const now = Date.now();
    expect(await t.subs.finishedSince('default', 'diagnose.shop.replayed', now)).toBe(false);
    expect(await t.ask('3.1', now)).toEqual({ state: 'none' });
    expect((await t.publish(t.result(now)))?.map((r) => r.ts)).toEqual(['3.1']);
    expect(t.ignored.map((i) => i.reason)).toEqual(['no expiry', 'no expiry']);
  });

  it("another run's signed notification, or an expiry longer than the app gives: ignored", async () => {
    const t = setup('diagnose.shop.copied');
    const now = Date.now();
    const other = { ...t.result(now + 30_000), jobId: 'diagnose.shop.other' };
    await redis.hset(t.key, {
      run: String(now + 30_000),
      seq: '2',
      final: '1',
      finishedAt: String(now + 30_000),
      payload: JSON.stringify(signNotify(other, 'worker', testKeys.notify.signing)),
    });
    await redis.expire(t.key, 3600);
    expect(await t.ask('4.1', now)).toEqual({ state: 'none' });
    expect((await t.publish(t.result(now)))?.map((r) => r.ts)).toEqual(['4.1']);
    expect(t.ignored.map((i) => i.reason)).toEqual(["another run's notification"]);
    // Its own genuine record, kept 30 days instead of one: not trusted either.
    await redis.pexpire(t.key, 30 * DAY_MS);
    await t.ask('4.2', now + 1);
    expect((await t.publish(t.progress(now - 1, 1)))?.map((r) => r.ts)).toEqual(['4.2']);
    expect(t.ignored.at(-1)?.reason).toBe('an expiry beyond the life the app gives it');
  });
});

describe('a genuine fresh record still decides', () => {
  it('orders notifications and answers a request that joined a finished run, reporting nothing', async () => {
    const t = setup('diagnose.shop.genuine');
    const now = Date.now();
    await t.ask('5.1', now - 10);
    expect((await t.publish(t.progress(now, 1)))?.map((r) => r.ts)).toEqual(['5.1']);
    expect((await t.publish(t.result(now, 3)))?.map((r) => r.ts)).toEqual(['5.1']);
    // A progress line after the result, and an older run's notification: stale.
    expect(await t.publish(t.progress(now, 2))).toBeNull();
    expect(await t.publish(t.result(now - 60_000))).toBeNull();
    // A request queued before the run finished joined it: it gets that result at once.
    expect(await t.ask('5.2', now - 5)).toEqual({ state: 'final', update: t.result(now, 3) });
    expect(await t.subs.finishedSince('default', 'diagnose.shop.genuine', now - 5)).toBe(true);
    expect(t.ignored).toEqual([]);
    expect(await redis.exists(t.key)).toBe(1);
  });

  it('a forged record replaced by a genuine publish between judging and dropping is kept', async () => {
    const t = setup('diagnose.shop.raced');
    await redis.hset(t.key, { run: String(Number.MAX_SAFE_INTEGER), seq: '0', final: '0' });
    const judged = await readRunRecord(redis, t.key);
    expect(
      distrustOf(judged, { cluster: 'default', jobId: 'j', now: Date.now(), ttlSeconds: 86_400, verify }),
    ).toBe('no expiry');
    await redis.del(t.key);
    await t.publish(t.result(Date.now()));
    expect(await dropRunRecord(redis, t.key, judged)).toBe(false);
    expect(await redis.hget(t.key, 'final')).toBe('1');
  });
});
