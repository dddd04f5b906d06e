/**
 * Issue 54.8: a failover redo honours the newest claim on the message. Approval A's
 * message plan, claim and job were lost with the master; on the new master B (another
 * fix of the same message, pressed on a stale view) was approved. The redo of A (the
 * writer's own, and the journal's replayer, which share redoApproval) stands down: one
 * fix per message, audited. Real redis-server, the real message-plan script.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import { APP_REPLAY, appReplayers, redoApproval } from '../../src/chat/use-cases/replays.js';
import { QUEUE_PREFIX, remediateQueueName } from '../../src/queue/names.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import type { RemediateJob } from '../../src/queue/schemas.js';
import { approvalClaims, signApproval } from '../../src/trust/approval-signature.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const CLUSTER = 'c1';
const MESSAGE = { channel: 'C01ABCDEF', ts: '1700000000.000200' };

let server: TestRedis;
let redis: Redis;
let producers: Producers;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  producers = createProducers({ connection: redis, clusters: [CLUSTER], timeoutMs: 5_000 });
});
afterAll(async () => {
  await producers?.close();
  redis?.disconnect();
  await server?.close();
});

function approval(planId: string) {
  const stored = {
    plan: { id: planId, kind: 'set-recreate', target: { namespace: 'shop', name: 'web' } },
    cluster: CLUSTER,
    createdAt: 1,
    expiresAt: Date.now() + 3_600_000,
  } as unknown as StoredPlan;
  const job = {
    planId,
    cluster: CLUSTER,
    approvedBy: ['U0123ABCD'],
    channel: MESSAGE.channel,
    messageTs: MESSAGE.ts,
    approval: signApproval(
      approvalClaims({
        planId,
        digest: 'd'.repeat(64),
        cluster: CLUSTER,
        planExpiresAt: stored.expiresAt,
        approvers: ['U0123ABCD'],
        channel: MESSAGE.channel,
        messageTs: MESSAGE.ts,
        now: Date.now(),
        keyId: testKeys.approval.keyId,
      }),
      testKeys.approval.privateKey,
    ),
  } satisfies RemediateJob;
  return { stored, marks: ['U0123ABCD~sig'], at: Date.now(), message: MESSAGE, job };
}

async function remediateJobs(): Promise<string[]> {
  const q = new Queue(remediateQueueName(CLUSTER), { connection: redis, prefix: QUEUE_PREFIX });
  try {
    return (await q.getJobs(['waiting', 'prioritized'])).map((j) => String(j.data.planId));
  } finally {
    await q.close();
  }
}

describe('a failover redo and the newest claim on the message', () => {
  it('stands down when another fix of the message was approved since; redoes when none was', async () => {
    await redis.flushall();
    const subscriptions = createSubscriptions(redis, () => ({ ok: false }) as never, testKeys.approval);
    const plans = createPlanStore(redis);
    const audit = { record: vi.fn() };
    const services = { plans, subscriptions, producers, audit };
    const a = approval('plan-a');
    const b = approval('plan-b');
    // The new master has lost A; B was approved there on a stale view.
    expect(await subscriptions.claimMessagePlan(MESSAGE, 'plan-b')).toBe('plan-b');
    await producers.enqueueRemediate(b.job);
    expect(await redoApproval(services, a)).toBe('superseded');
    expect(await remediateJobs()).toEqual(['plan-b']);
    expect(await plans.claimOf('plan-a')).toBeUndefined();
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ planId: 'plan-a', outcome: 'not-queued' }),
    );
    // The journal's replayer does the same.
    await appReplayers(() => services)[APP_REPLAY.approval]?.(JSON.parse(JSON.stringify(a)));
    expect(await remediateJobs()).toEqual(['plan-b']);
    // Nothing else approved on the message: A is written again, once.
    await redis.flushall();
    expect(await redoApproval(services, a)).toBe('redone');
    expect(await redoApproval(services, a)).toBe('redone');
    expect(await remediateJobs()).toEqual(['plan-a']);
    expect(await subscriptions.approvedPlanOf(MESSAGE)).toBe('plan-a');
    expect((await plans.claimOf('plan-a'))?.approvers).toEqual(['U0123ABCD']);
  });
});
