/**
 * The approval's own "applying…" edit is ordered with the outcomes
 * (src/chat/notify/root-stage.ts approvedStage): a worker that applies and reports
 * within the approval's round trip never has its outcome covered by "applying…", on
 * Slack (the Approve listener) and on Teams (approvePress and the card's edits). So is
 * an Undo's: its outcome handled before the Undo press kept its record still ends on
 * the root the fix was approved on, without a later outcome. Two app replicas (two
 * Redis connections): one handles the click, the other the outcome.
 * The decision itself (src/chat/approvals/approve.ts) is stubbed as "approved": its
 * refusals are tested in test/unit/listeners/actions.test.ts.
 */
import type * as ApproveModule from '../../src/chat/approvals/approve.js';
import { approve } from '../../src/chat/approvals/approve.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatAdapter } from '../../src/chat/adapter.js';
import type { ChatMessage, MessageRef } from '../../src/chat/model.js';
import { plainText, say } from '../../src/message/rich.js';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import { approvePlanAction } from '../../src/chat/slack/listeners/actions/approve-plan.js';
import { editPressed, applyMark } from '../../src/chat/teams/mark.js';
import { approvePress } from '../../src/chat/use-cases/approve-press.js';
import { deliverOutcome } from '../../src/chat/notify/outcome-delivery.js';
import type { RootStates } from '../../src/chat/notify/root-store.js';
import { rootOnOutcome } from '../../src/chat/notify/root-update.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { buttonClick, fakeServices } from '../support/listener-args.js';
import { deferred, rootReplicas } from '../support/root-replicas.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';

/** The Slack adapter on a fake Web API client. */
const slackChat = (client: object) => createSlackChatAdapter(client as never);

vi.mock('../../src/chat/approvals/approve.js', async (original) => ({
  ...(await original<typeof ApproveModule>()),
  approve: vi.fn(async () => ({ kind: 'approved', stored: STORED, approvers: [APPROVER] })),
}));

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const PLAN = 'set-rolling-update-0123456789abcdef';
const UNDO_PLAN = 'undo-set-rolling-update-fedcba9876543210';
const SHOWN = 'a'.repeat(64);
const APPROVER = 'U0LEAD';
const ROLLED_AT = Date.UTC(2026, 10, 23, 3, 20);
const UNDONE_AT = Date.UTC(2026, 10, 23, 3, 40);
const STORED = {
  plan: { id: PLAN, kind: 'set-rolling-update', target: { kind: 'Deployment', namespace: 'v', name: 't' } },
  cluster: 'prod',
  createdAt: 0,
  expiresAt: Number.MAX_SAFE_INTEGER,
} as unknown as StoredPlan;
/** The Undo offered with the fix's "applied" reply: approved next, in that reply. */
const UNDO_STORED = {
  ...STORED,
  plan: { ...STORED.plan, id: UNDO_PLAN },
  undoOf: PLAN,
} as unknown as StoredPlan;
const undoApproved = () =>
  vi.mocked(approve).mockResolvedValueOnce({ kind: 'approved', stored: UNDO_STORED, approvers: [APPROVER] });
const logger = { warn: vi.fn(), info: vi.fn(), error: vi.fn(), debug: vi.fn() } as never;

const stack = rootReplicas();
/** [the replica that handles the click, the one that delivers the outcome] */
let replicas: [RootStates, RootStates];

beforeAll(() => stack.start());
afterAll(() => stack.stop());
beforeEach(async () => {
  replicas = await stack.fresh();
});

/** "rolled out", "applying", …: what a state line says the fix is at. */
const stageWords = (line: string): string | undefined => /; ([a-z ;]+?)(?: at |…)/.exec(line)?.[1];

