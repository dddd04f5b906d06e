/**
 * Approve and Undo are one press on every platform (issue 55.1): the port's
 * approvePress decides and says every answer once, and each adapter only draws it.
 * The same decision (approve() stubbed to each of its outcomes) pressed on Slack (the
 * Approve listener on a fake Web API client) and on Teams (answerPress, the card
 * marked by src/chat/teams/mark.ts) tells the same words and marks the same line.
 */
import type * as ApproveModule from '../../src/chat/approvals/approve.js';
import { approve } from '../../src/chat/approvals/approve.js';
import { describe, expect, it, vi } from 'vitest';
import type { PressReply } from '../../src/chat/adapter.js';
import type { ChatMessage } from '../../src/chat/model.js';
import { plainText, say } from '../../src/message/rich.js';
import { ROOT_BLOCK } from '../../src/chat/slack/blocks/action-ids.js';
import { approvePlanAction } from '../../src/chat/slack/listeners/actions/approve-plan.js';
import { applyMark } from '../../src/chat/teams/mark.js';
import { answerPress } from '../../src/chat/use-cases/approve-press.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import { buttonClick, fakeClient, fakeServices } from '../support/listener-args.js';

vi.mock('../../src/chat/approvals/approve.js', async (original) => ({
  ...(await original<typeof ApproveModule>()),
  approve: vi.fn(),
}));

const PLAN = 'set-rolling-update-0123456789abcdef';
const SHOWN = 'a'.repeat(64);
const EXPIRED_AT = Date.UTC(2026, 10, 23, 3, 12);
const STORED = {
  plan: { id: PLAN, kind: 'set-rolling-update', target: { kind: 'StatefulSet', namespace: 'v', name: 't' } },
  cluster: 'prod',
  createdAt: 0,
  expiresAt: EXPIRED_AT,
} as unknown as StoredPlan;
const UNDO = { ...STORED, undoOf: 'set-rolling-update-fedcba9876543210' } as unknown as StoredPlan;

