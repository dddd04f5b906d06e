/**
 * Issue 65.5: how long a node exclusion lasts is picked at the approval, and is part of
 * what is approved. approve() on a real Redis (the plan store's claim script): the
 * chosen duration is signed into the approval the worker verifies (its `lasts`), named
 * in the audit event and the outcome; a duration sent for a plan that writes no
 * exclusion is refused; under a two-person rule the first duration recorded is binding,
 * a second approver pressing with another is refused and told it, and with the same one
 * claims the plan.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { approve } from '../../src/chat/approvals/approve.js';
import type { ApprovalClick } from '../../src/chat/approvals/approval-click.js';
import { plainText } from '../../src/message/rich.js';
import { createApprovalPolicy } from '../../src/policy/approval-policy.js';
import { createPlanStore, type StoredPlan } from '../../src/queue/plan-store.js';
import type { Producers } from '../../src/queue/producers.js';
import { annotationPointer, EXCLUSION_ANNOTATIONS } from '../../src/remediation/exclusion-record.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { verifyApproval, type SignedApproval } from '../../src/trust/approval-signature.js';
import { planDigest, sealPlan, shownDigest } from '../../src/trust/plan-seal.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const ANN = 'U0ANN';
const BEN = 'U0BEN';
const ASKER = 'U0ASKER';

let server: TestRedis;
let redis: Redis;
const audit = { record: vi.fn() };
let jobs: { approval: SignedApproval }[] = [];
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

/** An exclude-node plan whose record ends 24h after the apply (the configured default), or another kind. */
async function storedPlan(kind: 'exclude-node' | 'set-recreate' = 'exclude-node'): Promise<StoredPlan> {
  planNo += 1;
  const patch =
    kind === 'exclude-node'
      ? {
          type: 'json',
          body: [
            { op: 'test', path: '/metadata/generation', value: 1 },
            { op: 'add', path: annotationPointer(EXCLUSION_ANNOTATIONS.setAt), value: '$NOW' },
            { op: 'add', path: annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt), value: '$NOW+24h' },
          ],
        }
      : { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate' } } } };
  const stored: StoredPlan = {
    plan: {
      id: `${kind}-duration-${planNo}`,
      kind,
      target: { kind: 'Deployment', namespace: 'shop', name: 'checkout' },
      summary: 'Keep checkout off node-b',
      impact: 'The exclusion ends after 24h.',
      warnings: [],
      patch,
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

function services(required: number) {
  const messagePlans = new Map<string, string>();
  const producers = {
    enqueueRemediate: async (job: { approval: SignedApproval }) => {
      jobs.push(job);
    },
  } as unknown as Producers;
  return {
    plans: createPlanStore(redis),
    policy: createApprovalPolicy({
      approvers: [],
      rules: [{ approvers: [ANN, BEN, ASKER], requiredApprovals: required }],
      listGroupMembers: async () => [],
    }),
    audit,
    producers,
    metrics: { remediations: { inc: () => undefined } },
    subscriptions: {
      approvedPlanOf: async () => null,
      claimMessagePlan: async (m: { channel: string; ts: string }, planId: string) => {
        const key = `${m.channel}/${m.ts}`;
        if (!messagePlans.has(key)) messagePlans.set(key, planId);
        return messagePlans.get(key) ?? null;
      },
      releaseMessagePlan: async () => undefined,
    },
    config: {
      approvalSigningKey: { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
    },
    logger: { warn: () => undefined, error: () => undefined, info: () => undefined },
  } as never;
}

const click = (user: string, stored: StoredPlan, lasts?: ApprovalClick['lasts']): ApprovalClick => ({
  user,
  channel: 'C0OPS',
  messageTs: '1700000000.000100',
  rootTs: '1700000000.000100',
  planId: stored.plan.id,
  shown: shownDigest(stored),
  requester: ASKER,
  ...(lasts ? { lasts } : {}),
});

/** The one job queued, its approval verified as a worker verifies it. */
function verifiedClaims(stored: StoredPlan, approvers: string[]) {
  expect(jobs).toHaveLength(1);
  const verdict = verifyApproval(jobs[0]?.approval, testKeys.approval.publicKeys, {
    planId: stored.plan.id,
    digest: planDigest(stored),
    cluster: 'prod',
    now: Date.now(),
    channel: 'C0OPS',
    messageTs: '1700000000.000100',
    approvedBy: approvers,
  });
  if (!verdict.ok) throw new Error(verdict.reason);
  return verdict.claims;
}

const textOf = (outcome: Awaited<ReturnType<typeof approve>>): string =>
  plainText(outcome.kind === 'refused' ? outcome.text : []);

describe('one approver picks how long the exclusion lasts', () => {
  it('the chosen duration is signed into the approval, audited and answered', async () => {
    const stored = await storedPlan();
    const outcome = await approve(services(1), click(ANN, stored, '3d'));
    expect(outcome).toMatchObject({ kind: 'approved', ttl: '3d' });
    expect(verifiedClaims(stored, [ANN]).lasts).toBe('3d');
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'approval', result: 'claimed', lasts: '3d' }),
    );
  });

  it('until removed is a choice like any other', async () => {
    const stored = await storedPlan();
    expect(await approve(services(1), click(ANN, stored, 'until-removed'))).toMatchObject({
      kind: 'approved',
      ttl: 'until-removed',
    });
    expect(verifiedClaims(stored, [ANN]).lasts).toBe('until-removed');
  });

  it("no choice is the plan's own duration: nothing extra signed, the plan's duration audited", async () => {
    const stored = await storedPlan();
    expect(await approve(services(1), click(ANN, stored))).toMatchObject({ kind: 'approved', ttl: '24h' });
    expect(verifiedClaims(stored, [ANN])).not.toHaveProperty('lasts');
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ action: 'approval', lasts: '24h' }));
  });

  it('a duration for a plan that writes no exclusion is refused, nothing queued', async () => {
    const stored = await storedPlan('set-recreate');
    const outcome = await approve(services(1), click(ANN, stored, '7d'));
    expect(outcome.kind).toBe('refused');
    expect(textOf(outcome)).toContain('this plan writes no exclusion');
    expect(jobs).toHaveLength(0);
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'refusal', reason: 'not-offered' }),
    );
    expect(await createPlanStore(redis).claimOf(stored.plan.id)).toBeUndefined();
  });
});