describe('Slack: the Approve click and an outcome that beats it', () => {
  const CHANNEL = 'C1';
  const ROOT = '1700000000.000100';
  /** The fix's "applied" reply in the root's thread, where its Undo is pressed. */
  const REPLY = '1700000000.000200';
  const outcome = (stage: Outcome['stage'], planId = PLAN) =>
    ({
      kind: 'remediation-outcome',
      planId,
      cluster: 'prod',
      channel: CHANNEL,
      messageTs: ROOT,
      stage,
      detail: 'deployment/tracker',
    }) as Outcome;

  /** The root message as the last edit to land left it; each edit may wait for `hold`. */
  function slackMessage() {
    const landed: string[] = [];
    const client = (hold?: () => Promise<void>) => ({
      chat: {
        postEphemeral: vi.fn(async () => ({ ok: true })),
        update: vi.fn(
          async (args: { ts: string; blocks: { block_id?: string; text?: { text?: string } }[] }) => {
            // An Undo marks the reply it was pressed in; only the root's edits are followed here.
            if (args.ts === REPLY) return { ok: true };
            expect(args.ts).toBe(ROOT);
            await hold?.();
            landed.push(args.blocks.find((b) => b.block_id === ROOT_BLOCK.state)?.text?.text ?? '');
            return { ok: true };
          },
        ),
      },
    });
    return { landed, client, last: () => landed.at(-1) ?? '' };
  }

  function click(roots: RootStates, client: unknown): Promise<void> {
    const { services } = fakeServices({ rootStates: roots, policy: {} });
    const pressed = buttonClick(APPROVER, `${PLAN}:${SHOWN}`, {
      blocks: [
        {
          type: 'actions',
          elements: [{ type: 'button', action_id: 'approve_plan.0', value: `${PLAN}:${SHOWN}` }],
        },
      ],
    });
    const ack = vi.fn(async () => undefined);
    return approvePlanAction(services)({ ack, client, body: pressed.body, action: pressed.action } as never);
  }

  /** The Undo clicked in the fix's "applied" reply (a thread reply of the root). */
  function undoClick(roots: RootStates, client: unknown): Promise<void> {
    const { services } = fakeServices({ rootStates: roots, policy: {} });
    undoApproved();
    const value = `${UNDO_PLAN}:${SHOWN}`;
    const pressed = buttonClick(APPROVER, value, {
      threadTs: ROOT,
      blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: 'undo_plan.0', value }] }],
    });
    const body = {
      ...pressed.body,
      container: { ...pressed.body.container, message_ts: REPLY },
      message: { ...pressed.body.message, ts: REPLY },
    };
    const action = { ...pressed.action, action_id: 'undo_plan.0' };
    const ack = vi.fn(async () => undefined);
    return approvePlanAction(services)({ ack, client, body, action } as never);
  }

  it('"rolled out" delivered before the approval kept its root: the root ends on "rolled out"', async () => {
    const [clicking, delivering] = replicas;
    const message = slackMessage();
    // The worker applied and reported before the click's replica kept the root: nothing to edit yet.
    await rootOnOutcome(delivering, slackChat(message.client()), outcome('rolled-out'), logger, ROLLED_AT);
    expect(message.landed).toEqual([]);
    await click(clicking, message.client());
    expect(stageWords(message.last())).toBe('rolled out');
    expect(message.last()).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('"rolled out" shown while the "applying" edit is under way: that edit is followed by "rolled out"', async () => {
    const [clicking, delivering] = replicas;
    const message = slackMessage();
    const held = deferred();
    const underWay = deferred();
    let first = true;
    const slow = message.client(async () => {
      if (!first) return;
      first = false;
      underWay.resolve();
      await held.promise;
    });
    const approving = click(clicking, slow);
    await underWay.promise;
    await rootOnOutcome(delivering, slackChat(message.client()), outcome('rolled-out'), logger, ROLLED_AT);
    held.resolve();
    await approving;
    expect(message.landed.map(stageWords)).toEqual(['rolled out', 'applying', 'rolled out']);
  });

  it('the Undo\'s "rolled out" delivered before the Undo click kept its record: the root ends on "undone"', async () => {
    const [clicking, delivering] = replicas;
    const message = slackMessage();
    await click(clicking, message.client());
    await rootOnOutcome(delivering, slackChat(message.client()), outcome('rolled-out'), logger, ROLLED_AT);
    expect(stageWords(message.last())).toBe('rolled out');
    // The Undo's worker reverted and reported before the Undo click's replica kept its record.
    const before = message.landed.length;
    await rootOnOutcome(
      delivering,
      slackChat(message.client()),
      outcome('rolled-out', UNDO_PLAN),
      logger,
      UNDONE_AT,
    );
    expect(message.landed.length).toBe(before);
    await undoClick(clicking, message.client());
    expect(stageWords(message.last())).toBe('undone');
    expect(message.last()).toContain('undone at 2026-11-23 03:40 UTC');
  });

  it('the Undo\'s "applied" delivered before the Undo click kept its record: the root says "undoing"', async () => {
    const [clicking, delivering] = replicas;
    const message = slackMessage();
    await click(clicking, message.client());
    await rootOnOutcome(delivering, slackChat(message.client()), outcome('rolled-out'), logger, ROLLED_AT);
    await rootOnOutcome(
      delivering,
      slackChat(message.client()),
      outcome('applied', UNDO_PLAN),
      logger,
      UNDONE_AT,
    );
    await undoClick(clicking, message.client());
    expect(stageWords(message.last())).toBe('undo approved; undoing');
  });
});

