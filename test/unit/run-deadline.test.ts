/**
 * The run deadline's check (src/chat/notify/run-deadline.ts) against the app's record of an
 * answered message in a real Redis: a message the app marked answered is left alone; an
 * unmarked one, or one whose mark a Redis writer made (or copied from another message),
 * is told it could not finish and audited as `unfinished`, every time it is checked.
 */
import type { webApi } from '@slack/bolt';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../src/audit.js';
import { answerIfUnfinished, type WatchedRun } from '../../src/chat/notify/run-deadline.js';
import { createSubscriptions } from '../../src/chat/notify/subscriptions.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import type { AppServices } from '../../src/app/services.js';
import { verifyNotify } from '../../src/queue/notify-signature.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
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

function setup() {
  const subscriptions = createSubscriptions(
    redis,
    (stored) => verifyNotify(stored, testKeys.notify.keys),
    testKeys.approval,
  );
  const audited: AuditEvent[] = [];
  const updates: { channel?: string; ts?: string; text?: string }[] = [];
  const client = {
    chat: { update: async (args: (typeof updates)[number]) => (updates.push(args), { ok: true }) },
  } as unknown as webApi.WebClient;
  const services = {
    config: { runDeadlineMs: 600_000 },
    subscriptions,
    audit: { record: (e: AuditEvent) => audited.push(e) },
    logger: { warn: () => undefined },
    chats: { slack: createSlackChatAdapter(client) },
  } as unknown as Pick<AppServices, 'config' | 'subscriptions' | 'audit' | 'logger' | 'chats'>;
  return { subscriptions, services, client, audited, updates };
}

const run = (ts: string): WatchedRun => ({
  message: { channel: 'C1', ts },
  cluster: 'default',
  jobId: 'diagnose.vision.tracker',
  addedAt: 0,
  requestedBy: 'U0ASKER',
  what: 'diagnose',
  namespace: 'vision',
  deployment: 'tracker',
});

describe('the run deadline', () => {
  it('leaves a message the app marked answered alone', async () => {
    const { subscriptions, services, audited, updates } = setup();
    await subscriptions.markAnswered({ channel: 'C1', ts: '1.1' });
    expect(await answerIfUnfinished(services, run('1.1'))).toBe('answered');
    expect(updates).toEqual([]);
    expect(audited).toEqual([]);
  });

  it('answers and audits an unanswered message, each time it is checked', async () => {
    const { services, audited, updates } = setup();
    for (const round of [1, 2]) {
      expect(await answerIfUnfinished(services, run('2.2'))).toBe('unfinished');
      expect(updates).toHaveLength(round);
      expect(audited).toHaveLength(round);
    }
    expect(updates[0]).toMatchObject({ channel: 'C1', ts: '2.2' });
    expect(updates[0]?.text).toContain('<@U0ASKER>, this run could not finish: no result came within 10 min');
    expect(audited[0]).toEqual({
      action: 'refusal',
      planId: 'diagnose',
      cluster: 'default',
      namespace: 'vision',
      deployment: 'tracker',
      user: 'U0ASKER',
      reason: 'unfinished',
      detail: 'job diagnose.vision.tracker: no result within 10 min',
    });
  });

  it('does not take a mark a Redis writer made, or one copied from another message', async () => {
    const { subscriptions, services, audited } = setup();
    await redis.set(redisKeys.messageAnswered({ channel: 'C1', ts: '3.3' }), 'forged');
    expect(await answerIfUnfinished(services, run('3.3'))).toBe('unfinished');
    await subscriptions.markAnswered({ channel: 'C1', ts: '4.4' });
    const genuine = await redis.get(redisKeys.messageAnswered({ channel: 'C1', ts: '4.4' }));
    await redis.set(redisKeys.messageAnswered({ channel: 'C1', ts: '5.5' }), genuine ?? '');
    expect(await answerIfUnfinished(services, run('5.5'))).toBe('unfinished');
    expect(audited).toHaveLength(2);
  });
});
