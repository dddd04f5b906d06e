import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/trust/clock-skew.js';
import { describe, expect, it } from 'vitest';
import { signApproval, verifyApproval, type ApprovalClaims } from '../../src/trust/approval-signature.js';
import {
  canonicalJson,
  parseSealKeys,
  planDigest,
  sealPlan,
  shownDigest,
  verifySeal,
} from '../../src/trust/plan-seal.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { scalePatch } from '../../src/remediation/builders/scale-old-replicaset.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';

function stored(): StoredPlan {
  return {
    cluster: 'prod',
    createdAt: 1000,
    expiresAt: 901_000,
    plan: {
      id: 'set-recreate-abc',
      kind: 'set-recreate',
      target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
      summary: 'Recreate',
      impact: 'brief outage',
      warnings: [],
      patch: {
        type: 'strategic-merge',
        body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } },
      },
      preconditions: {
        uid: 'u1',
        generation: 3,
        fields: [{ path: '/spec/strategy', value: { type: 'RollingUpdate' } }],
      },
      inverse: { type: 'strategic-merge', body: { spec: { strategy: null } } },
      addresses: 'RolloutSurgeDeadlock',
    },
  };
}

const keys = ephemeralPlanKeys();

describe('canonicalJson', () => {
  it('sorts keys at every depth and drops undefined', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { z: 1, y: undefined, x: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[1,{"x":2,"z":1}]},"b":1}',
    );
  });
});

