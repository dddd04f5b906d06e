/**
 * Issue 66.3: a chat-made pull request carries the incident's id, a link to the thread,
 * and who approved by name with the signed id beside it. Names are untrusted: escaped so
 * that none becomes a link, a mention or a code span; a name not read is said so, the id
 * alone. The worker shows only a link to the very thread the approval was signed for.
 */
import { describe, expect, it } from 'vitest';
import { pullBody } from '../../src/propose/pull-body.js';
import { nameText } from '../../src/propose/pull-record.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import { proposeJobSchema, type ProposeJob } from '../../src/queue/schemas.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { approvalClaims, proposalOf, signApproval } from '../../src/trust/approval-signature.js';
import { proposalRecord } from '../../src/worker/proposal-record.js';
import { testKeys } from '../support/plan-keys.js';

const plan = {
  id: 'set-rolling-update-0123456789abcdef',
  kind: 'set-rolling-update',
  target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  addresses: 'RolloutSurgeDeadlock',
  patch: { type: 'strategic-merge', body: {} },
} as unknown as RemediationPlan;
const text = {
  plan,
  finding: { code: 'RolloutSurgeDeadlock', summary: 'stuck' },
  file: 'apps/web.yaml',
  fields: ['spec.strategy'],
  diff: '-a\n+b\n',
  check: { verdict: 'finishes' as const },
  rendered: 'apps/web.yaml',
  against: 'the dump',
};
const LINK = 'https://acme.slack.com/archives/C0OPS/p1700000000000100';
const stored = { plan, cluster: 'prod', createdAt: 0, expiresAt: 1 } as StoredPlan;
const job = {
  planId: plan.id,
  cluster: 'prod',
  approvedBy: ['U0ANN', 'U0BOB'],
  channel: 'C0OPS',
  messageTs: '1700000000.000100',
  approval: 'x',
} as unknown as ProposeJob;

describe('a chat-made pull request’s record', () => {
  it('carries the incident id, the thread’s link and the approvers by name beside their ids', () => {
    const body = pullBody('en', {
      ...text,
      ...proposalRecord({ ...job, names: [{ id: 'U0ANN', name: 'Ana Kim' }], threadLink: LINK }, stored),
    });
    expect(body).toContain('**Incident**: prod/shop/web');
    expect(body).toContain(`**Thread**: ${LINK}`);
    expect(body).toContain('**Approved by**: Ana Kim (U0ANN), U0BOB (name not known)');
    expect(pullBody('ko', { ...text, ...proposalRecord(job, stored) })).toContain(
      '**승인자**: U0ANN (이름 확인 불가), U0BOB (이름 확인 불가)',
    );
  });

  it('says there is no link when the chat gave none, or one to another thread', () => {
    const elsewhere = 'https://acme.slack.com/archives/C0OTHER/p1700000000000100';
    for (const threadLink of [undefined, elsewhere, 'https://evil.example/archives/C0OPS/p1']) {
      const record = proposalRecord({ ...job, ...(threadLink ? { threadLink } : {}) }, stored);
      expect(record.thread).toBeUndefined();
      const body = pullBody('en', { ...text, ...record });
      expect(body).toContain('**Thread**: no link (the chat gave none).');
      if (threadLink) expect(body).not.toContain(threadLink);
    }
    // A Teams thread: no link the worker can tie to the signed conversation.
    const teams = { ...job, platform: 'teams' as const, threadLink: LINK };
    expect(proposalRecord(teams, stored).thread).toBeUndefined();
  });

  it.each([
    ['[x](http://evil)', '\\[x\\](http:\u200b//evil)'],
    ['@org/team', '@\u200borg/team'],
    ['`a``b`', '\\`a\\`\\`b\\`'],
    ['<img src=x onerror=alert(1)>', '&lt;img src=x onerror=alert(1)&gt;'],
    ['Ana\n# Approved by everyone', 'Ana \\# Approved by everyone'],
    ['www.evil.com *bold* ~s~', 'www\u200b.evil.com \\*bold\\* \\~s\\~'],
    ['\u202eevil\u200b', 'evil'],
  ])('a hostile name %j is literal text beside its id', (name, shown) => {
    expect(nameText(name)).toBe(shown);
    const body = pullBody('en', {
      ...text,
      approvers: [{ id: 'U0ANN', name }],
      incident: 'prod/shop/web',
    });
    expect(body).toContain(`**Approved by**: ${shown} (U0ANN)`);
    expect(body).not.toContain('](http://evil)');
  });

  it('cuts a long name, and a name that is all control characters counts as none', () => {
    expect(nameText('a'.repeat(500))).toHaveLength(80);
    const body = pullBody('en', { ...text, approvers: [{ id: 'U0ANN', name: '\u0007\u200e' }] });
    expect(body).toContain('**Approved by**: U0ANN (name not known)');
  });

  it('the job takes names only of its approvers, and only an https link', () => {
    const claims = approvalClaims({
      planId: proposalOf(plan.id),
      digest: 'd'.repeat(64),
      cluster: 'prod',
      planExpiresAt: Date.now() + 60_000,
      approvers: job.approvedBy,
      channel: job.channel,
      messageTs: job.messageTs,
      now: Date.now(),
      keyId: testKeys.approval.keyId,
    });
    const base = { ...job, approval: signApproval(claims, testKeys.approval.privateKey) };
    const issues = (extra: object) =>
      (proposeJobSchema.safeParse({ ...base, ...extra }).error?.issues ?? []).map((i) => i.path.join('.'));
    expect(issues({ names: [{ id: 'U0EVE', name: 'Eve' }] })).toEqual(['names']);
    expect(issues({ threadLink: 'javascript:alert(1)' })).toEqual(['threadLink']);
    expect(issues({ threadLink: 'https://acme.slack.com/a b' })).toEqual(['threadLink']);
    expect(issues({ names: [{ id: 'U0BOB', name: 'Bob' }], threadLink: LINK })).toEqual([]);
  });
});