describe('two-person rule: the duration is part of what both approve', () => {
  it('a second approver pressing with another duration is refused and told the first; the first stays binding', async () => {
    const stored = await storedPlan();
    const s = services(2);
    expect(await approve(s, click(ANN, stored, '4h'))).toMatchObject({ kind: 'recorded', ttl: '4h' });
    const other = await approve(s, click(BEN, stored));
    expect(other.kind).toBe('refused');
    expect(textOf(other)).toContain('exclusion lasting 4h, and you chose 24h');
    expect(audit.record).toHaveBeenCalledWith(
      expect.objectContaining({ action: 'refusal', reason: 'other-duration', user: BEN }),
    );
    expect(await createPlanStore(redis).claimOf(stored.plan.id)).toBeUndefined();
    expect(jobs).toHaveLength(0);
    // Ann's approval still stands: Ben choosing 4h claims the plan for 4h.
    const claimed = await approve(s, click(BEN, stored, '4h'));
    expect(claimed).toMatchObject({ kind: 'approved', ttl: '4h' });
    expect(verifiedClaims(stored, [ANN, BEN]).lasts).toBe('4h');
  });

  it("the plan's own duration chosen by name counts with no choice", async () => {
    const stored = await storedPlan();
    const s = services(2);
    expect(await approve(s, click(ANN, stored))).toMatchObject({ kind: 'recorded', ttl: '24h' });
    expect(await approve(s, click(BEN, stored, '24h'))).toMatchObject({ kind: 'approved', ttl: '24h' });
    expect(verifiedClaims(stored, [ANN, BEN])).not.toHaveProperty('lasts');
  });

  it('a mark for one duration does not count for another (Redis rewritten to say otherwise)', async () => {
    const stored = await storedPlan();
    const s = services(2);
    await approve(s, click(ANN, stored, '7d'));
    // Someone with Redis write access relabels the recorded approvals as given for 4h.
    await redis.set(`rd:plan:${stored.plan.id}:approvals-shown`, `${shownDigest(stored)}~4h`);
    const outcome = await approve(s, click(BEN, stored, '4h'));
    expect(outcome.kind).toBe('refused');
    expect(audit.record).toHaveBeenCalledWith(expect.objectContaining({ reason: 'tampered' }));
    expect(jobs).toHaveLength(0);
  });
});