describe('plan seal', () => {
  it('verifies an untouched plan', () => {
    const plan = stored();
    const seal = sealPlan(plan, keys.seal);
    expect(verifySeal(plan, seal, keys.seal)).toEqual({ ok: true, digest: planDigest(plan) });
  });

  it('binds what is shown: the shown digest ignores only the creation time and the expiry, the seal only the creation time', () => {
    const plan = stored();
    const seal = sealPlan(plan, keys.seal);
    const shown = shownDigest(plan);
    plan.createdAt += 5;
    expect(verifySeal(plan, seal, keys.seal)).toMatchObject({ ok: true });
    plan.expiresAt += 5;
    // A re-run that saves the same plan later shows the same plan: old buttons still name it.
    expect(shownDigest(plan)).toBe(shown);
    expect(verifySeal(plan, seal, keys.seal)).toMatchObject({ ok: false });
  });

  it('refuses a plan sealed by another seal version, saying so', () => {
    const plan = stored();
    const { v: _v, ...v1 } = sealPlan(plan, keys.seal);
    expect(verifySeal(plan, v1, keys.seal)).toEqual({
      ok: false,
      reason: expect.stringContaining('sealed by another rollout-doctor version (seal v1'),
    });
  });

  const alterations: [string, (s: StoredPlan) => void][] = [
    [
      'patch body',
      (s) => ((s.plan.patch as { body: unknown }).body = { spec: { template: { spec: { hostPID: true } } } }),
    ],
    ['patch type', (s) => (s.plan.patch = { type: 'merge', body: s.plan.patch?.body })],
    ['namespace', (s) => (s.plan.target.namespace = 'kube-system')],
    ['name', (s) => (s.plan.target.name = 'coredns')],
    ['uid', (s) => (s.plan.preconditions.uid = 'u2')],
    ['cluster', (s) => (s.cluster = 'other')],
    ['kind', (s) => (s.plan.kind = 'rollout-restart')],
    ['expiry', (s) => (s.expiresAt += 1)],
    ['id', (s) => (s.plan.id = 'x')],
    ['inverse', (s) => (s.plan.inverse = null)],
    ['precondition fields', (s) => (s.plan.preconditions.fields = [])],
    ['pods', (s) => (s.plan.pods = [{ name: 'p', uid: 'q' }])],
    ['undoOf', (s) => (s.undoOf = 'other')],
    // What an approver is shown is sealed too (docs/security.md).
    ['summary', (s) => (s.plan.summary = 'Harmless: only adds a label')],
    ['impact', (s) => (s.plan.impact = 'none')],
    ['warnings', (s) => (s.plan.warnings = ['reviewed by SRE'])],
    [
      'drift',
      (s) => (s.plan.drift = { reverted: false, by: 'Argo CD application web', fields: [], why: 'kept' }),
    ],
    ['dry run', (s) => (s.dryRun = { ok: true, changes: [{ path: '/metadata/labels/x', after: 'y' }] })],
    ['addresses', (s) => (s.plan.addresses = 'CrashLoopOnNode')],
    [
      'replicaSet (scale-old-replicaset)',
      (s) =>
        (s.plan.replicaSet = {
          name: 'web-6d4cf56db6',
          uid: 'r1',
          podTemplateHash: '6d4cf56db6',
          replicas: 1,
          to: 0,
          newReplicaSet: { name: 'web-7b9f8c5d4f', uid: 'r2' },
        }),
    ],
  ];
  it.each(alterations)('refuses a plan whose %s changed', (_name, alter) => {
    const plan = stored();
    const seal = sealPlan(plan, keys.seal);
    const shown = shownDigest(plan);
    alter(plan);
    expect(verifySeal(plan, seal, keys.seal)).toMatchObject({ ok: false });
    if (_name !== 'expiry') expect(shownDigest(plan)).not.toBe(shown);
  });

  it('covers the Undo of scale-old-replicaset: raising the count it scales back to breaks the seal', () => {
    const rs = {
      name: 'web-6d4cf56db6',
      uid: 'r1',
      podTemplateHash: '6d4cf56db6',
      replicas: 0,
      to: 3,
      newReplicaSet: { name: 'web-7b9f8c5d4f', uid: 'r2' },
    };
    const plan: StoredPlan = {
      ...stored(),
      undoOf: 'scale-old-replicaset-abc',
      plan: {
        ...stored().plan,
        id: 'undo-scale-old-replicaset-abc',
        kind: 'scale-back-old-replicaset',
        replicaSet: rs,
        patch: scalePatch({ uid: rs.uid, replicas: 0, to: 3 }),
        inverse: null,
        preconditions: { uid: 'u1', generation: 3, fields: [] },
      } as RemediationPlan,
    };
    const seal = sealPlan(plan, keys.seal);
    expect(verifySeal(plan, seal, keys.seal)).toMatchObject({ ok: true });
    plan.plan.replicaSet = { ...rs, to: 20 };
    plan.plan.patch = scalePatch({ uid: rs.uid, replicas: 0, to: 20 });
    expect(verifySeal(plan, seal, keys.seal)).toMatchObject({ ok: false });
  });

  it('refuses a missing seal, a seal with another key, and accepts an old key during rotation', () => {
    const plan = stored();
    expect(verifySeal(plan, undefined, keys.seal)).toMatchObject({ ok: false });
    const other = ephemeralPlanKeys({ seal: 's2', approval: 'a2' });
    const oldSeal = sealPlan(plan, keys.seal);
    expect(verifySeal(plan, oldSeal, other.seal)).toMatchObject({ ok: false });
    const rotating = parseSealKeys(
      `${other.env.ROLLOUT_DOCTOR_PLAN_SEAL_KEY},${keys.env.ROLLOUT_DOCTOR_PLAN_SEAL_KEY}`,
    );
    expect(verifySeal(plan, oldSeal, rotating)).toMatchObject({ ok: true });
    expect(sealPlan(plan, rotating).keyId).toBe('s2');
  });

  it('refuses short or malformed seal keys', () => {
    expect(() => parseSealKeys('k:' + Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
    expect(() => parseSealKeys('nokey')).toThrow();
    expect(() => parseSealKeys('')).toThrow();
  });
});

describe('approval signature', () => {
  const plan = stored();
  const digest = planDigest(plan);
  const claims: ApprovalClaims = {
    v: 1,
    planId: plan.plan.id,
    digest,
    cluster: 'prod',
    approvers: ['U111'],
    requester: 'U222',
    at: 2000,
    expiresAt: 5000,
    keyId: keys.approval.keyId,
    nonce: 'a'.repeat(32),
    channel: 'C1',
    messageTs: '1.2',
  };
  const expected = {
    planId: plan.plan.id,
    digest,
    cluster: 'prod',
    now: 3000,
    channel: 'C1',
    messageTs: '1.2',
    approvedBy: ['U111'],
  };

  it('verifies what the app signed', () => {
    const approval = signApproval(claims, keys.approval.privateKey);
    expect(verifyApproval(approval, keys.approval.publicKeys, expected)).toMatchObject({ ok: true });
  });

  it.each([
    ['an added approver', { approvers: ['U111', 'U999'] }],
    ['another digest', { digest: 'f'.repeat(64) }],
    ['a later expiry', { expiresAt: 9_999_999 }],
    ['another nonce', { nonce: 'b'.repeat(32) }],
    ['another thread', { channel: 'C2' }],
  ])('refuses claims altered after signing: %s', (_name, change) => {
    const approval = signApproval(claims, keys.approval.privateKey);
    expect(
      verifyApproval(
        { ...approval, claims: { ...approval.claims, ...change } },
        keys.approval.publicKeys,
        expected,
      ),
    ).toMatchObject({ ok: false });
  });

  it('refuses a signature by another key, another plan, cluster, digest, or an expired approval', () => {
    const other = ephemeralPlanKeys({ seal: 's9', approval: keys.approval.keyId });
    expect(
      verifyApproval(signApproval(claims, other.approval.privateKey), keys.approval.publicKeys, expected),
    ).toMatchObject({
      ok: false,
    });
    const good = signApproval(claims, keys.approval.privateKey);
    expect(verifyApproval(good, keys.approval.publicKeys, { ...expected, planId: 'x' })).toMatchObject({
      ok: false,
    });
    expect(verifyApproval(good, keys.approval.publicKeys, { ...expected, cluster: 'x' })).toMatchObject({
      ok: false,
    });
    expect(
      verifyApproval(good, keys.approval.publicKeys, { ...expected, digest: '0'.repeat(64) }),
    ).toMatchObject({
      ok: false,
    });
    expect(
      verifyApproval(good, keys.approval.publicKeys, { ...expected, now: 5001 + CLOCK_SKEW_TOLERANCE_MS }),
    ).toMatchObject({ ok: false, expired: true });
    // Within the tolerated clock skew of its expiry: still good.
    expect(
      verifyApproval(good, keys.approval.publicKeys, { ...expected, now: 5000 + CLOCK_SKEW_TOLERANCE_MS }),
    ).toMatchObject({ ok: true });
    expect(verifyApproval(undefined, keys.approval.publicKeys, expected)).toMatchObject({ ok: false });
  });

  it('refuses a job that names another thread or other approvers than the signed approval', () => {
    const good = signApproval(claims, keys.approval.privateKey);
    expect(verifyApproval(good, keys.approval.publicKeys, { ...expected, channel: 'C9' })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/thread/),
    });
    expect(
      verifyApproval(good, keys.approval.publicKeys, { ...expected, approvedBy: ['U111', 'U999'] }),
    ).toMatchObject({ ok: false, reason: expect.stringMatching(/approvers/) });
  });
});
