/**
 * Issue 66.4: the "Propose in Git" press, decided as an Approve is, on a real Redis (the
 * plan store, the two-person marks). A non-approver is refused and nothing is queued; an
 * approver's press queues one job whose approval verifies for the proposal of exactly the
 * stored plan and for nothing else (not as an approval to apply it); a press naming a plan
 * the message did not show (another plan's digest, an unknown id) is refused; under a
 * two-person rule the first approver is recorded, the requester refused, the second
 * queues it with both. No GitOps owner (or the setting off): no button.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PressRequest } from '../../src/chat/adapter.js';
import { createProposalApprovals } from '../../src/chat/approvals/proposal-approvals.js';
import { plainText } from '../../src/message/rich.js';
import { trusted } from '../../src/chat/slack/blocks/mrkdwn.js';
import { markPlanInBlocks } from '../../src/chat/slack/mark.js';
import { proposePress } from '../../src/chat/use-cases/propose-press.js';
import { proposeButton } from '../../src/chat/use-cases/result.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { createApprovalPolicy } from '../../src/policy/approval-policy.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import type { Producers } from '../../src/queue/producers.js';
import type { RemediateJob } from '../../src/queue/schemas.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { proposalOf, verifyApproval } from '../../src/trust/approval-signature.js';
import { planDigest, sealPlan, shownDigest } from '../../src/trust/plan-seal.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const ANN = 'U0ANN';
const BEN = 'U0BEN';
const ASKER = 'U0ASKER';
const STRANGER = 'U0STRANGER';

let server: TestRedis;
let redis: Redis;
const audit = { record: vi.fn() };
let jobs: RemediateJob[] = [];
let planNo = 0;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});
beforeEach(() => {
  audit.record.mockClear();
  jobs = [];
});

async function storedPlan(): Promise<StoredPlan> {
  planNo += 1;
  const stored: StoredPlan = {
    plan: {
      id: `set-rolling-update-propose-${planNo}`,
      kind: 'set-rolling-update',
      addresses: 'RolloutSurgeDeadlock',
      target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
      summary: 'Let old pods go first',
      impact: 'One pod at a time.',
      warnings: [],
      patch: {
        type: 'strategic-merge',
        body: { spec: { strategy: { rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } } } },
      },
      preconditions: { uid: 'u', generation: 1, fields: [] },
      inverse: null,
    } as unknown as RemediationPlan,
    cluster: 'prod',
    createdAt: Date.now(),
    expiresAt: Date.now() + 600_000,
  };
  const sealed = { ...stored, seal: sealPlan(stored, testKeys.seal) };
  await createPlanStore(redis).save(sealed);
  return sealed;
}

function services(required: number, options: { proposeInGit?: boolean } = {}) {
  const producers = {
    enqueuePropose: async (job: RemediateJob) => {
      jobs.push(job);
      return { jobId: `propose.${job.planId}` };
    },
  } as unknown as Producers;
  return {
    plans: createPlanStore(redis),
    policy: createApprovalPolicy({
      approvers: [],
      rules: [{ approvers: [ANN, BEN, ASKER], requiredApprovals: required }],
      listGroupMembers: async () => [],
    }),
    proposals: createProposalApprovals(redis),
    audit,
    producers,
    metrics: { remediations: { inc: () => undefined }, commands: { inc: () => undefined } },
    subscriptions: { ownerOf: async () => null },
    config: {
      proposeInGit: options.proposeInGit ?? true,
      approvalSigningKey: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
    },
    logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
  } as never;
}

function press(user: string, stored: StoredPlan, shown = shownDigest(stored), planId = stored.plan.id) {
  const message = { conversation: { platform: 'slack', id: 'C0OPS' }, id: '1700000000.000200' };
  const request = {
    person: { platform: 'slack', id: user },
    message,
    root: { conversation: message.conversation, id: '1700000000.000100' },
    action: { kind: 'propose', planId, shown, requester: ASKER },
  } as unknown as PressRequest;
  return { request, action: { kind: 'propose' as const, planId, shown, requester: ASKER } };
}

const said = (reply: Awaited<ReturnType<typeof proposePress>>): string =>
  reply.tell ? plainText(reply.tell.summary) : '';

function verified(stored: StoredPlan, job: RemediateJob | undefined, planId: string) {
  return verifyApproval(job?.approval, testKeys.approval.publicKeys, {
    planId,
    digest: planDigest(stored),
    cluster: 'prod',
    now: Date.now(),
    platform: job?.platform,
    channel: 'C0OPS',
    messageTs: '1700000000.000100',
    approvedBy: job?.approvedBy ?? [],
  });
}

describe('Propose in Git: the press', () => {
  it('refuses a person the approval policy does not list, queues nothing, and audits it', async () => {
    const stored = await storedPlan();
    const { request, action } = press(STRANGER, stored);
    const reply = await proposePress(services(1), request, action);
    expect(said(reply)).toMatch(/^Not proposed: .*Nothing was pushed/);
    expect(jobs).toEqual([]);
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'refusal',
        planId: proposalOf(stored.plan.id),
        user: STRANGER,
        reason: 'not-approver',
      }),
    );
  });

  it("queues an approver's press once, signed for the proposal of exactly that plan and for nothing else", async () => {
    const stored = await storedPlan();
    const { request, action } = press(ANN, stored);
    const reply = await proposePress(services(1), request, action);
    expect(said(reply)).toContain('Proposing set-rolling-update in Git');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ planId: stored.plan.id, cluster: 'prod', approvedBy: [ANN] });
    expect(verified(stored, jobs[0], proposalOf(stored.plan.id)).ok).toBe(true);
    // Never an approval to apply the plan live.
    expect(verified(stored, jobs[0], stored.plan.id)).toMatchObject({ ok: false });
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'approval', planId: proposalOf(stored.plan.id), result: 'claimed' }),
    );
  });

  it('refuses a plan the message did not show: another plan id under its digest, or an unknown id', async () => {
    const shownOne = await storedPlan();
    const other = await storedPlan();
    const swapped = press(ANN, shownOne, shownDigest(shownOne), other.plan.id);
    expect(said(await proposePress(services(1), swapped.request, swapped.action))).toMatch(
      /^Not proposed: the stored plan is not what the message showed/,
    );
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'refusal', planId: proposalOf(other.plan.id), reason: 'tampered' }),
    );
    const unknown = press(ANN, shownOne, shownDigest(shownOne), 'no-such-plan');
    expect(said(await proposePress(services(1), unknown.request, unknown.action))).toMatch(/no longer known/);
    expect(jobs).toEqual([]);
  });

  it('under a two-person rule: records the first, refuses the requester, queues with the second', async () => {
    const stored = await storedPlan();
    const two = services(2);
    const first = press(ANN, stored);
    expect(said(await proposePress(two, first.request, first.action))).toContain('(1/2)');
    expect(jobs).toEqual([]);
    const asker = press(ASKER, stored);
    expect(said(await proposePress(two, asker.request, asker.action))).toMatch(
      /you asked for this diagnosis/,
    );
    expect(jobs).toEqual([]);
    const second = press(BEN, stored);
    expect(said(await proposePress(two, second.request, second.action))).toContain('Proposing');
    expect(jobs).toHaveLength(1);
    expect([...(jobs[0]?.approvedBy ?? [])].sort()).toEqual([ANN, BEN]);
    expect(verified(stored, jobs[0], proposalOf(stored.plan.id)).ok).toBe(true);
  });

  it('says it is not set up, and queues nothing, where the app does not offer it', async () => {
    const stored = await storedPlan();
    const { request, action } = press(ANN, stored);
    const reply = await proposePress(services(1, { proposeInGit: false }), request, action);
    expect(said(reply)).toContain('not set up');
    expect(jobs).toEqual([]);
  });
});

describe('Propose in Git: the button', () => {
  const diagnosis = (tool?: string) =>
    ({ managedBy: tool ? { tool, name: 'shop' } : undefined }) as Diagnosis;
  const open = { state: 'open' as const, expiresAt: Date.now() + 60_000 };

  it('is offered beside Apply for a GitOps-owned workload, naming the plan as shown', async () => {
    const stored = await storedPlan();
    const button = proposeButton(stored, open, {
      diagnosis: diagnosis('argocd'),
      proposeInGit: true,
      requester: ASKER,
    });
    expect(button?.label).toBe('Propose in Git');
    expect(button?.action).toEqual({
      kind: 'propose',
      planId: stored.plan.id,
      shown: shownDigest(stored),
      requester: ASKER,
    });
  });

  it('is not offered with no GitOps owner, with the setting off, or for an approved plan', async () => {
    const stored = await storedPlan();
    const on = { proposeInGit: true, requester: ASKER };
    expect(proposeButton(stored, open, { ...on, diagnosis: diagnosis() })).toBeNull();
    expect(proposeButton(stored, open, { ...on, diagnosis: diagnosis('kubectl') })).toBeNull();
    expect(proposeButton(stored, open, { ...on, diagnosis: diagnosis('helm') })).toBeNull();
    expect(proposeButton(stored, open, { diagnosis: diagnosis('argocd'), requester: ASKER })).toBeNull();
    const claimed = { state: 'claimed' as const, approvers: [ANN], at: Date.now() };
    expect(proposeButton(stored, claimed, { ...on, diagnosis: diagnosis('flux-kustomize') })).toBeNull();
  });
});

describe('Propose in Git: an approval mark on the message', () => {
  const digest = 'a'.repeat(64);
  const button = (actionId: string, plan: string) => ({
    type: 'button',
    action_id: actionId,
    value: `${plan}:${digest}:${ASKER}`,
    text: { type: 'plain_text', text: actionId },
  });

  it("keeps the approved plan's Propose in Git, withdraws the other plans', and repeats no action id (Slack)", () => {
    const blocks = [
      {
        type: 'actions',
        elements: [
          button('approve_plan.0', 'plan-a'),
          button('propose_plan.0', 'plan-a'),
          button('approve_plan.1', 'plan-b'),
          button('propose_plan.1', 'plan-b'),
        ],
      },
    ];
    const marked = markPlanInBlocks(blocks, 'plan-a', 'Approved: set-rolling-update', trusted('approved'), {
      withdrawOthers: true,
    });
    const ids = marked.flatMap((b) =>
      b.type === 'actions' ? (b.elements as { action_id: string }[]).map((e) => e.action_id) : [],
    );
    expect(ids).toEqual(['plan_status.0', 'propose_plan.0']);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
