/**
 * approve()'s decisions before anything is recorded, as one pure function (issue 28.5:
 * removing the "not an approver" refusal, or any other, fails a fast test).
 */
import { describe, expect, it } from 'vitest';
import { REFUSAL_TEXT, refusalBeforeRecording } from '../../src/app/approvals/approve.js';
import { toMrkdwn } from '../../src/chat/slack/render.js';
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
    expect(refusalBeforeRecording(click, stored, allowed, 20_000)).toBe('expired');
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
