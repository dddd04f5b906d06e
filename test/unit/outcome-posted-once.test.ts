/**
 * A remediation's reply is posted once per notification, however often BullMQ delivers
 * it (src/chat/notify/posted-once.ts; the failover drill's "applied" twice in a thread,
 * the plan applied once). On a real redis-server:
 * - the same notification delivered again (a job taken again after its lock lapsed, or
 *   its completion lost with the master) posts nothing the second time;
 * - two notifications, two posts;
 * - a delivery while another is posting the same one fails (BullMQ tries it again), and
 *   once the first has posted, the retry posts nothing;
 * - a post that failed lets its mark go: the retry posts.
 */
import { Queue, Worker, type Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChatAdapter } from '../../src/chat/adapter.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { deliverOutcome } from '../../src/chat/notify/outcome-delivery.js';
import { createPostedOnce, PostingElsewhereError } from '../../src/chat/notify/posted-once.js';
import { plainText } from '../../src/message/rich.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { deferred } from '../support/root-replicas.js';

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

let redis: TestRedis;
let connection: Redis;

beforeAll(async () => {
  redis = await startRedis();
  connection = new Redis(redis.url);
});

afterAll(async () => {
  connection?.disconnect();
  await redis?.close();
});

const outcome = (stage: Outcome['stage'] = 'applied'): Outcome =>
  ({
    kind: 'remediation-outcome',
    planId: 'set-rolling-update-0123456789abcdef',
    cluster: 'prod',
    channel: 'C1',
    messageTs: '1700000000.000100',
    attempt: 1,
    stage,
    detail: 'deployment/x',
  }) as Outcome;

/** A Slack-platform adapter whose posts are counted; `post` may be replaced per test. */
function chat(post?: (text: string) => Promise<void>) {
  const posted: string[] = [];
  const adapter = {
    platform: 'slack',
    post: vi.fn(async (to: { id: string; thread?: string }, message: ChatMessage) => {
      const text = plainText(message.summary);
      await post?.(text);
      posted.push(text);
      return { conversation: { platform: 'slack', id: to.id, thread: to.thread }, id: `r${posted.length}` };
    }),
  } as unknown as ChatAdapter;
  return { adapter, posted };
}

const logger = { warn: vi.fn(), info: vi.fn(), error: vi.fn() };

function services(adapter: ChatAdapter) {
  return { chats: { slack: adapter }, logger, postedOnce: createPostedOnce(connection) } as never;
}