describe('Teams: the Approve press and an outcome that beats it', () => {
  const CONVERSATION = '19:gpu@thread.tacv2';
  const CARD = '1732536000002';
  const approver = '8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b';
  const ref: MessageRef = { conversation: { platform: 'teams', id: CONVERSATION }, id: CARD };
  const pressed: ChatMessage = {
    summary: say`result`,
    parts: [
      {
        kind: 'actions',
        buttons: [
          { label: 'Approve', action: { kind: 'approve', planId: PLAN, shown: SHOWN, requester: 'x' } },
        ],
      },
    ],
  };
  /** The fix's "applied" reply in the card's thread, with its Undo. */
  const REPLY = '1732536000003';
  const replyRef: MessageRef = {
    conversation: { platform: 'teams', id: CONVERSATION, thread: CARD },
    id: REPLY,
  };
  const undoAction = { kind: 'undo' as const, planId: UNDO_PLAN, shown: SHOWN, requester: 'x' };
  const applied: ChatMessage = {
    summary: say`applied`,
    parts: [{ kind: 'actions', buttons: [{ label: 'Undo', action: undoAction }] }],
  };
  const outcome = (stage: Outcome['stage'], planId = PLAN) =>
    ({
      kind: 'remediation-outcome',
      planId,
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

  /** The card both replicas read and edit; each replica's edits may wait for `hold`. */
  function teamsCard() {
    const card = { shown: pressed };
    const landed: string[] = [];
    const adapter = (hold?: () => Promise<void>): ChatAdapter =>
      ({
        platform: 'teams',
        post: async (to: { id: string }) => ({ conversation: { platform: 'teams', id: to.id }, id: 'reply' }),
        shown: async (r: MessageRef) => (r.id === CARD ? card.shown : undefined),
        update: async (r: MessageRef, m: ChatMessage) => {
          // The Undo's reply is marked too; only the card's edits are followed here.
          if (r.id === REPLY) return;
          expect(r.id).toBe(CARD);
          await hold?.();
          card.shown = m;
          landed.push(stateOf(m));
        },
      }) as unknown as ChatAdapter;
    return { card, landed, adapter };
  }

  /** The press as src/chat/teams/inbound.ts handles it: the use-case, then the card's edits. */
  async function press(roots: RootStates, adapter: ChatAdapter): Promise<void> {
    const { services } = fakeServices({ rootStates: roots, policy: { names: {} } });
    const action = { kind: 'approve' as const, planId: PLAN, shown: SHOWN, requester: 'x' };
    const reply = await approvePress(
      services as never,
      { person: { platform: 'teams', id: approver }, message: ref, root: ref, action },
      action,
    );
    if (!reply.mark) throw new Error('not marked');
    await editPressed(adapter, ref, pressed, applyMark(pressed, reply.mark), reply);
  }

  /** The Undo pressed in the fix's "applied" reply, as src/chat/teams/inbound.ts handles it. */
  async function undoPress(roots: RootStates, adapter: ChatAdapter): Promise<void> {
    const { services } = fakeServices({ rootStates: roots, policy: { names: {} } });
    undoApproved();
    const reply = await approvePress(
      services as never,
      { person: { platform: 'teams', id: approver }, message: replyRef, root: ref, action: undoAction },
      undoAction,
    );
    if (!reply.mark) throw new Error('not marked');
    await editPressed(adapter, replyRef, applied, applyMark(applied, reply.mark), reply);
  }

  const deliver = (
    roots: RootStates,
    adapter: ChatAdapter,
    stage: Outcome['stage'] = 'rolled-out',
    planId = PLAN,
    at = ROLLED_AT,
  ) =>
    deliverOutcome(
      { chats: { teams: adapter }, rootStates: roots, logger } as never,
      outcome(stage, planId),
      undefined,
      at,
    );

  it('"rolled out" delivered before the approval kept its card: the card ends on "rolled out"', async () => {
    const [clicking, delivering] = replicas;
    const card = teamsCard();
    await deliver(delivering, card.adapter());
    expect(card.landed).toEqual([]);
    await press(clicking, card.adapter());
    expect(stageWords(stateOf(card.card.shown))).toBe('rolled out');
    expect(stateOf(card.card.shown)).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('"rolled out" shown while the "applying" edit is under way: that edit is followed by "rolled out"', async () => {
    const [clicking, delivering] = replicas;
    const card = teamsCard();
    const held = deferred();
    const underWay = deferred();
    let first = true;
    const slow = card.adapter(async () => {
      if (!first) return;
      first = false;
      underWay.resolve();
      await held.promise;
    });
    const approving = press(clicking, slow);
    await underWay.promise;
    await deliver(delivering, card.adapter());
    held.resolve();
    await approving;
    expect(card.landed.map(stageWords)).toEqual(['rolled out', 'applying', 'rolled out']);
    expect(stateOf(card.card.shown)).toContain('rolled out at 2026-11-23 03:20 UTC');
  });

  it('the Undo\'s "rolled out" delivered before the Undo press kept its record: the card ends on "undone"', async () => {
    const [clicking, delivering] = replicas;
    const card = teamsCard();
    await press(clicking, card.adapter());
    await deliver(delivering, card.adapter());
    expect(stageWords(stateOf(card.card.shown))).toBe('rolled out');
    // The Undo's worker reverted and reported before the Undo press's replica kept its record.
    const before = card.landed.length;
    await deliver(delivering, card.adapter(), 'rolled-out', UNDO_PLAN, UNDONE_AT);
    expect(card.landed.length).toBe(before);
    await undoPress(clicking, card.adapter());
    expect(stageWords(stateOf(card.card.shown))).toBe('undone');
    expect(stateOf(card.card.shown)).toContain('undone at 2026-11-23 03:40 UTC');
  });

  it('the Undo\'s "applied" delivered before the Undo press kept its record: the card says "undoing"', async () => {
    const [clicking, delivering] = replicas;
    const card = teamsCard();
    await press(clicking, card.adapter());
    await deliver(delivering, card.adapter());
    await deliver(delivering, card.adapter(), 'applied', UNDO_PLAN, UNDONE_AT);
    await undoPress(clicking, card.adapter());
    expect(stageWords(stateOf(card.card.shown))).toBe('undo approved; undoing');
  });

  it('the Undo\'s "rolled out" shown while its "undoing" edit is under way: that edit is followed by "undone"', async () => {
    const [clicking, delivering] = replicas;
    const card = teamsCard();
    await press(clicking, card.adapter());
    await deliver(delivering, card.adapter());
    const held = deferred();
    const underWay = deferred();
    let first = true;
    const slow = card.adapter(async () => {
      if (!first) return;
      first = false;
      underWay.resolve();
      await held.promise;
    });
    const before = card.landed.length;
    const undoing = undoPress(clicking, slow);
    await underWay.promise;
    await deliver(delivering, card.adapter(), 'rolled-out', UNDO_PLAN, UNDONE_AT);
    held.resolve();
    await undoing;
    expect(card.landed.slice(before).map(stageWords)).toEqual(['undone', 'undo approved; undoing', 'undone']);
    expect(stateOf(card.card.shown)).toContain('undone at 2026-11-23 03:40 UTC');
  });
});