/** Slack mrkdwn read as the words it shows: emoji codes and bold marks dropped. */
const words = (mrkdwn: string): string =>
  mrkdwn
    .replace(/:[a-z_]+:\s?/g, '')
    .replace(/\*/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
/** Port text read the same way (a leading icon dropped). */
const portWords = (text: string): string => text.replace(/^[^\p{L}\p{N}]+/u, '');

async function onSlack(outcome: Awaited<ReturnType<typeof approve>>, actionId = 'approve_plan.0') {
  vi.mocked(approve).mockResolvedValueOnce(outcome);
  const { services } = fakeServices({ policy: {} });
  const value = `${PLAN}:${SHOWN}`;
  const click = buttonClick('U0LEAD', value, {
    blocks: [{ type: 'actions', elements: [{ type: 'button', action_id: actionId, value }] }],
  });
  const client = fakeClient();
  await approvePlanAction(services)({
    ack: vi.fn(async () => undefined),
    client,
    body: click.body,
    action: { ...click.action, action_id: actionId },
  } as never);
  const told = client.chat.postEphemeral.mock.calls.map((c) => words(String((c as never[])[0]?.['text'])));
  const updates = client.chat.update.mock.calls.map(
    (c) => (c as { blocks: { block_id?: string; text?: { text?: string } }[] }[])[0],
  );
  const line = updates.at(-1)?.blocks.find((b) => b.block_id === ROOT_BLOCK.state)?.text?.text;
  return { told, line: line === undefined ? undefined : words(line), order: client };
}

async function onTeams(outcome: Awaited<ReturnType<typeof approve>>, kind: 'approve' | 'undo' = 'approve') {
  vi.mocked(approve).mockResolvedValueOnce(outcome);
  const { services } = fakeServices({ policy: {} });
  const message = { conversation: { platform: 'teams', id: '19:gpu@thread.tacv2' }, id: '1732536000002' };
  const reply: PressReply = await answerPress(services as never, {
    person: { platform: 'teams', id: '8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b' },
    message,
    root: message,
    action: { kind, planId: PLAN, shown: SHOWN, requester: 'x' },
  });
  const card: ChatMessage = {
    summary: say`result`,
    parts: [
      {
        kind: 'actions',
        buttons: [{ label: 'Approve', action: { kind, planId: PLAN, shown: SHOWN, requester: 'x' } }],
      },
    ],
  };
  const marked = reply.mark ? applyMark(card, reply.mark) : undefined;
  const state = marked?.parts.find((p) => p.kind === 'paragraph' && p.role === 'state');
  return {
    told: reply.tell ? [portWords(plainText(reply.tell.summary))] : [],
    line: state?.kind === 'paragraph' ? portWords(plainText(state.text)) : undefined,
  };
}

describe('Approve and Undo: one press, each platform drawing it', () => {
  it('an expired plan: the same private answer and the same line on Slack and Teams', async () => {
    const expired = { kind: 'expired', stored: STORED } as const;
    const slack = await onSlack(expired);
    const teams = await onTeams(expired);
    expect(teams.told).toEqual([
      'This plan expired. Press Re-run for a fresh diagnosis and plan; nothing was changed.',
    ]);
    expect(slack.told).toEqual(teams.told);
    expect(teams.line).toBe(
      'set-rolling-update expired (2026-11-23 03:12 UTC); press Re-run for a fresh plan.',
    );
    expect(slack.line).toBe(teams.line);
  });

  it('an expired Undo: how to revert by hand, said once for both, naming the workload kind', async () => {
    const expired = { kind: 'expired', stored: UNDO } as const;
    const slack = await onSlack(expired, 'undo_plan.0');
    const teams = await onTeams(expired, 'undo');
    expect(teams.told[0]).toMatch(
      /^This Undo expired .* after checking that the StatefulSet has not moved on;/,
    );
    expect(slack.told).toEqual(teams.told);
    expect(slack.line).toBe(teams.line);
    expect(teams.line).toMatch(
      /^undo of .* expired \(2026-11-23 03:12 UTC\); to revert, apply the exact patch/,
    );
  });

  it('a superseded plan: told first, then marked, with the same words', async () => {
    const refused = {
      kind: 'refused',
      text: say`Not applied: superseded.`,
      superseded: 'set-recreate',
    } as never;
    const slack = await onSlack(refused);
    const teams = await onTeams(refused);
    expect(slack.told).toEqual(teams.told);
    expect(teams.line).toMatch(
      /^set-recreate superseded at \d{4}-\d\d-\d\d \d\d:\d\d UTC: a later diagnosis/,
    );
    expect(slack.line).toBe(teams.line);
    // Slack's ephemeral went out before the message was edited.
    const [told] = slack.order.chat.postEphemeral.mock.invocationCallOrder;
    const [edited] = slack.order.chat.update.mock.invocationCallOrder;
    expect(told).toBeLessThan(edited ?? 0);
  });

  it('one of two approvals: said privately, the message unchanged, on both', async () => {
    const recorded = { kind: 'recorded', approvals: 1, required: 2 } as never;
    const slack = await onSlack(recorded);
    const teams = await onTeams(recorded);
    expect(teams.told).toEqual(['Approval recorded (1/2); waiting for another approver.']);
    expect(slack.told).toEqual(teams.told);
    expect(slack.line).toBeUndefined();
    expect(teams.line).toBeUndefined();
  });
});

describe('the approved message kept for its outcomes', () => {
  it('on every platform, the record waits for the replicas and is written again should a failover lose it', async () => {
    vi.mocked(approve).mockResolvedValueOnce({
      kind: 'approved',
      stored: { ...STORED, expiresAt: Number.MAX_SAFE_INTEGER },
      approvers: ['8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b'],
    });
    const record = vi.fn(async (_planId: string, _record: unknown, _options?: unknown) => undefined);
    const confirm = vi.fn(async () => undefined);
    const { services } = fakeServices({
      policy: {},
      rootStates: { record, load: vi.fn(async () => null) },
      replication: { confirm },
    });
    const message = { conversation: { platform: 'teams', id: '19:gpu@thread.tacv2' }, id: '1732536000002' };
    await answerPress(services as never, {
      person: { platform: 'teams', id: '8a3c0e9e-6d55-4c59-9f1e-0c1d2e3f4a5b' },
      message,
      root: message,
      action: { kind: 'approve', planId: PLAN, shown: SHOWN, requester: 'x' },
    });
    expect(record).toHaveBeenCalledTimes(1);
    expect(confirm).toHaveBeenCalledWith(
      expect.objectContaining({ label: 'root state', fields: { planId: PLAN } }),
    );
    // The redo writes the same record, only where none is kept.
    const [{ redo }] = confirm.mock.calls[0] as unknown as [{ redo: () => Promise<void> }];
    await redo();
    expect(record).toHaveBeenLastCalledWith(PLAN, record.mock.calls[0]?.[1], { ifAbsent: true });
  });
});
