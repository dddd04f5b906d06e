/**
 * The approval's own "applying…" edit is ordered with the outcomes
 * (src/app/notify/root-stage.ts showApprovedStage): a worker that applies and reports
 * within the approval's round trip never has its outcome covered by "applying…", on
 * Slack (the Approve listener) and on Teams (approvePress and the card's edits). Two
 * app replicas (two Redis connections): one handles the click, the other the outcome.
 * The decision itself (src/app/approvals/approve.ts) is stubbed as "approved": its
 * refusals are tested in test/unit/listeners/actions.test.ts.
 */
import type * as ApproveModule from '../../src/app/approvals/approve.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatAdapter } from '../../src/chat/adapter.js';
import type { ChatMessage, MessageRef } from '../../src/chat/model.js';
import { plainText, say } from '../../src/chat/rich.js';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import { approvePlanAction } from '../../src/chat/slack/listeners/actions/approve-plan.js';
import { editMarked, applyMark } from '../../src/chat/teams/mark.js';
import { approvePress } from '../../src/chat/use-cases/approve-press.js';
import { deliverOutcome } from '../../src/app/notify/outcome-delivery.js';
import type { RootStates } from '../../src/app/notify/root-store.js';
import { rootOnOutcome } from '../../src/app/notify/root-update.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { NotifyJob } from '../../src/queue/schemas.js';
import { buttonClick, fakeServices } from '../support/listener-args.js';
import { deferred, rootReplicas } from '../support/root-replicas.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';

/** The Slack adapter on a fake Web API client. */
const slackChat = (client: object) => createSlackChatAdapter(client as never);

vi.mock('../../src/app/approvals/approve.js', async (original) => ({
  ...(await original<typeof ApproveModule>()),
  approve: vi.fn(async () => ({ kind: 'approved', stored: STORED, approvers: [APPROVER] })),
}));

type Outcome = Extract<NotifyJob, { kind: 'remediation-outcome' }>;

const PLAN = 'set-rolling-update-0123456789abcdef';
const SHOWN = 'a'.repeat(64);
const APPROVER = 'U0LEAD';
const ROLLED_AT = Date.UTC(2026, 10, 23, 3, 20);
const STORED = {
  plan: { id: PLAN, kind: 'set-rolling-update', target: { kind: 'Deployment', namespace: 'v', name: 't' } },
  cluster: 'prod',
  createdAt: 0,
  expiresAt: Number.MAX_SAFE_INTEGER,
} as unknown as StoredPlan;
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
  const outcome = (stage: Outcome['stage']) =>
    ({
      kind: 'remediation-outcome',
      planId: PLAN,
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
    const { services } = fakeServices({ rootStates: roots });
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

  /** The card both replicas read and edit; each replica's edits may wait for `hold`. */
  function teamsCard() {
    const card = { shown: pressed };
    const landed: string[] = [];
    const adapter = (hold?: () => Promise<void>): ChatAdapter =>
      ({
        platform: 'teams',
        post: async (to: { id: string }) => ({ conversation: { platform: 'teams', id: to.id }, id: 'reply' }),
        shown: async (r: MessageRef) => (r.id === CARD ? card.shown : undefined),
        update: async (_r: MessageRef, m: ChatMessage) => {
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
    await editMarked(adapter, ref, pressed, applyMark(pressed, reply.mark), reply.settle);
  }

  const deliver = (roots: RootStates, adapter: ChatAdapter) =>
    deliverOutcome(
      { chats: { teams: adapter }, rootStates: roots, logger } as never,
      outcome('rolled-out'),
      undefined,
      ROLLED_AT,
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
});
