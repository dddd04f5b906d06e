/**
 * The approved message's state line moves forward only, whichever app replica delivers
 * which outcome (src/chat/notify/root-stage.ts): two replicas (two Redis connections,
 * two RootStates) deliver one plan's "applied" and "rolled out" at once, the
 * "applied" edit landing last, and the message still ends on "rolled out", on Slack
 * (rootOnOutcome, Block Kit) and on Teams (outcomeToChat, through the chat port).
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import type { ChatAdapter } from '../../src/chat/adapter.js';
import type { ChatMessage, MessageRef } from '../../src/chat/model.js';
import { plainText, say } from '../../src/message/rich.js';
import { deliverOutcome } from '../../src/chat/notify/outcome-delivery.js';
import type { RootRecord, RootStates } from '../../src/chat/notify/root-store.js';
import { showRootStage, rootOnOutcome } from '../../src/chat/notify/root-update.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { deferred, rootReplicas } from '../support/root-replicas.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';

/** The Slack adapter on a fake Web API client. */
const slackChat = (client: object) => createSlackChatAdapter(client as never);

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const PLAN = 'set-rolling-update-0123456789abcdef';
const UNDO = 'undo-set-rolling-update-0123456789abcdef';
const APPLIED_AT = Date.UTC(2026, 10, 23, 3, 14);
const ROLLED_AT = Date.UTC(2026, 10, 23, 3, 20);
const UNDO_AT = Date.UTC(2026, 10, 23, 3, 30);
const logger = { warn: vi.fn() } as never;

const forgedStages: string[] = [];
const forgedHeld: string[] = [];
const stack = rootReplicas(
  (m) => forgedStages.push(m.ts),
  (planId) => forgedHeld.push(planId),
);
/** One app replica's root states: its own Redis connection, the same Redis and key. */
let replicas: [RootStates, RootStates];

beforeAll(() => stack.start());
afterAll(() => stack.stop());
beforeEach(async () => {
  replicas = await stack.fresh();
});

/** A chat message edited by either replica: the last edit to land is what people read. */
function editedMessage() {
  const landed: string[] = [];
  /** An edit that waits for `hold` before it lands; `entered` once it is under way. */
  const edit = (hold?: Promise<void>, entered?: () => void) =>
    vi.fn(async (text: string) => {
      entered?.();
      await hold;
      landed.push(text);
    });
  return { landed, edit, last: () => landed.at(-1) ?? '' };
}

