/**
 * Issue 68.1: approve()'s two guards at the claim, each on both arms, on a real Redis
 * (the plan store's claim script):
 *
 * - the claim counts people, not ids: approvals recorded while a policy listed two ids
 *   of one person apart (so the store recorded both) count once when the policy has
 *   since joined them, and the claim is let go; three people claim it;
 * - one fix per result message: once a plan of a message is approved, another plan's
 *   Approve on that message is refused before anything is recorded; the plan the
 *   message approved, or a message with none, goes on to record.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { approve } from '../../src/chat/approvals/approve.js';
import type { ApprovalClick } from '../../src/chat/approvals/approval-click.js';
import { REFUSAL_TEXT } from '../../src/chat/approvals/refusal-text.js';
import { createApprovalPolicy, type ApprovalPolicy } from '../../src/policy/approval-policy.js';
import { createPlanStore, type PlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { sealPlan, shownDigest } from '../../src/trust/plan-seal.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const DANA_SLACK = 'U0DANA';
const DANA_TEAMS = '6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90';
const SAM_SLACK = 'U0SAM';
const TARA_SLACK = 'U0TARA';
const ASKER = 'U0ASKER';
const APPROVERS = [DANA_SLACK, DANA_TEAMS, SAM_SLACK, TARA_SLACK];

let server: TestRedis;
let redis: Redis;
let producers: Producers;
const audit = { record: vi.fn() };
let planNo = 0;

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  producers = createProducers({ connection: redis, clusters: ['prod'] });
});
afterAll(async () => {
  await producers?.close();
  redis?.disconnect();
  await server?.close();
});
beforeEach(() => audit.record.mockClear());

/** A rule of `required` approvers; `joined`: the policy's people say Dana's two ids are one person. */
function policyOf(required: number, joined: boolean): ApprovalPolicy {
  return createApprovalPolicy({
    approvers: [],
    rules: [{ approvers: APPROVERS, requiredApprovals: required }],
    people: joined ? [{ name: 'Dana Lee', ids: [DANA_SLACK, DANA_TEAMS] }] : [],
    listGroupMembers: async () => [],
  });
}

async function storedPlan(): Promise<StoredPlan> {
  planNo += 1;
  const stored: StoredPlan = {
    plan: {
      id: `set-recreate-arms-${planNo}`,
      kind: 'set-recreate',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      summary: 'Switch to Recreate',
      impact: 'outage',
      warnings: [],
      patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } },
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

/** The message's approved plan as the subscriptions hold it: `held` (null: none yet). */
function services(policy: ApprovalPolicy, options: { held?: string | null; plans?: PlanStore } = {}) {
  let held = options.held ?? null;
  return {
    plans: options.plans ?? createPlanStore(redis),
    policy,
    audit,
    producers,
    metrics: { remediations: { inc: () => undefined } },
    subscriptions: {
      approvedPlanOf: async () => held,
      claimMessagePlan: async (_m: unknown, planId: string) => {
        held ??= planId;
        return held;
      },
      releaseMessagePlan: async () => {
        held = null;
      },
    },
    config: {
      approvalSigningKey: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
    },
    logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
  } as never;
}

const click = (user: string, stored: StoredPlan): ApprovalClick => ({
  user,
  channel: 'C0OPS',
  messageTs: '1700000000.000100',
  rootTs: '1700000000.000100',
  planId: stored.plan.id,
  shown: shownDigest(stored),
  requester: ASKER,
});

describe('the claim counts people, whatever the store recorded', () => {
  it("refuses a claim whose approvals are one person's two ids, joined by the policy since; releases it", async () => {
    const stored = await storedPlan();
    const enqueued = vi.spyOn(producers, 'enqueueRemediate');
    // Recorded while the policy listed Dana's ids apart: the store took them as two people.
    const before = services(policyOf(3, false));
    expect(await approve(before, click(DANA_SLACK, stored))).toMatchObject({
      kind: 'recorded',
      approvals: 1,
    });
    expect(await approve(before, click(DANA_TEAMS, stored))).toMatchObject({
      kind: 'recorded',
      approvals: 2,
    });
    // The policy now joins them: Sam's approval makes three ids, two people, of three needed.
    const answer = await approve(services(policyOf(3, true)), click(SAM_SLACK, stored));
    expect(answer).toEqual({ kind: 'refused', text: REFUSAL_TEXT.samePerson });
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({
        action: 'refusal',
        reason: 'same-approver',
        detail: expect.stringContaining(DANA_TEAMS),
      }),
    );
    // Let go, approvals and all: nothing stands to be applied, and it can be approved again.
    expect(await createPlanStore(redis).claimOf(stored.plan.id)).toBeUndefined();
    expect(await redis.scard(`rd:plan:${stored.plan.id}:approvals`)).toBe(0);
    expect(enqueued).not.toHaveBeenCalled();
    enqueued.mockRestore();
  });

  it('three people claim it, each named once', async () => {
    const stored = await storedPlan();
    const s = services(policyOf(3, true));
    expect(await approve(s, click(DANA_TEAMS, stored))).toMatchObject({ kind: 'recorded', approvals: 1 });
    expect(await approve(s, click(SAM_SLACK, stored))).toMatchObject({ kind: 'recorded', approvals: 2 });
    const claimed = await approve(s, click(TARA_SLACK, stored));
    expect(claimed).toMatchObject({ kind: 'approved' });
    expect(claimed.kind === 'approved' ? [...claimed.approvers].sort() : []).toEqual(
      [DANA_SLACK, SAM_SLACK, TARA_SLACK].sort(),
    );
  });
});

describe('one fix per result message', () => {
  it("refuses another plan's Approve on a message whose plan was approved, before recording anything", async () => {
    const stored = await storedPlan();
    const plans = createPlanStore(redis);
    const recording = vi.spyOn(plans, 'approve');
    // A two-person rule: were the approval recorded first, the answer would be "recorded".
    const answer = await approve(
      services(policyOf(2, true), { held: 'set-recreate-other', plans }),
      click(SAM_SLACK, stored),
    );
    expect(answer).toEqual({ kind: 'refused', text: REFUSAL_TEXT.otherPlan });
    expect(recording).not.toHaveBeenCalled();
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ reason: 'other-plan-approved', detail: 'set-recreate-other' }),
    );
    expect(await redis.scard(`rd:plan:${stored.plan.id}:approvals`)).toBe(0);
  });

  it('records on a message with no approved plan, and on the one whose plan it is', async () => {
    const stored = await storedPlan();
    expect(await approve(services(policyOf(2, true)), click(SAM_SLACK, stored))).toMatchObject({
      kind: 'recorded',
      approvals: 1,
    });
    const same = services(policyOf(2, true), { held: stored.plan.id });
    expect(await approve(same, click(TARA_SLACK, stored))).toMatchObject({ kind: 'approved' });
  });
});
