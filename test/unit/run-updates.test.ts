/**
 * A run's updates travel typed from the worker to the notify consumer and into the
 * per-run record the app keeps in Redis: what is read back is validated again, and
 * Re-run names the Deployment the worker reported, not a guess from the job id.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderRunUpdate } from '../../src/app/notify/render-run.js';
import { createSubscriptions } from '../../src/app/notify/subscriptions.js';
import type { PlanStore } from '../../src/plans/store.js';
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

const noPlans = { get: async () => undefined, claimOf: async () => undefined } as unknown as PlanStore;

const failed = (target?: { namespace: string; name: string }): RunUpdate => ({
  kind: 'diagnosis-result',
  // An alert job named after a pod: the id says nothing reliable about the Deployment.
  jobId: 'diagnose.shop.web-7f8b9c6d5-bx2zq',
  cluster: 'default',
  runTs: 1,
  seq: 2,
  ...(target ? { target } : {}),
  outcome: { status: 'failed', reason: 'deployment/web in shop: cluster unreachable' },
});

describe('run updates', () => {
  it('Re-run of a failed run names the Deployment the worker resolved', async () => {
    const rendered = await renderRunUpdate(noPlans, failed({ namespace: 'shop', name: 'web' }));
    const buttons = JSON.stringify(rendered.blocks);
    expect(buttons).toContain('rerun_diagnosis');
    expect(buttons).toContain('shop');
    expect(buttons).not.toContain('bx2zq');
    const without = await renderRunUpdate(noPlans, failed());
    expect(JSON.stringify(without.blocks)).not.toContain('rerun_diagnosis');
  });

  it('a message joining late gets the stored update; an update altered in Redis is not rendered', async () => {
    const subs = createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, testKeys.notify.keys),
      testKeys.approval,
    );
    const update = failed({ namespace: 'shop', name: 'web' });
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    await subs.publish('default', update.jobId, { runTs: 1, seq: 2, final: true, update, signed });
    const late = await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.1' }, 1);
    expect(late).toEqual({ state: 'final', update });

    const key = `rd:run:default:${update.jobId}`;
    await redis.hset(key, 'payload', JSON.stringify({ ...signed, kind: 'message' }));
    expect(await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.2' }, 1)).toEqual({
      state: 'none',
    });
    // A valid update with its signature kept, but another verdict: not rendered either.
    const rewritten = { ...signed, outcome: { status: 'failed', reason: 'all healthy, nothing to do' } };
    await redis.hset(key, 'payload', JSON.stringify(rewritten));
    expect(await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.3' }, 1)).toEqual({
      state: 'none',
    });
  });

  it('updates only messages the app itself subscribed: one added to the run in Redis gets nothing', async () => {
    const subs = createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, testKeys.notify.keys),
      testKeys.approval,
    );
    const update: RunUpdate = {
      ...failed({ namespace: 'shop', name: 'web' }),
      jobId: 'diagnose.shop.web',
      runTs: 5,
    };
    const asked = { channel: 'C1', ts: '5.1' };
    expect(await subs.subscribe('default', update.jobId, asked, 4)).toEqual({ state: 'none' });
    // A Redis writer adds another channel's message, bare or with a mark made for another job.
    const other = await redis.smembers('rd:subs:default:diagnose.shop.web');
    const foreignMark = other[0]?.split('/')[2] ?? '';
    await redis.sadd('rd:subs:default:diagnose.shop.web', 'CPRIVATE/9.9', `CPRIVATE/9.9/${foreignMark}`);
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    const refs = await subs.publish('default', update.jobId, {
      runTs: 5,
      seq: 1,
      final: true,
      update,
      signed,
    });
    expect(refs).toEqual([asked]);
    expect((await subs.latestResult('default', update.jobId))?.shownIn).toEqual([asked]);
  });
});