describe('Slack: the root message ends on the latest stage across two replicas', () => {
  const slackRecord: RootRecord = {
    channel: 'C1',
    ts: '1700000000.000100',
    threadTs: '1700000000.000100',
    undo: false,
    what: 'set-rolling-update',
    approval: 'approved by <@U1> at 2026-11-23 03:12 UTC',
    verdict: ':red_circle: *RolloutSurgeDeadlock*: the new pod waits for the GPU',
    blocks: [
      { type: 'section', block_id: ROOT_BLOCK.verdict, text: { type: 'mrkdwn', text: 'verdict' } },
      { type: 'section', block_id: ROOT_BLOCK.state, text: { type: 'mrkdwn', text: 'applying…' } },
    ],
  };
  const outcome = (stage: Outcome['stage'], planId = PLAN) =>
    ({
      kind: 'remediation-outcome',
      planId,
      cluster: 'prod',
      channel: 'C1',
      messageTs: slackRecord.ts,
      stage,
      detail: 'deployment/x',
    }) as Outcome;
  /** A Slack client whose chat.update hands the state line to `edit`. */
  const client = (edit: (text: string) => Promise<void>) => ({
    chat: {
      update: async (args: { blocks: { block_id?: string; text?: { text: string } }[] }) => {
        await edit(args.blocks.find((b) => b.block_id === ROOT_BLOCK.state)?.text?.text ?? '');
        return { ok: true };
      },
    },
  });

  it('an "applied" edit that lands after "rolled out" is followed by "rolled out" again', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, slackRecord);
    const message = editedMessage();
    const held = deferred();
    const underWay = deferred();
    const slow = message.edit(held.promise, underWay.resolve);
    const delivering = rootOnOutcome(a, slackChat(client(slow)), outcome('applied'), logger, APPLIED_AT);
    await underWay.promise; // replica A recorded "applied" and is editing
    await rootOnOutcome(b, slackChat(client(message.edit())), outcome('rolled-out'), logger, ROLLED_AT);
    expect(message.last()).toContain('rolled out at 2026-11-23 03:20 UTC');
    held.resolve();
    await delivering;
    // A's "applied" landed last, then A read the later stage and showed it.
    expect(message.landed.map((l) => /; ([a-z ;]+) at/.exec(l)?.[1])).toEqual([
      'rolled out',
      'applied; rollout under way',
      'rolled out',
    ]);
    expect(message.last()).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('an "applied" delivered after "rolled out" edits nothing', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, slackRecord);
    const message = editedMessage();
    await rootOnOutcome(b, slackChat(client(message.edit())), outcome('rolled-out'), logger, ROLLED_AT);
    await rootOnOutcome(a, slackChat(client(message.edit())), outcome('applied'), logger, APPLIED_AT);
    expect(message.landed).toHaveLength(1);
    expect(message.last()).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('an Undo after "rolled out" is later; the fix\'s late outcomes do not cover it', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, slackRecord);
    const message = editedMessage();
    await rootOnOutcome(a, slackChat(client(message.edit())), outcome('rolled-out'), logger, ROLLED_AT);
    const undoRecord = { ...slackRecord, undo: true, what: 'undo of set-rolling-update' };
    await b.record(UNDO, undoRecord);
    await showRootStage(b, slackChat(client(message.edit())), UNDO, undoRecord, 'undoing', UNDO_AT, {
      approval: true,
    });
    expect(message.last()).toContain('*undo of set-rolling-update*');
    expect(message.last()).toContain('undo approved; undoing…');
    await rootOnOutcome(a, slackChat(client(message.edit())), outcome('applied'), logger, APPLIED_AT);
    await rootOnOutcome(b, slackChat(client(message.edit())), outcome('rolled-out'), logger, ROLLED_AT);
    expect(message.last()).toContain('undoing…');
    await rootOnOutcome(a, slackChat(client(message.edit())), outcome('rolled-out', UNDO), logger, UNDO_AT);
    expect(message.last()).toContain('; undone at 2026-11-23 03:30 UTC');
  });

  it('a stage held under its plan and rewritten in Redis is not taken over, and is reported', async () => {
    const [a, b] = replicas;
    await a.stages.hold({ planId: PLAN, stage: 'applied', at: APPLIED_AT });
    expect(await b.stages.held(PLAN)).toEqual({ planId: PLAN, stage: 'applied', at: APPLIED_AT });
    await stack.admin().hset(redisKeys.planStage(PLAN), 'stage', 'rolled-out', 'rank', '3');
    expect(await b.stages.held(PLAN)).toBeNull();
    expect(forgedHeld).toContain(PLAN);
  });

  it('a stage record rewritten in Redis is not shown, and is reported', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, slackRecord);
    const message = editedMessage();
    await rootOnOutcome(a, slackChat(client(message.edit())), outcome('applied'), logger, APPLIED_AT);
    await stack.admin().hset(redisKeys.rootStage(slackRecord), 'stage', 'rolled-out', 'rank', '3');
    expect(await b.stages.latest(slackRecord)).toBeNull();
    expect(forgedStages).toContain(slackRecord.ts);
  });
});

