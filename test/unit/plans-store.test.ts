import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planDigest, shownDigest } from '../../src/trust/plan-seal.js';
import { createApprovalPolicy, matchRule } from '../../src/policy/approval-policy.js';
import { createPlanStore, ORPHAN_CLAIM_MS, type StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const plan = (id: string): RemediationPlan => ({
  id,
  kind: 'set-recreate',
  target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
  summary: 's',
  impact: 'i',
  warnings: [],
  patch: { type: 'merge', body: {} },
  preconditions: { uid: 'u', generation: 1, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
});

describe('plan store', () => {
  let redis: TestRedis;
  let client: Redis;
  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
  });
  afterAll(async () => {
    client?.disconnect();
    await redis?.close();
  });
  const stored = (id: string, expiresAt = Date.now() + 60_000): StoredPlan => ({
    plan: plan(id),
    cluster: 'default',
    createdAt: Date.now(),
    expiresAt,
  });

  /** The digest of the plan as a message shows it (what an Apply button carries). */
  const shown = (id: string): string => shownDigest(stored(id));

  it('claims exactly once among 20 concurrent approvals', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-once'));
    const users = Array.from({ length: 20 }, (_, i) => `U${100 + i}`);
    const results = await Promise.all(users.map((u) => store.approve('p-once', u, 1, shown('p-once'))));
    expect(results.filter((r) => r.status === 'claimed')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'already-claimed')).toHaveLength(19);
  });

  it('refuses an expired plan and an unknown one', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-old', Date.now() - 1));
    expect((await store.approve('p-old', 'U1', 1, shown('p-old'))).status).toBe('expired');
    expect((await store.approve('p-never', 'U1', 1, shown('p-never'))).status).toBe('unknown');
    expect(await store.claimOf('p-old')).toBeUndefined();
  });

  it('needs two distinct approvers under a two-person rule', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-two'));
    expect((await store.approve('p-two', 'U1', 2, shown('p-two'))).status).toBe('recorded');
    expect((await store.approve('p-two', 'U1', 2, shown('p-two'))).status).toBe('same-approver');
    const done = await store.approve('p-two', 'U2', 2, shown('p-two'));
    expect(done.status).toBe('claimed');
    expect((await store.claimOf('p-two'))?.approvers.sort()).toEqual(['U1', 'U2']);
  });

  it('does not count an approval given to an expired earlier copy of the same plan', async () => {
    const store = createPlanStore(client);
    const now = Date.now();
    await store.save(stored('p-stale', now + 1_000));
    expect((await store.approve('p-stale', 'U1', 2, shown('p-stale'), now)).status).toBe('recorded');
    expect((await store.approve('p-stale', 'U2', 2, shown('p-stale'), now + 2_000)).status).toBe('expired');
    // A re-run of the unchanged Deployment saves the same plan id again.
    await store.save(stored('p-stale', now + 60_000));
    expect((await store.approve('p-stale', 'U2', 2, shown('p-stale'), now + 3_000)).status).toBe('recorded');
    const done = await store.approve('p-stale', 'U1', 2, shown('p-stale'), now + 4_000);
    expect(done.status).toBe('claimed');
  });

  it('records nothing for a plan that is not what the approver was shown', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-shown'));
    const other = shownDigest({
      ...stored('p-shown'),
      plan: { ...plan('p-shown'), summary: 'something else' },
    });
    expect((await store.approve('p-shown', 'U1', 1, other)).status).toBe('changed');
    expect(await store.claimOf('p-shown')).toBeUndefined();
    expect((await store.approve('p-shown', 'U1', 1, shown('p-shown'))).status).toBe('claimed');
  });

  it('counts two approvals only when both approvers were shown the same plan', async () => {
    const store = createPlanStore(client);
    const first = stored('p-two-shown');
    await store.save(first);
    expect((await store.approve('p-two-shown', 'U1', 2, shownDigest(first))).status).toBe('recorded');
    // The stored plan is replaced by one that reads differently (a later diagnosis, or
    // a writer in Redis) and the second approver is shown that one.
    const second = { ...first, plan: { ...first.plan, impact: 'no outage at all' } };
    await client.hset('rd:plan:p-two-shown', 'json', JSON.stringify(second));
    expect((await store.approve('p-two-shown', 'U2', 2, shownDigest(second))).status).toBe('recorded');
    expect(await store.claimOf('p-two-shown')).toBeUndefined();
    const done = await store.approve('p-two-shown', 'U3', 2, shownDigest(second));
    expect(done.status).toBe('claimed');
    expect((await store.claimOf('p-two-shown'))?.approvers.sort()).toEqual(['U2', 'U3']);
  });

  it('lets go of a claim whose job was never queued, after ORPHAN_CLAIM_MS, and only then', async () => {
    const store = createPlanStore(client);
    const now = Date.now();
    await store.save(stored('p-orphan'));
    expect((await store.approve('p-orphan', 'U1', 1, shown('p-orphan'), now)).status).toBe('claimed');
    // The job add met a read-only Redis: no job. Within the grace the claim holds.
    const early = await store.approve('p-orphan', 'U2', 1, shown('p-orphan'), now + ORPHAN_CLAIM_MS - 1);
    expect(early.status).toBe('already-claimed');
    // Past it, the claim and its approvals go: the same approver may approve again.
    const again = await store.approve('p-orphan', 'U1', 1, shown('p-orphan'), now + ORPHAN_CLAIM_MS + 1);
    expect(again.status).toBe('claimed');
    expect((await store.claimOf('p-orphan'))?.at).toBe(now + ORPHAN_CLAIM_MS + 1);
  });

  it('keeps a claim whose job is queued (or done), however old', async () => {
    const store = createPlanStore(client);
    const now = Date.now();
    await store.save(stored('p-queued'));
    expect((await store.approve('p-queued', 'U1', 1, shown('p-queued'), now)).status).toBe('claimed');
    await client.hset('rd:remediate.default:remediate.p-queued', 'name', 'remediate');
    const late = await store.approve('p-queued', 'U2', 1, shown('p-queued'), now + 3_600_000);
    expect(late.status).toBe('already-claimed');
    expect((await store.claimOf('p-queued'))?.approvers).toEqual(['U1']);
  });

  it('writes a lost claim again as it was, never over another one', async () => {
    const store = createPlanStore(client);
    const plan = stored('p-restore');
    await store.save(plan);
    const first = await store.approve('p-restore', 'U1', 1, shown('p-restore'));
    if (first.status !== 'claimed') throw new Error('not claimed');
    await client.del('rd:plan:p-restore:claim'); // lost in a failover
    expect(await store.restoreClaim(plan, first.marks, first.at)).toBe(true);
    expect(await store.claimOf('p-restore')).toEqual({ approvers: ['U1'], marks: ['U1'], at: first.at });
    expect(await store.restoreClaim(plan, ['U9'], first.at + 1)).toBe(false);
    expect((await store.claimOf('p-restore'))?.approvers).toEqual(['U1']);
  });

  it('keeps an existing claim when the same plan is saved again', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-keep'));
    expect((await store.approve('p-keep', 'U1', 1, shown('p-keep'))).status).toBe('claimed');
    await store.save(stored('p-keep'));
    expect((await store.approve('p-keep', 'U2', 1, shown('p-keep'))).status).toBe('already-claimed');
    expect((await store.claimOf('p-keep'))?.approvers).toEqual(['U1']);
  });

  it('leaves a claimed plan as claimed when a re-run saves it again (its approval names that copy)', async () => {
    const store = createPlanStore(client);
    await store.save(stored('p-rerun', Date.now() + 60_000));
    expect((await store.approve('p-rerun', 'U1', 1, shown('p-rerun'))).status).toBe('claimed');
    const claimed = await store.get('p-rerun');
    await store.save(stored('p-rerun', Date.now() + 120_000));
    const after = await store.get('p-rerun');
    expect(after).toEqual(claimed);
    expect(after && planDigest(after)).toBe(claimed && planDigest(claimed));
  });
});

