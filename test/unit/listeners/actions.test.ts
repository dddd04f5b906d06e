/**
 * The button listeners called as Bolt calls them (issue 28.5), with the real approval
 * decision (src/chat/approvals/approve.ts) and policy behind Approve: a click by someone
 * who is not an approver is refused privately, audited, and changes nothing; an
 * approver's click on an expired plan marks the message; Dismiss, Re-run and the plan
 * status button each answer their caller and nobody else.
 */
import { describe, expect, it, vi } from 'vitest';
import { approvePlanAction } from '../../../src/chat/slack/listeners/actions/approve-plan.js';
import { dismissResultAction } from '../../../src/chat/slack/listeners/actions/dismiss-result.js';
import { planStatusAction } from '../../../src/chat/slack/listeners/actions/plan-status.js';
import { proposeInGitAction } from '../../../src/chat/slack/listeners/actions/propose-in-git.js';
import { rerunDiagnosisAction } from '../../../src/chat/slack/listeners/actions/rerun-diagnosis.js';
import { createApprovalPolicy } from '../../../src/policy/approval-policy.js';
import type { StoredPlan } from '../../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../../src/remediation/plan.js';
import { sealPlan, shownDigest } from '../../../src/trust/plan-seal.js';
import { buttonClick, fakeClient, fakeServices } from '../../support/listener-args.js';
import { testKeys } from '../../support/plan-keys.js';

const PLAN_ID = 'set-rolling-update-0123456789abcdef';
const SHOWN = 'a'.repeat(64);

function stored(expiresAt: number): StoredPlan {
  return {
    plan: {
      id: PLAN_ID,
      kind: 'set-rolling-update',
      target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
      summary: 's',
      impact: 'i',
      warnings: [],
      patch: { type: 'strategic-merge', body: {} },
    } as unknown as RemediationPlan,
    cluster: 'prod',
    createdAt: 0,
    expiresAt,
  };
}

function run(listener: (args: never) => Promise<void>, click: ReturnType<typeof buttonClick>) {
  const ack = vi.fn(async () => undefined);
  const client = fakeClient();
  return { ack, client, done: listener({ ack, client, body: click.body, action: click.action } as never) };
}

function approvals(plan: StoredPlan) {
  const enqueueRemediate = vi.fn();
  return fakeServices({
    plans: { get: vi.fn(async () => plan) },
    policy: createApprovalPolicy({ approvers: ['U0LEAD'], rules: [], listGroupMembers: async () => [] }),
    producers: { enqueueRemediate, enqueueDiagnose: vi.fn() },
  });
}

describe('Approve', () => {
  it('a click by someone who is not an approver: refused privately, audited, nothing changed', async () => {
    const { services, audit } = approvals(stored(Date.now() + 60_000));
    const r = run(approvePlanAction(services), buttonClick('U0STRANGER', `${PLAN_ID}:${SHOWN}`));
    await r.done;
    expect(r.ack).toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: 'C1',
        user: 'U0STRANGER',
        text: expect.stringContaining('not an approver'),
      }),
    );
    expect(r.client.chat.update).not.toHaveBeenCalled();
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'not-approver', user: 'U0STRANGER' }),
    );
  });

  it("an approver's click on an expired plan: the message says expired, privately too", async () => {
    const { services } = approvals(stored(1));
    const r = run(approvePlanAction(services), buttonClick('U0LEAD', `${PLAN_ID}:${SHOWN}`));
    await r.done;
    expect(r.client.chat.update).toHaveBeenCalledWith(expect.objectContaining({ text: 'Plan expired' }));
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ user: 'U0LEAD', text: expect.stringContaining('This plan expired') }),
    );
  });

  it('a click Redis cannot take (away, or read-only during a failover): the clicker is told nothing was applied', async () => {
    const { services } = approvals(stored(Date.now() + 60_000));
    const away = new Error("Stream isn't writeable and enableOfflineQueue options is false");
    const get = vi.fn(async () => Promise.reject(away));
    Object.assign(services, { plans: { get } });
    const r = run(approvePlanAction(services), buttonClick('U0LEAD', `${PLAN_ID}:${SHOWN}`));
    await r.done;
    expect(get).toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ user: 'U0LEAD', text: expect.stringContaining('Nothing was applied') }),
    );
    expect(r.client.chat.update).not.toHaveBeenCalled();
    expect(services.producers.enqueueRemediate).not.toHaveBeenCalled();
  });

  it('past the budget (Approve and Undo start work too): refused privately, audited, the plan not even read', async () => {
    const { services, audit } = approvals(stored(Date.now() + 60_000));
    const take = vi.fn(async () => ({ ok: false as const, over: 'user' as const, retryAfterSeconds: 40 }));
    const plansGet = vi.fn();
    Object.assign(services, { commandBudget: { take }, plans: { get: plansGet } });
    const click = buttonClick('U0LEAD', `${PLAN_ID}:${SHOWN}`);
    click.action.action_id = 'undo_plan.2';
    const r = run(approvePlanAction(services), click);
    await r.done;
    // The press's own id: a try again through a failover counts once (issue 67.9).
    expect(take).toHaveBeenCalledWith('U0LEAD', 'C1', expect.any(String));
    expect(plansGet).not.toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        user: 'U0LEAD',
        text: expect.stringContaining('Not started: you started 5 runs'),
      }),
    );
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'rate-limited', planId: 'undo', user: 'U0LEAD' }),
    );
  });

  it('a payload without a channel or value: acked, nothing else', async () => {
    const { services } = approvals(stored(1));
    const click = buttonClick('U0LEAD', `${PLAN_ID}:${SHOWN}`);
    const r = run(approvePlanAction(services), {
      body: click.body,
      action: { ...click.action, value: undefined },
    } as never);
    await r.done;
    expect(r.ack).toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).not.toHaveBeenCalled();
  });
});

