/**
 * approve()'s decisions before anything is recorded, as one pure function (issue 28.5:
 * removing the "not an approver" refusal, or any other, fails a fast test).
 */
import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/trust/clock-skew.js';
import { describe, expect, it } from 'vitest';
import { refusalBeforeRecording } from '../../src/chat/approvals/approve.js';
import { REFUSAL_TEXT } from '../../src/chat/approvals/refusal-text.js';
import { plainText } from '../../src/message/rich.js';
import { toMrkdwn } from '../../src/chat/slack/render.js';
import { renderCard } from '../../src/chat/teams/cards.js';
import { SEAL_VERSION, shownDigest } from '../../src/trust/plan-seal.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';

const stored: StoredPlan = {
  plan: {
    id: 'set-recreate-0123456789abcdef',
    kind: 'set-recreate',
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    summary: 's',
    impact: 'i',
    warnings: [],
    patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } },
  } as unknown as RemediationPlan,
  cluster: 'prod',
  createdAt: 0,
  expiresAt: 10_000,
  seal: { v: SEAL_VERSION, keyId: 's1', mac: '0'.repeat(64) },
};
const click = {
  user: 'U0APPROVER',
  channel: 'C1',
  messageTs: '1.1',
  rootTs: '1.1',
  planId: stored.plan.id,
  shown: shownDigest(stored),
  requester: 'U0ASKER',
};
const allowed = { allowed: true as const, required: 1 };

describe('refusals before an approval is recorded', () => {
  it('passes a listed approver on the plan as shown', () => {
    expect(refusalBeforeRecording(click, stored, allowed, 5_000)).toBeNull();
  });

  it('refuses whoever is not an approver, naming the approvers', () => {
    const refusal = refusalBeforeRecording(
      click,
      stored,
      { allowed: false, reason: 'you are not an approver here', approvers: ['U0LEAD', 'S0SRE'] },
      5_000,
    );
    expect(refusal).toEqual({
      reason: 'not-approver',
      detail: 'you are not an approver here',
      text: REFUSAL_TEXT.notApprover('you are not an approver here', ['U0LEAD', 'S0SRE']),
    });
    expect(typeof refusal === 'object' && refusal ? toMrkdwn(refusal.text) : '').toContain(
      '<@U0LEAD>, <!subteam^S0SRE>',
    );
  });

  it('says expired, outdated and changed apart', () => {
    // Past the plan's expiry by more than the tolerated clock skew (src/trust/clock-skew.ts); within it, not yet.
    expect(refusalBeforeRecording(click, stored, allowed, 10_000 + CLOCK_SKEW_TOLERANCE_MS + 1)).toBe(
      'expired',
    );
    expect(refusalBeforeRecording(click, stored, allowed, 10_000 + CLOCK_SKEW_TOLERANCE_MS)).toBeNull();
    expect(refusalBeforeRecording({ ...click, shown: null }, stored, allowed, 5_000)).toMatchObject({
      reason: 'outdated',
    });
    expect(refusalBeforeRecording(click, { ...stored, seal: undefined }, allowed, 5_000)).toMatchObject({
      reason: 'outdated',
    });
    expect(refusalBeforeRecording({ ...click, shown: 'f'.repeat(64) }, stored, allowed, 5_000)).toBe(
      'changed',
    );
  });

  it('under a two-person rule, refuses the requester and a button that names nobody', () => {
    const two = { allowed: true as const, required: 2 };
    expect(refusalBeforeRecording({ ...click, requester: 'U0APPROVER' }, stored, two, 5_000)).toMatchObject({
      reason: 'self-approval',
    });
    expect(refusalBeforeRecording({ ...click, requester: null }, stored, two, 5_000)).toMatchObject({
      reason: 'outdated',
    });
    expect(refusalBeforeRecording(click, stored, two, 5_000)).toBeNull();
  });
});

describe('the not-an-approver refusal on Teams', () => {
  const DANA = '6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90';
  const SAM = 'a3e9b1c4-7d2f-4e6a-8b0c-5f1d3e2a9c7b';
  const REASON = 'you are not an approver here';
  const teamsClick = { ...click, user: '0b7e4d2a-9c1f-4a3b-8e6d-7c2f1a9b3e5d', platform: 'teams' as const };
  const refusalText = (approvers: string[], names: Record<string, string>): string => {
    const refusal = refusalBeforeRecording(
      teamsClick,
      stored,
      { allowed: false, reason: REASON, approvers, names },
      5_000,
    );
    if (refusal === null || typeof refusal !== 'object') throw new Error('not refused');
    return plainText(refusal.text);
  };

  it('names the approvers as the policy file names them, never by object id', () => {
    expect(refusalText([DANA, SAM], { [DANA]: 'Dana Lee', [SAM]: 'Sam Ortiz' })).toBe(
      `Not applied: ${REASON} (approvers: Dana Lee, Sam Ortiz). Nothing was changed.`,
    );
  });

  it('counts the approvers the policy does not name, and says who to ask', () => {
    const some = refusalText([DANA, SAM], { [DANA]: 'Dana Lee' });
    expect(some).toContain(
      '(approvers: Dana Lee and 1 more the approval policy lists by id only: ask whoever runs rollout-doctor)',
    );
    const none = refusalText([DANA, SAM], {});
    expect(none).toContain(
      '(approvers: 2 people the approval policy lists by id only: ask whoever runs rollout-doctor)',
    );
    for (const text of [some, none]) {
      expect(text).not.toContain(DANA);
      expect(text).not.toContain(SAM);
    }
  });

  it("keeps Slack's wording: the approvers mentioned", () => {
    expect(
      toMrkdwn(REFUSAL_TEXT.notApprover(REASON, ['U0LEAD', 'S0SRE'], 'slack', { U0LEAD: 'Lead' })),
    ).toContain('(approvers: <@U0LEAD>, <!subteam^S0SRE>)');
  });

  it('shows a name with markup as characters in the card (no mention, no date function)', () => {
    const name = '<at>Eve</at> {{DATE(2017-02-14T06:08:39Z, LONG)}} **bold**';
    const text = REFUSAL_TEXT.notApprover(REASON, [DANA], 'teams', { [DANA]: name });
    const card = JSON.stringify(renderCard({ summary: text, parts: [{ kind: 'paragraph', text }] }));
    expect(card).not.toMatch(/<at>|\{\{/i);
    expect(card).toContain('**bold**');
    expect(card).not.toContain(DANA);
  });
});