describe('approval policy', () => {
  it('resolves user groups (cached) and picks the most specific rule', async () => {
    let lookups = 0;
    const policy = createApprovalPolicy({
      approvers: ['U1', 'S9'],
      rules: [
        { namespace: 'payments', approvers: ['U7'], requiredApprovals: 2 },
        { cluster: 'prod', namespace: 'payments', approvers: ['U8'], requiredApprovals: 1 },
      ],
      listGroupMembers: async () => {
        lookups += 1;
        return ['U5'];
      },
    });
    expect(await policy.check('U5', { cluster: 'default', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 1,
    });
    expect(await policy.check('U5', { cluster: 'default', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 1,
    });
    expect(lookups).toBe(1);
    expect(await policy.check('U7', { cluster: 'default', namespace: 'payments' })).toEqual({
      allowed: true,
      required: 2,
    });
    expect((await policy.check('U1', { cluster: 'default', namespace: 'payments' })).allowed).toBe(false);
    expect(
      matchRule(
        [
          { namespace: 'payments', approvers: ['U7'], requiredApprovals: 2 },
          { cluster: 'prod', namespace: 'payments', approvers: ['U8'], requiredApprovals: 1 },
        ],
        { cluster: 'prod', namespace: 'payments' },
      )?.approvers,
    ).toEqual(['U8']);
  });

  it('takes approvers from the most specific rule but the strictest approval count of all that match', async () => {
    const policy = createApprovalPolicy({
      approvers: ['U1'],
      rules: [
        { cluster: 'prod', approvers: ['U2', 'U3'], requiredApprovals: 2 },
        { namespace: 'shop', approvers: ['U4'], requiredApprovals: 1 },
        { namespace: 'payments', approvers: ['U5', 'U6'], requiredApprovals: 3 },
      ],
      listGroupMembers: async () => [],
    });
    // A namespace rule with one approver does not turn prod's two-person rule into one.
    expect(await policy.check('U4', { cluster: 'prod', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 2,
    });
    expect((await policy.check('U2', { cluster: 'prod', namespace: 'shop' })).allowed).toBe(false);
    // And the other way round: the stricter namespace rule holds in any cluster.
    expect(await policy.check('U5', { cluster: 'prod', namespace: 'payments' })).toEqual({
      allowed: true,
      required: 3,
    });
    expect(await policy.check('U4', { cluster: 'staging', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 1,
    });
  });
});