describe('Propose in Git', () => {
  const sealed = (plan: StoredPlan): StoredPlan => ({ ...plan, seal: sealPlan(plan, testKeys.seal) });
  function proposals(plan: StoredPlan) {
    const enqueuePropose = vi.fn(async () => ({ jobId: 'propose.1' }));
    const made = fakeServices({
      plans: { get: vi.fn(async () => plan) },
      policy: createApprovalPolicy({ approvers: ['U0LEAD'], rules: [], listGroupMembers: async () => [] }),
      producers: { enqueuePropose, enqueueDiagnose: vi.fn() },
    });
    (made.services.config as { proposeInGit?: boolean }).proposeInGit = true;
    return { ...made, enqueuePropose };
  }

  it('a press by someone who is not an approver: acked, refused privately in the thread, audited, nothing queued', async () => {
    const { services, audit, enqueuePropose } = proposals(stored(Date.now() + 60_000));
    const r = run(proposeInGitAction(services), buttonClick('U0STRANGER', `${PLAN_ID}:${SHOWN}:-`));
    await r.done;
    expect(r.ack).toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        channel: 'C1',
        user: 'U0STRANGER',
        text: expect.stringContaining('Not proposed'),
      }),
    );
    expect(r.client.chat.update).not.toHaveBeenCalled();
    expect(enqueuePropose).not.toHaveBeenCalled();
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'not-approver', planId: `propose/${PLAN_ID}` }),
    );
  });

  it('an approver’s press queues the job with their name (users.info) and the thread’s permalink', async () => {
    const plan = sealed(stored(Date.now() + 60_000));
    const { services, enqueuePropose } = proposals(plan);
    (services.config as { approvalSigningKey?: unknown }).approvalSigningKey = testKeys.approval;
    const click = buttonClick('U0LEAD', `${PLAN_ID}:${shownDigest(plan)}:-`);
    const permalink = 'https://acme.slack.com/archives/C1/p1700000000000100';
    const client = {
      ...fakeClient(),
      users: { info: vi.fn(async () => ({ user: { real_name: 'Lee `Lead`' } })) },
    };
    client.chat = { ...client.chat, getPermalink: vi.fn(async () => ({ ok: true, permalink })) } as never;
    const ack = vi.fn(async () => undefined);
    await proposeInGitAction(services)({ ack, client, body: click.body, action: click.action } as never);
    expect(enqueuePropose).toHaveBeenCalledWith(
      expect.objectContaining({
        approvedBy: ['U0LEAD'],
        names: [{ id: 'U0LEAD', name: 'Lee `Lead`' }],
        threadLink: permalink,
      }),
      expect.anything(),
    );
  });

  it('a client that can read neither: the job is queued all the same, by id, with the link built from the domain', async () => {
    const plan = sealed(stored(Date.now() + 60_000));
    const { services, enqueuePropose } = proposals(plan);
    (services.config as { approvalSigningKey?: unknown }).approvalSigningKey = testKeys.approval;
    const click = buttonClick('U0LEAD', `${PLAN_ID}:${shownDigest(plan)}:-`);
    const withTeam = { ...click, body: { ...click.body, team: { id: 'T1', domain: 'acme' } } };
    const r = run(proposeInGitAction(services), withTeam as typeof click);
    await r.done;
    const job = (enqueuePropose.mock.calls[0] as unknown[] | undefined)?.[0];
    expect(job).toMatchObject({
      approvedBy: ['U0LEAD'],
      threadLink: 'https://acme.slack.com/archives/C1/p1700000000000100',
    });
    expect(job).not.toHaveProperty('names');
  });

  it('a value that is no plan button of ours: acked, nothing else', async () => {
    const { services, enqueuePropose } = proposals(stored(Date.now() + 60_000));
    const r = run(proposeInGitAction(services), buttonClick('U0LEAD', ''));
    await r.done;
    expect(r.ack).toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).not.toHaveBeenCalled();
    expect(enqueuePropose).not.toHaveBeenCalled();
  });
});

