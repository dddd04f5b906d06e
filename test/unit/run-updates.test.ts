/**
 * A run's updates travel typed from the worker to the notify consumer and into the
 * per-run record the app keeps in Redis: what is read back is validated again, and
 * Re-run names the Deployment the worker reported, not a guess from the job id.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { webApi } from '@slack/bolt';
import { announceRun } from '../../src/chat/notify/announce.js';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import { plain } from '../../src/message/rich.js';
import { renderRunUpdate } from '../support/slack-run.js';
import { deliverRun } from '../../src/chat/notify/run-delivery.js';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import type { AppServices } from '../../src/app/services.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { PlanStore } from '../../src/queue/plan-store.js';
import { signNotify, verifyNotify } from '../../src/queue/notify-signature.js';
import type { RunUpdate } from '../../src/queue/schemas.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const IN_C1 = { platform: 'slack', id: 'C1' };

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
    const rendered = await renderRunUpdate(noPlans, failed({ namespace: 'shop', name: 'web' }), {
      requester: 'U0ASKER',
    });
    const buttons = JSON.stringify(rendered.blocks);
    expect(buttons).toContain('rerun_diagnosis');
    expect(buttons).toContain('shop');
    expect(buttons).not.toContain('bx2zq');
    const without = await renderRunUpdate(noPlans, failed(), { requester: 'U0ASKER' });
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
    const late = await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.1' }, 1, null);
    expect(late).toEqual({ state: 'final', update });

    const key = `rd:run:default:${update.jobId}`;
    await redis.hset(key, 'payload', JSON.stringify({ ...signed, kind: 'message' }));
    expect(await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.2' }, 1, null)).toEqual({
      state: 'none',
    });
    // A valid update with its signature kept, but another verdict: not rendered either.
    const rewritten = { ...signed, outcome: { status: 'failed', reason: 'all healthy, nothing to do' } };
    await redis.hset(key, 'payload', JSON.stringify(rewritten));
    expect(await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '1.3' }, 1, null)).toEqual({
      state: 'none',
    });
  });

  it('a request that joined a run gets its result even when it was published just before the request', async () => {
    const subs = createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, testKeys.notify.keys),
      testKeys.approval,
    );
    // The run added at 500 published its result at 1,000; its job was still active (the
    // worker waits for the delivery before completing it) when a request came at 1,200.
    const update: RunUpdate = {
      ...failed({ namespace: 'shop', name: 'search' }),
      jobId: 'diagnose.shop.search',
      runTs: 500,
    };
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    await subs.publish('default', update.jobId, { runTs: 500, seq: 2, final: true, update, signed }, 1_000);
    const joined = await subs.subscribe(
      'default',
      update.jobId,
      { channel: 'C1', ts: '5.1' },
      1_200,
      null,
      500,
    );
    expect(joined).toEqual({ state: 'final', update });
    // A request that joined another run (or none) waits for that run's own result.
    expect(
      await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '5.2' }, 1_200, null, 900),
    ).toEqual({
      state: 'none',
    });
    expect(await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '5.3' }, 1_200, null)).toEqual({
      state: 'none',
    });
    // After a failover the command is queued again only when its answer did not come.
    expect(await subs.finishedSince('default', update.jobId, 1_200, 500)).toBe(true);
    expect(await subs.finishedSince('default', update.jobId, 1_200, 900)).toBe(false);
    expect(await subs.finishedSince('default', update.jobId, 1_200)).toBe(false);
  });

  it('says a run answered a request only for a signed result published at or after it was queued', async () => {
    const subs = createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, testKeys.notify.keys),
      testKeys.approval,
    );
    const update: RunUpdate = { ...failed({ namespace: 'shop', name: 'cart' }), jobId: 'diagnose.shop.cart' };
    expect(await subs.finishedSince('default', update.jobId, 0)).toBe(false);
    const progress: RunUpdate = {
      kind: 'diagnosis-progress',
      jobId: update.jobId,
      cluster: 'default',
      runTs: 1,
      seq: 1,
      text: 'reading',
    };
    const signedProgress = signNotify(progress, 'worker', testKeys.notify.signing);
    await subs.publish(
      'default',
      update.jobId,
      { runTs: 1, seq: 1, final: false, update: progress, signed: signedProgress },
      1_000,
    );
    expect(await subs.finishedSince('default', update.jobId, 0)).toBe(false); // running, not answered
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    await subs.publish('default', update.jobId, { runTs: 1, seq: 2, final: true, update, signed }, 2_000);
    expect(await subs.finishedSince('default', update.jobId, 1_500)).toBe(true);
    expect(await subs.finishedSince('default', update.jobId, 2_000)).toBe(true);
    expect(await subs.finishedSince('default', update.jobId, 2_001)).toBe(false); // queued after it
    expect(await subs.finishedSince('other', update.jobId, 0)).toBe(false);
    // A result rewritten in Redis does not count: its command would go unanswered.
    await redis.hset(`rd:run:default:${update.jobId}`, 'payload', JSON.stringify({ ...signed, runTs: 9 }));
    expect(await subs.finishedSince('default', update.jobId, 1_500)).toBe(false);
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
    const owner = { requestedBy: 'U0ASKER', cluster: 'default', namespace: 'shop' };
    expect(await subs.subscribe('default', update.jobId, asked, 4, owner)).toEqual({ state: 'none' });
    // A Redis writer adds another channel's message, bare or with a mark made for another
    // job, and copies of the genuine member that drop or change its requester or thread.
    const set = 'rd:subs:default:diagnose.shop.web';
    const [genuine = ''] = await redis.smembers(set);
    const [, , thread, requester, mark = ''] = genuine.split('/');
    expect([thread, requester]).toEqual(['-', 'U0ASKER']);
    await redis.sadd(
      set,
      'CPRIVATE/9.9',
      `CPRIVATE/9.9/-/U0ASKER/${mark}`,
      `C1/5.1/${mark}`,
      `C1/5.1/-/-/${mark}`,
      `C1/5.1/-/U0OTHER/${mark}`,
      `C1/5.1/4.0/U0ASKER/${mark}`,
    );
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    const refs = await subs.publish('default', update.jobId, {
      runTs: 5,
      seq: 1,
      final: true,
      update,
      signed,
    });
    expect(refs).toEqual([{ ...asked, requester: 'U0ASKER' }]);
    expect((await subs.latestResult('default', update.jobId))?.shownIn).toEqual([
      { ...asked, requester: 'U0ASKER' },
    ]);
  });

  it('a message nobody asked for is marked so, and a Re-run reply keeps its thread root', async () => {
    const subs = createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, testKeys.notify.keys),
      testKeys.approval,
    );
    const update: RunUpdate = {
      ...failed({ namespace: 'shop', name: 'api' }),
      jobId: 'diagnose.shop.api',
      runTs: 7,
    };
    await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '7.1' }, 6, null);
    await subs.subscribe('default', update.jobId, { channel: 'C1', ts: '7.2' }, 6, {
      requestedBy: 'U0RERUN',
      cluster: 'default',
      namespace: 'shop',
      threadTs: '7.0',
    });
    const signed = signNotify(update, 'worker', testKeys.notify.signing);
    const refs = await subs.publish('default', update.jobId, {
      runTs: 7,
      seq: 1,
      final: true,
      update,
      signed,
    });
    expect(refs?.sort((a, b) => a.ts.localeCompare(b.ts))).toEqual([
      { channel: 'C1', ts: '7.1', requester: '-' },
      { channel: 'C1', ts: '7.2', requester: 'U0RERUN', threadTs: '7.0' },
    ]);
  });

  describe('Apply buttons name who asked, from the signed subscription', () => {
    const plan: RemediationPlan = {
      id: 'set-recreate-web',
      kind: 'set-recreate',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      summary: 'Switch to Recreate',
      impact: 'outage: all replicas',
      warnings: [],
      patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } },
      preconditions: { uid: 'uid-web', generation: 2, fields: [] },
      inverse: null,
      addresses: 'RolloutSurgeDeadlock',
    };
    const diagnosis: Diagnosis = {
      target: plan.target,
      capturedAt: '2026-11-20T10:00:00Z',
      observed: { uid: 'uid-web', generation: 2, resourceVersion: '100' },
      findings: [
        {
          code: 'RolloutSurgeDeadlock',
          severity: 'critical',
          summary: 'the new pod needs the GPU the old pod holds',
          evidence: [],
          remediations: [plan.id],
        },
      ],
      remediations: [plan],
      analyzerErrors: [],
    };
    const result = (jobId: string, runTs: number): RunUpdate => ({
      kind: 'diagnosis-result',
      jobId,
      cluster: 'default',
      runTs,
      seq: 1,
      target: { namespace: 'shop', name: 'web' },
      outcome: { status: 'diagnosed', diagnosis, dryRuns: {} },
    });
    const openPlans = {
      get: async () => ({ plan, cluster: 'default', createdAt: 0, expiresAt: Date.now() + 3_600_000 }),
      claimOf: async () => undefined,
    } as unknown as PlanStore;
    /** A WebClient that posts at ts 8.<n> and records each update's Apply button value by ts. */
    const recordingClient = (): { client: webApi.WebClient; values: Map<string, string> } => {
      const values = new Map<string, string>();
      let n = 0;
      const client = {
        chat: {
          postMessage: async () => ({ ok: true, ts: `8.${(n += 1)}` }),
          update: async (args: {
            ts: string;
            blocks: { type: string; elements?: { value?: string }[] }[];
          }) => {
            const actions = args.blocks.find((b) => b.type === 'actions');
            values.set(args.ts, actions?.elements?.[0]?.value ?? '');
            return { ok: true };
          },
        },
      } as unknown as webApi.WebClient;
      return { client, values };
    };

    it('a message joining a finished run is rendered with its own requester', async () => {
      const subs = createSubscriptions(
        redis,
        (stored) => verifyNotify(stored, testKeys.notify.keys),
        testKeys.approval,
      );
      const update = result('diagnose.shop.web', 8);
      const signed = signNotify(update, 'worker', testKeys.notify.signing);
      await subs.publish('default', update.jobId, { runTs: 8, seq: 1, final: true, update, signed });
      const { client, values } = recordingClient();
      const services = {
        config: { runDeadlineMs: 600_000 },
        logger: { warn: () => undefined, info: () => undefined },
        subscriptions: subs,
        plans: openPlans,
        chats: { slack: createSlackChatAdapter(client) },
      } as unknown as AppServices;
      const posted = await announceRun(services, createSlackChatAdapter(client), IN_C1, {
        cluster: 'default',
        jobId: update.jobId,
        addedAt: 7,
        what: 'diagnose',
        deployment: 'web',
        announcement: { summary: plain('asked'), parts: [] },
        owner: { requestedBy: 'U0ASKER', cluster: 'default', namespace: 'shop' },
        cannotPost: { summary: plain('cannot post'), parts: [] },
      });
      expect(parsePlanButtonValue(values.get(posted?.id ?? '') ?? '')).toMatchObject({
        planId: plan.id,
        requester: 'U0ASKER',
      });
    });

    it('a progress line whose chat call lands after the result leaves the result shown', async () => {
      // Two notify consumers: one took a progress line, the other the result just after
      // it. Publish accepted both in order; the result's update reached Slack first.
      const subs = createSubscriptions(
        redis,
        (stored) => verifyNotify(stored, testKeys.notify.keys),
        testKeys.approval,
      );
      const jobId = 'diagnose.shop.web-late-progress';
      const owner = { requestedBy: 'U0ASKER', cluster: 'default', namespace: 'shop' };
      for (const ts of ['10.1', '10.2'])
        await subs.subscribe('default', jobId, { channel: 'C1', ts }, 9, owner);
      const progress: RunUpdate = {
        kind: 'diagnosis-progress',
        jobId,
        cluster: 'default',
        runTs: 10,
        seq: 1,
        text: 'server-side dry run of set-recreate…',
      };
      const final = { ...result(jobId, 10), seq: 2 };
      const publish = (update: RunUpdate, isFinal: boolean) =>
        subs.publish('default', jobId, {
          runTs: 10,
          seq: update.seq,
          final: isFinal,
          update,
          signed: signNotify(update, 'worker', testKeys.notify.signing),
        });
      const progressRefs = await publish(progress, false);
      const finalRefs = await publish(final, true);
      const { client, values } = recordingClient();
      const services = {
        subscriptions: subs,
        plans: openPlans,
        chats: { slack: createSlackChatAdapter(client) },
      } as unknown as AppServices;
      await deliverRun(services, finalRefs ?? [], final, true);
      expect(values.get('10.1')).not.toBe('');
      await deliverRun(services, progressRefs ?? [], progress, false);
      // Each message ends on the result, its Apply button there.
      for (const ts of ['10.1', '10.2'])
        expect(parsePlanButtonValue(values.get(ts) ?? '')).toMatchObject({
          planId: plan.id,
          requester: 'U0ASKER',
        });
    });

    it('each subscriber of one run gets its own requester, or "-" where nobody asked', async () => {
      const { client, values } = recordingClient();
      const services = {
        subscriptions: { approvedPlanOf: async () => null, latestResult: async () => null },
        plans: openPlans,
        chats: { slack: createSlackChatAdapter(client) },
      };
      await deliverRun(
        services as unknown as Pick<AppServices, 'plans' | 'subscriptions' | 'chats'>,
        [
          { channel: 'C1', ts: '9.1', requester: 'U0ASKER' },
          { channel: 'C1', ts: '9.2', requester: '-' },
          { channel: 'C1', ts: '9.3', requester: 'U0OTHER', threadTs: '9.0' },
        ],
        result('diagnose.shop.web', 9),
        false,
      );
      expect([...values].map(([ts, v]) => [ts, parsePlanButtonValue(v).requester])).toEqual([
        ['9.1', 'U0ASKER'],
        ['9.2', '-'],
        ['9.3', 'U0OTHER'],
      ]);
    });

    it('is shown it again without a second thread report; one that had not is given its report', async () => {
      const posts: string[] = [];
      const threads: string[] = [];
      const updates: string[] = [];
      const client = {
        chat: {
          postMessage: async (args: { text: string; thread_ts?: string }) => (
            posts.push(args.text),
            threads.push(args.thread_ts ?? ''),
            { ok: true, ts: '11.9' }
          ),
          update: async (args: { ts: string }) => (updates.push(args.ts), { ok: true }),
        },
      } as unknown as webApi.WebClient;
      const answeredRefs = new Set(['11.1']);
      const services = {
        plans: openPlans,
        subscriptions: {
          approvedPlanOf: async () => null,
          answered: async (ref: { ts: string }) => answeredRefs.has(ref.ts),
          markAnswered: async (ref: { ts: string }) => void answeredRefs.add(ref.ts),
        },
        chats: { slack: createSlackChatAdapter(client) },
      } as unknown as Pick<AppServices, 'plans' | 'subscriptions' | 'chats'>;
      const update = result('diagnose.shop.web-caught-up', 11);
      // A failover's rewrite of the subscription of 11.1, which already showed the result.
      await deliverRun(services, [{ channel: 'C1', ts: '11.1', requester: 'U0ASKER' }], update, true, {
        catchUp: true,
      });
      // A message just announced, catching up with a run that had finished.
      await deliverRun(services, [{ channel: 'C1', ts: '11.2', requester: 'U0ASKER' }], update, true, {
        catchUp: true,
      });
      expect(updates).toEqual(['11.1', '11.2']);
      // The report went to 11.2 alone (each reply is in 11.2's thread).
      expect(posts.length).toBeGreaterThan(0);
      expect(threads.every((t) => t === '11.2')).toBe(true);
    });
  });
});
