import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import { trusted } from '../../src/chat/slack/blocks/mrkdwn.js';
import { markPlanInBlocks } from '../../src/chat/slack/mark.js';
import { createRootStates, type RootRecord } from '../../src/chat/notify/root-store.js';
import { withRootState } from '../../src/chat/slack/root-state.js';
import { rootOnOutcome } from '../../src/chat/notify/root-update.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';

/** The Slack adapter on a fake Web API client. */
const slackChat = (client: object) => createSlackChatAdapter(client as never);

/** A real Redis for the tests that move a root's stage (a Lua script: src/chat/notify/root-stage.ts). */
let server: TestRedis;
let real: Redis;
beforeAll(async () => {
  server = await startRedis();
  real = new Redis(server.url);
});
afterAll(async () => {
  real?.disconnect();
  await server?.close();
});

/** Enough of ioredis for the root-state store: GET and SET, in memory. */
function memoryRedis(): Redis & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    get: async (key: string) => data.get(key) ?? null,
    set: async (key: string, value: string) => {
      data.set(key, value);
      return 'OK';
    },
  } as unknown as Redis & { data: Map<string, string> };
}

const key = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };

const record: RootRecord = {
  channel: 'C1',
  ts: '1700000000.000100',
  threadTs: '1700000000.000100',
  undo: false,
  what: 'set-rolling-update',
  approval: 'approved by <@U1> at 2026-11-23 03:12 UTC',
  verdict: ':red_circle: *RolloutSurgeDeadlock*: the new pod waits for the GPU the old pod holds',
  blocks: [
    {
      type: 'section',
      block_id: ROOT_BLOCK.verdict,
      text: { type: 'mrkdwn', text: ':red_circle: *RolloutSurgeDeadlock*: …' },
    },
    {
      type: 'section',
      block_id: ROOT_BLOCK.state,
      text: { type: 'mrkdwn', text: 'approved …; applying…' },
    },
    { type: 'actions', elements: [] },
  ],
};

const outcome = (stage: string, over: Partial<Record<string, unknown>> = {}) =>
  ({
    kind: 'remediation-outcome',
    planId: 'set-rolling-update-0123456789abcdef',
    cluster: 'prod',
    channel: 'C1',
    messageTs: '1700000000.000100',
    stage,
    detail: 'deployment/x: 3 of 3 updated',
    ...over,
  }) as unknown as Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const AT = Date.UTC(2026, 10, 23, 3, 20);