describe('Dismiss', () => {
  it('by the person who asked: the result collapses to one line naming them', async () => {
    const { services } = fakeServices({
      subscriptions: {
        ownerOf: vi.fn(async () => ({ requestedBy: 'U0ASKER', cluster: 'prod', namespace: 'vision' })),
      },
    });
    const r = run(dismissResultAction(services), buttonClick('U0ASKER', 'dismiss'));
    await r.done;
    expect(r.client.chat.update).toHaveBeenCalledWith(
      expect.objectContaining({ text: 'Dismissed by <@U0ASKER>.' }),
    );
  });

  it('by anyone else who is not an approver: refused privately and audited; the message stays', async () => {
    const { services, audit } = fakeServices({
      subscriptions: {
        ownerOf: vi.fn(async () => ({ requestedBy: 'U0ASKER', cluster: 'prod', namespace: 'vision' })),
      },
      policy: createApprovalPolicy({ approvers: ['U0LEAD'], rules: [], listGroupMembers: async () => [] }),
    });
    const r = run(dismissResultAction(services), buttonClick('U0STRANGER', 'dismiss'));
    await r.done;
    expect(r.client.chat.update).not.toHaveBeenCalled();
    expect(r.client.chat.postEphemeral).toHaveBeenCalledWith(expect.objectContaining({ user: 'U0STRANGER' }));
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ reason: 'not-requester' }));
  });
});

describe('Re-run', () => {
  it('queues the same target for the clicker and announces it in the thread', async () => {
    const { services, enqueueDiagnose } = fakeServices();
    const r = run(rerunDiagnosisAction(services), buttonClick('U0ASKER', 'prod/vision/tracker'));
    await r.done;
    // Queued under the answer's deadline (issue 53.1: a late add is withdrawn).
    expect(enqueueDiagnose).toHaveBeenCalledWith(
      {
        mode: 'workload',
        cluster: 'prod',
        target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
        requestedBy: 'U0ASKER',
      },
      { deadline: expect.objectContaining({ left: expect.any(Function) }) },
    );
    expect(r.client.chat.postMessage).toHaveBeenCalledWith(
      expect.objectContaining({ thread_ts: '1700000000.000100' }),
    );
  });

  it('a cluster this app does not serve, or a reader refused: nothing queued', async () => {
    const { services, enqueueDiagnose } = fakeServices({
      readPolicy: { check: vi.fn(async () => ({ allowed: false, reason: 'not from this channel' })) },
    });
    await run(rerunDiagnosisAction(services), buttonClick('U0ASKER', 'staging/vision/tracker')).done;
    const refused = run(rerunDiagnosisAction(services), buttonClick('U0ASKER', 'prod/vision/tracker'));
    await refused.done;
    expect(enqueueDiagnose).not.toHaveBeenCalled();
    expect(refused.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ text: ':no_entry: Not re-run: not from this channel.' }),
    );
  });
});

describe('plan status button', () => {
  it('says who approved a claimed plan, and that an unclaimed expired one expired', async () => {
    const claimed = fakeServices({
      plans: { get: vi.fn(async () => stored(1)), claimOf: vi.fn(async () => ({ approvers: ['U0LEAD'] })) },
    });
    const a = run(planStatusAction(claimed.services), buttonClick('U0ANY', PLAN_ID));
    await a.done;
    expect(a.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({ user: 'U0ANY', text: expect.stringContaining('approved by <@U0LEAD>') }),
    );
    const expired = fakeServices({
      plans: { get: vi.fn(async () => stored(1)), claimOf: vi.fn(async () => null) },
    });
    const b = run(planStatusAction(expired.services), buttonClick('U0ANY', PLAN_ID));
    await b.done;
    expect(b.client.chat.postEphemeral).toHaveBeenCalledWith(
      expect.objectContaining({
        text: expect.stringContaining(
          'This plan expired. Press Re-run for a fresh diagnosis and plan; nothing was changed.',
        ),
      }),
    );
  });
});