describe('a remediation reply, posted once per notification', () => {
  it('the same notification delivered twice is posted once; another is posted', async () => {
    const { adapter, posted } = chat();
    await deliverOutcome(services(adapter), outcome(), undefined, Date.now(), 'outcome-p1-n1-applied');
    // Taken again (its lock lapsed, or a failover lost its completion): the same id.
    await deliverOutcome(services(adapter), outcome(), undefined, Date.now(), 'outcome-p1-n1-applied');
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatch(/^applied/);
    expect(await connection.get(redisKeys.notifyPosted('outcome-p1-n1-applied'))).toBe('posted');
    await deliverOutcome(
      services(adapter),
      outcome('rolled-out'),
      undefined,
      Date.now(),
      'outcome-p1-n1-rolled-out',
    );
    expect(posted).toHaveLength(2);
  });

  it('a delivery while another posts the same one fails, and its retry posts nothing', async () => {
    const held = deferred();
    const underWay = deferred();
    const slow = chat(async () => {
      underWay.resolve();
      await held.promise;
    });
    const first = deliverOutcome(services(slow.adapter), outcome(), undefined, Date.now(), 'n-concurrent');
    await underWay.promise;
    const other = chat();
    await expect(
      deliverOutcome(services(other.adapter), outcome(), undefined, Date.now(), 'n-concurrent'),
    ).rejects.toBeInstanceOf(PostingElsewhereError);
    held.resolve();
    await first;
    await deliverOutcome(services(other.adapter), outcome(), undefined, Date.now(), 'n-concurrent');
    expect(slow.posted).toHaveLength(1);
    expect(other.posted).toHaveLength(0);
  });

  it('a post that failed lets its mark go: the retry posts', async () => {
    let fail = true;
    const { adapter, posted } = chat(async () => {
      if (fail) throw new Error('slack: service_unavailable');
    });
    await expect(
      deliverOutcome(services(adapter), outcome(), undefined, Date.now(), 'n-failed'),
    ).rejects.toThrow('service_unavailable');
    expect(await connection.exists(redisKeys.notifyPosted('n-failed'))).toBe(0);
    fail = false;
    await deliverOutcome(services(adapter), outcome(), undefined, Date.now(), 'n-failed');
    expect(posted).toHaveLength(1);
  });

  it('its marks are confirmed on the replicas, and set again when a failover lost them', async () => {
    const confirms: { label: string; redo: () => Promise<void> }[] = [];
    const guard = {
      socket: () => 1,
      confirm: async (writes: { label: string; redo: () => Promise<void> }) => {
        confirms.push(writes);
        return { wanted: 1, reached: 0 };
      },
    };
    const postedOnce = createPostedOnce(connection, { replication: () => guard as never });
    const { adapter, posted } = chat();
    const withGuard = { chats: { slack: adapter }, logger, postedOnce } as never;
    await deliverOutcome(withGuard, outcome(), undefined, Date.now(), 'n-lost');
    expect(confirms.map((c) => c.label)).toEqual(['posting mark', 'posted mark']);
    // The master died before its replica had the mark: the new master has none.
    await connection.del(redisKeys.notifyPosted('n-lost'));
    for (const c of confirms) await c.redo();
    expect(await connection.get(redisKeys.notifyPosted('n-lost'))).toBe('posted');
    // The worker's rewrite of the lost notification is delivered: nothing posted again.
    await deliverOutcome(withGuard, outcome(), undefined, Date.now(), 'n-lost');
    expect(posted).toHaveLength(1);
  });

  it('without an id (a caller from before), every delivery posts', async () => {
    const { adapter, posted } = chat();
    await deliverOutcome(services(adapter), outcome(), undefined);
    await deliverOutcome(services(adapter), outcome(), undefined);
    expect(posted).toHaveLength(2);
  });
});

describe('a notify job BullMQ takes again after its lock lapsed', () => {
  it('is named by its deduplication id and posted once', async () => {
    const name = `posted-once-${Date.now()}`;
    const queue = new Queue(name, { connection });
    const { adapter, posted } = chat();
    const taken: string[] = [];
    const deliver = async (job: Job) => {
      taken.push(String(job.id));
      await deliverOutcome(
        services(adapter),
        outcome(),
        undefined,
        Date.now(),
        job.deduplicationId ?? job.id,
      );
    };
    // The first delivery posts, then its worker goes (its lock is no longer renewed).
    const delivered = deferred();
    const first = new Worker(
      name,
      async (job) => {
        await deliver(job);
        delivered.resolve();
        await new Promise(() => undefined);
      },
      {
        connection: new Redis(redis.url, { maxRetriesPerRequest: null }),
        lockDuration: 500,
        // The stalled check's own key lasts this long: the default (30 s) holds the second off.
        stalledInterval: 200,
      },
    );
    await queue.add('outcome', {}, { deduplication: { id: 'outcome-lapsed-applied', ttl: 60_000 } });
    await delivered.promise;
    await first.close(true);
    const done = deferred();
    const second = new Worker(name, deliver, {
      connection: new Redis(redis.url, { maxRetriesPerRequest: null }),
      lockDuration: 500,
      stalledInterval: 200,
    });
    second.on('completed', () => done.resolve());
    try {
      await done.promise;
      expect(taken).toHaveLength(2);
      expect(taken[0]).toBe(taken[1]);
      expect(posted).toHaveLength(1);
    } finally {
      await second.close();
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });
});