describe('Teams: the card ends on the latest stage across two replicas', () => {
  const CONVERSATION = '19:gpu@thread.tacv2';
  const CARD = '1732536000002';
  const approver = '8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b';
  const teamsRecord: RootRecord = {
    platform: 'teams',
    channel: CONVERSATION,
    ts: CARD,
    threadTs: CARD,
    undo: false,
    what: 'set-recreate',
    approval: JSON.stringify({ approvers: [approver], at: Date.UTC(2026, 10, 23, 3, 12) }),
    verdict: '',
    blocks: [],
  };
  const outcome = (stage: Outcome['stage']) =>
    ({
      kind: 'remediation-outcome',
      planId: PLAN,
      cluster: 'prod',
      platform: 'teams',
      channel: CONVERSATION,
      messageTs: CARD,
      stage,
      detail: 'deployment/trainer',
    }) as Outcome;
  const stateOf = (m: ChatMessage): string => {
    const part = m.parts.find((p) => p.kind === 'paragraph' && p.role === 'state');
    return part?.kind === 'paragraph' ? plainText(part.text) : '';
  };

  /** One replica's Teams adapter on a card both replicas read and edit. */
  function adapters(edit: (m: ChatMessage) => Promise<void>[]) {
    const card: { shown: ChatMessage } = {
      shown: {
        summary: say`result`,
        parts: [{ kind: 'paragraph', text: say`approved; applying…`, role: 'state' }],
      },
    };
    const make = (update: (m: ChatMessage) => Promise<void>): ChatAdapter =>
      ({
        platform: 'teams',
        post: async (to: { id: string }) => ({ conversation: { platform: 'teams', id: to.id }, id: 'reply' }),
        shown: async (ref: MessageRef) => (ref.id === CARD ? card.shown : undefined),
        update: async (_ref: MessageRef, m: ChatMessage) => {
          await update(m);
          card.shown = m;
        },
      }) as unknown as ChatAdapter;
    return { card, make, edit };
  }

  it('an "applied" edit that lands after "rolled out" is followed by "rolled out" again', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, teamsRecord);
    const held = deferred();
    const underWay = deferred();
    const landed: string[] = [];
    const { card, make } = adapters(() => []);
    const slow = make(async (m) => {
      underWay.resolve();
      await held.promise;
      landed.push(stateOf(m));
    });
    const fast = make(async (m) => {
      landed.push(stateOf(m));
    });
    const services = (roots: RootStates, adapter: ChatAdapter) =>
      ({ chats: { teams: adapter }, rootStates: roots, logger }) as never;
    const delivering = deliverOutcome(services(a, slow), outcome('applied'), undefined, APPLIED_AT);
    await underWay.promise;
    await deliverOutcome(services(b, fast), outcome('rolled-out'), undefined, ROLLED_AT);
    held.resolve();
    await delivering;
    expect(landed.map((l) => /; ([a-z ;]+) at/.exec(l)?.[1])).toEqual([
      'rolled out',
      'applied; rollout under way',
      'rolled out',
    ]);
    expect(stateOf(card.shown)).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('an "applied" delivered after "rolled out" leaves the card alone', async () => {
    const [a, b] = replicas;
    await a.record(PLAN, teamsRecord);
    const landed: string[] = [];
    const { card, make } = adapters(() => []);
    const adapter = make(async (m) => {
      landed.push(stateOf(m));
    });
    const services = (roots: RootStates) =>
      ({ chats: { teams: adapter }, rootStates: roots, logger }) as never;
    await deliverOutcome(services(b), outcome('rolled-out'), undefined, ROLLED_AT);
    await deliverOutcome(services(a), outcome('applied'), undefined, APPLIED_AT);
    expect(landed).toHaveLength(1);
    expect(stateOf(card.shown)).toContain('rolled out at 2026-11-23 03:20 UTC');
    // The incident is over: the card says so above its verdict (Slack strikes the verdict).
    const resolved = card.shown.parts.find((p) => p.kind === 'paragraph' && p.role === 'resolved');
    expect(resolved?.kind === 'paragraph' ? plainText(resolved.text) : '').toBe('Resolved: rolled out.');
  });

  it("an earlier attempt's outcome delivered after a later attempt's posts nothing and moves nothing", async () => {
    // Worker A was cut off from Redis mid-apply; B took the job over (attempt 2), found
    // the change in place and rolled it out. A's "already applied" comes after the heal.
    const [a, b] = replicas;
    await a.record(PLAN, teamsRecord);
    const landed: string[] = [];
    const posts: string[] = [];
    const { card, make } = adapters(() => []);
    const adapter = {
      ...make(async (m) => {
        landed.push(stateOf(m));
      }),
      post: async (to: { id: string }, m: ChatMessage) => {
        posts.push(plainText(m.summary));
        return { conversation: { platform: 'teams', id: to.id }, id: `reply-${posts.length}` };
      },
    } as unknown as ChatAdapter;
    const services = (roots: RootStates) =>
      ({ chats: { teams: adapter }, rootStates: roots, logger }) as never;
    const at = (stage: Outcome['stage'], attempt: number) => ({ ...outcome(stage), attempt });
    await deliverOutcome(services(b), at('applied', 2), undefined, APPLIED_AT);
    await deliverOutcome(services(b), at('rolled-out', 2), undefined, ROLLED_AT);
    expect(posts).toHaveLength(2);
    await deliverOutcome(services(a), at('already-applied', 1), undefined, ROLLED_AT + 60_000);
    expect(posts).toHaveLength(2);
    expect(landed.at(-1)).toContain('rolled out at 2026-11-23 03:20 UTC');
    expect(stateOf(card.shown)).toContain('rolled out at 2026-11-23 03:20 UTC');
    // The stage record itself refuses it, whoever asks (the fence and the move are one script).
    expect(
      await a.stages.advance(teamsRecord, { planId: PLAN, stage: 'already-applied', at: 1, attempt: 1 }),
    ).toBe(false);
    // The same attempt, or a later one, still speaks.
    await deliverOutcome(services(a), at('timeout', 3), undefined, ROLLED_AT + 120_000);
    expect(posts).toHaveLength(3);
  });
});
