/**
 * Issue 54.3: the two-person rule counts people, not ids. The policy's `people:` joins a
 * Slack id and an Entra object id into one person; approve() on a real Redis (the plan
 * store's claim script, the remediate queue) then records one person once whichever id
 * they press with, leaves a requester out whichever id they approve with, names each
 * person once, and releases at once a claim whose job is then refused.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { approve } from '../../src/chat/approvals/approve.js';
import type { ApprovalClick } from '../../src/chat/approvals/approval-click.js';
import { plainText } from '../../src/message/rich.js';
import { approversText } from '../../src/chat/use-cases/approvers.js';
import { createApprovalPolicy, policyFileSchema } from '../../src/policy/approval-policy.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { sealPlan, shownDigest } from '../../src/trust/plan-seal.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const DANA_SLACK = 'U0DANA';
const DANA_TEAMS = '6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90';
const SAM_SLACK = 'U0SAM';
const TARA_TEAMS = 'a3e9b1c4-7d2f-4e6a-8b0c-5f1d3e2a9c7b';
const ASKER = 'U0ASKER';
const TEAMS_CHANNEL = '19:ops@thread.tacv2';

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

const policy = createApprovalPolicy({
  approvers: [],
  rules: [{ approvers: [DANA_SLACK, SAM_SLACK, TARA_TEAMS, ASKER], requiredApprovals: 2 }],
  people: [{ name: 'Dana Lee', ids: [DANA_SLACK, DANA_TEAMS] }],
  names: { [DANA_SLACK]: 'Dana Lee', [DANA_TEAMS]: 'Dana Lee' },
  listGroupMembers: async () => [],
});

async function storedPlan(): Promise<StoredPlan> {
  planNo += 1;
  const stored: StoredPlan = {
    plan: {
      id: `set-recreate-people-${planNo}`,
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

function services(overrides: { producers?: Producers } = {}) {
  const messagePlans = new Map<string, string>();
  return {
    plans: createPlanStore(redis),
    policy,
    audit,
    producers: overrides.producers ?? producers,
    metrics: { remediations: { inc: () => undefined } },
    subscriptions: {
      approvedPlanOf: async () => null,
      claimMessagePlan: async (m: { channel: string; ts: string }, planId: string) => {
        const key = `${m.channel}/${m.ts}`;
        if (!messagePlans.has(key)) messagePlans.set(key, planId);
        return messagePlans.get(key) ?? null;
      },
      releaseMessagePlan: async (m: { channel: string; ts: string }) => {
        messagePlans.delete(`${m.channel}/${m.ts}`);
      },
    },
    config: {
      approvalSigningKey: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
    },
    logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
  } as never;
}

const onSlack = (user: string, stored: StoredPlan): ApprovalClick => ({
  user,
  channel: 'C0OPS',
  messageTs: '1700000000.000100',
  rootTs: '1700000000.000100',
  planId: stored.plan.id,
  shown: shownDigest(stored),
  requester: ASKER,
});
const onTeams = (user: string, stored: StoredPlan): ApprovalClick => ({
  ...onSlack(user, stored),
  platform: 'teams',
  channel: TEAMS_CHANNEL,
  messageTs: '1732600000001',
  rootTs: '1732600000001',
});

describe('the two-person rule counts people', () => {
  it('one person on Slack and again on Teams is one approval; another person then claims it, once', async () => {
    const stored = await storedPlan();
    const s = services();
    expect(await approve(s, onSlack(DANA_SLACK, stored))).toMatchObject({ kind: 'recorded', approvals: 1 });
    const again = await approve(s, onTeams(DANA_TEAMS, stored));
    expect(again).toMatchObject({ kind: 'refused' });
    expect(plainText(again.kind === 'refused' ? again.text : [])).toContain('You already approved this plan');
    expect(await createPlanStore(redis).claimOf(stored.plan.id)).toBeUndefined();
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ reason: 'same-approver' }));
    const claimed = await approve(s, onSlack(SAM_SLACK, stored));
    expect(claimed).toMatchObject({ kind: 'approved' });
    expect(claimed.kind === 'approved' ? [...claimed.approvers].sort() : []).toEqual([DANA_SLACK, SAM_SLACK]);
  });

  it('the requester is left out whichever id they approve with', async () => {
    const stored = await storedPlan();
    const asked = { ...onTeams(DANA_TEAMS, stored), requester: DANA_SLACK };
    expect(await approve(services(), asked)).toMatchObject({ kind: 'refused' });
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ reason: 'self-approval' }));
  });

  it('a Slack-only and a Teams-only approver together: queued, each named by the id they have', async () => {
    const stored = await storedPlan();
    const s = services();
    expect(await approve(s, onTeams(TARA_TEAMS, stored))).toMatchObject({ kind: 'recorded' });
    const claimed = await approve(s, onSlack(SAM_SLACK, stored));
    expect(claimed).toMatchObject({ kind: 'approved' });
    expect(claimed.kind === 'approved' ? [...claimed.approvers].sort() : []).toEqual(
      [SAM_SLACK, TARA_TEAMS].sort(),
    );
  });

  it('a claim whose job is refused after it was made is released at once', async () => {
    const stored = await storedPlan();
    const refusing: Producers = {
      ...producers,
      enqueueRemediate: async () => {
        throw new Error('the job schema refused it');
      },
    };
    const s = services({ producers: refusing });
    await approve(s, onSlack(DANA_SLACK, stored));
    const refused = await approve(s, onSlack(SAM_SLACK, stored));
    expect(refused).toMatchObject({ kind: 'refused' });
    expect(plainText(refused.kind === 'refused' ? refused.text : [])).not.toContain('Redis did not take it');
    expect(await createPlanStore(redis).claimOf(stored.plan.id)).toBeUndefined();
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ outcome: 'not-queued' }));
    // Approvable again at once, and then applied once.
    const ok = services();
    await approve(ok, onSlack(DANA_SLACK, stored));
    expect(await approve(ok, onSlack(SAM_SLACK, stored))).toMatchObject({ kind: 'approved' });
  });

  it('a claim rewritten in Redis with one person under two ids is never named twice', async () => {
    const stored = await storedPlan();
    await redis.set(
      `rd:plan:${stored.plan.id}:claim`,
      `${DANA_SLACK}~x,${DANA_TEAMS}~y,${DANA_SLACK}~z|${Date.now()}`,
    );
    const answer = await approve(services(), onSlack(SAM_SLACK, stored));
    const text = plainText(answer.kind === 'refused' ? answer.text : []);
    expect(text).toContain('already approved by');
    expect(text).not.toMatch(/ and /);
  });
});

describe('names: each person once', () => {
  it('never "approved by X and X"', () => {
    const names = { [DANA_TEAMS]: 'Dana Lee', [DANA_SLACK]: 'Dana Lee' };
    const personOf = policy.personOf;
    expect(plainText(approversText('teams', [DANA_SLACK, DANA_TEAMS], names, personOf))).toBe('Dana Lee');
    expect(plainText(approversText('teams', [DANA_TEAMS, DANA_TEAMS.toUpperCase()], names))).toBe('Dana Lee');
    expect(plainText(approversText('slack', [SAM_SLACK, SAM_SLACK]))).not.toContain(' and ');
    // A Teams id on a Slack message is named, never mentioned as an id.
    expect(plainText(approversText('slack', [SAM_SLACK, TARA_TEAMS]))).toMatch(/ and an approver$/);
  });
});

describe('the policy file', () => {
  it('keeps old files valid, joins ids into people, and refuses an id in two people or a group', () => {
    expect(policyFileSchema.parse({ rules: [{ approvers: [DANA_SLACK] }] }).people).toEqual([]);
    const file = policyFileSchema.parse({
      rules: [],
      people: [{ name: 'Dana Lee', ids: [DANA_SLACK, DANA_TEAMS.toUpperCase()] }],
    });
    expect(file.people[0]?.ids).toEqual([DANA_SLACK, DANA_TEAMS]);
    expect(file.names[DANA_TEAMS]).toBe('Dana Lee');
    expect(
      policyFileSchema.safeParse({ people: [{ ids: [DANA_SLACK] }, { ids: [DANA_SLACK, DANA_TEAMS] }] })
        .success,
    ).toBe(false);
    expect(policyFileSchema.safeParse({ people: [{ ids: ['S0GROUP'] }] }).success).toBe(false);
    expect(policyFileSchema.safeParse({ people: [{ ids: [DANA_SLACK], email: 'x' }] }).success).toBe(false);
  });

  it('a person listed by one id approves with another of theirs', async () => {
    const byTeams = await policy.check(DANA_TEAMS, { cluster: 'prod', namespace: 'shop' });
    expect(byTeams).toMatchObject({ allowed: true, required: 2 });
    expect(
      await policy.check(TARA_TEAMS.replace('a', 'b'), { cluster: 'prod', namespace: 'shop' }),
    ).toMatchObject({
      allowed: false,
    });
  });
});