describe('root message state (issue 31.1)', () => {
  it('a resolved outcome strikes the verdict with a check mark and says when it ended', () => {
    const blocks = withRootState(record.blocks, record, 'rolled-out', AT);
    const [verdict, state] = blocks.map((b) => (b.text as { text: string } | undefined)?.text);
    // What resolved it stands before the struck verdict: "… holds~ resolved" read as part of it (issue 55).
    expect(verdict).toBe(
      ':white_check_mark: *Resolved* (rolled out): ~*RolloutSurgeDeadlock*: the new pod waits for the GPU the old pod holds~',
    );
    expect(state).toBe(
      ':white_check_mark: *set-rolling-update* approved by <@U1> at 2026-11-23 03:12 UTC; rolled out at 2026-11-23 03:20 UTC',
    );
  });

  it('a failure keeps the verdict as critical as it was and says the fix failed', () => {
    const blocks = withRootState(record.blocks, record, 'failed', AT);
    expect((blocks[0]?.text as { text: string }).text).toBe(record.verdict);
    expect((blocks[1]?.text as { text: string }).text).toContain(
      '; not applied: failed at 2026-11-23 03:20 UTC',
    );
  });

  it('edits the root its signed outcome names, and keeps the new state', async () => {
    const roots = createRootStates(real, key, () => undefined);
    await roots.record('set-rolling-update-0123456789abcdef', record);
    const update = vi.fn(async () => ({ ok: true }));
    const logger = { warn: vi.fn() };
    await rootOnOutcome(roots, slackChat({ chat: { update } }), outcome('rolled-out'), logger as never, AT);
    expect(update).toHaveBeenCalledTimes(1);
    expect(update.mock.calls[0]).toMatchObject([{ channel: 'C1', ts: record.ts }]);
    const kept = await roots.load('set-rolling-update-0123456789abcdef');
    expect(JSON.stringify(kept?.blocks)).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('an outcome about another message or thread does not edit the kept root', async () => {
    const redis = memoryRedis();
    const roots = createRootStates(redis, key, () => undefined);
    await roots.record('set-rolling-update-0123456789abcdef', record);
    const update = vi.fn(async () => ({ ok: true }));
    const logger = { warn: vi.fn() };
    await rootOnOutcome(
      roots,
      slackChat({ chat: { update } }),
      outcome('rolled-out', { channel: 'C2' }),
      logger as never,
      AT,
    );
    await rootOnOutcome(
      roots,
      slackChat({ chat: { update } }),
      outcome('rolled-out', { messageTs: '1700000001.000100' }),
      logger as never,
      AT,
    );
    expect(update).not.toHaveBeenCalled();
    expect(logger.warn).toHaveBeenCalledTimes(2);
  });

  it('a record rewritten in Redis (another channel, other words) is ignored, loudly', async () => {
    const redis = memoryRedis();
    const forged = vi.fn();
    const roots = createRootStates(redis, key, forged);
    await roots.record('p-0123456789abcdef', record);
    const stored = JSON.parse(redis.data.get('rd:root:p-0123456789abcdef') ?? '{}') as {
      record: RootRecord;
      mark: string;
    };
    stored.record.channel = 'C666';
    stored.record.approval = '<https://evil.example|click here>';
    redis.data.set('rd:root:p-0123456789abcdef', JSON.stringify(stored));
    expect(await roots.load('p-0123456789abcdef')).toBeNull();
    expect(forged).toHaveBeenCalledWith('p-0123456789abcdef');
    redis.data.set('rd:root:p-0123456789abcdef', 'not json');
    expect(await roots.load('p-0123456789abcdef')).toBeNull();
    expect(forged).toHaveBeenCalledTimes(2);
  });

  it('an Undo of the fix reads as undone, not as a second fix rolled out', async () => {
    const roots = createRootStates(real, key, () => undefined);
    await roots.record('undo-1', { ...record, undo: true, what: 'undo of set-rolling-update' });
    const update = vi.fn(async () => ({ ok: true }));
    await rootOnOutcome(
      roots,
      slackChat({ chat: { update } }),
      outcome('rolled-out', { planId: 'undo-1' }),
      { warn: vi.fn() } as never,
      AT,
    );
    const text = JSON.stringify(update.mock.calls[0]);
    expect(text).toContain('*undo of set-rolling-update* approved by <@U1>');
    expect(text).toContain('; undone at 2026-11-23 03:20 UTC');
  });

  it('marking a message twice moves the state line id to the newest line (Slack refuses repeated block_ids)', () => {
    const button = (planId: string) => ({
      type: 'button',
      action_id: 'approve_plan.0',
      value: `${planId}:digest`,
      text: { type: 'plain_text', text: 'Apply' },
    });
    const once = markPlanInBlocks(
      [{ type: 'actions', elements: [button('a-0123456789abcdef'), button('b-0123456789abcdef')] }],
      'a-0123456789abcdef',
      'Expired',
      trusted('a expired'),
    );
    const twice = markPlanInBlocks(once, 'b-0123456789abcdef', 'Approved', trusted('b approved'));
    const ids = twice.map((b) => b.block_id).filter(Boolean);
    expect(ids).toEqual([ROOT_BLOCK.state]);
    expect(twice.find((b) => b.block_id === ROOT_BLOCK.state)?.text).toMatchObject({ text: 'b approved' });
  });
});
