/**
 * Teams users in the same policy as Slack users: approvers and readers name Entra
 * object ids (GUIDs) beside Slack ids, in the policy file and in
 * ROLLOUT_DOCTOR_APPROVERS / ROLLOUT_DOCTOR_READERS; cluster-scoped approvers and the
 * two-person rule apply to them unchanged.
 */
import { describe, expect, it } from 'vitest';
import {
  createApprovalPolicy,
  policyFileSchema,
  requiredApprovals,
} from '../../src/policy/approval-policy.js';
import { createReadPolicy } from '../../src/policy/read-policy.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { testKeys } from '../support/plan-keys.js';

const baseAppEnv = () => ({ SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', ...testKeys.appEnv });

const LEAD = '6f1c2a9e-0d4b-4a57-9c3e-2b8e5d7f1a90';
const PAYMENTS = 'a3e9b1c4-7d2f-4e6a-8b0c-5f1d3e2a9c7b';
const STRANGER = '0b7e4d2a-9c1f-4a3b-8e6d-7c2f1a9b3e5d';

describe('Entra object ids in the policy', () => {
  const file = policyFileSchema.parse({
    rules: [
      { cluster: 'prod', approvers: [LEAD.toUpperCase(), 'U0LEAD'], requiredApprovals: 2 },
      { cluster: 'prod', namespace: 'payments', approvers: [PAYMENTS] },
    ],
    readers: [{ namespace: 'shop', channels: ['19:abc123@thread.tacv2'], users: [STRANGER] }],
  });
  const approval = createApprovalPolicy({
    approvers: [],
    rules: file.rules,
    listGroupMembers: async () => [],
  });

  it('approves by object id (any case in the file), cluster-scoped and with the two-person rule', async () => {
    expect(await approval.check(LEAD, { cluster: 'prod', namespace: 'shop' })).toEqual({
      allowed: true,
      required: 2,
    });
    expect(await approval.check(PAYMENTS, { cluster: 'prod', namespace: 'payments' })).toEqual({
      allowed: true,
      required: 2,
    });
    // A namespace's approver may not approve a change that affects every namespace.
    expect(
      await approval.check(PAYMENTS, { cluster: 'prod', namespace: 'payments', clusterWide: true }),
    ).toMatchObject({ allowed: false });
    expect(await approval.check(STRANGER, { cluster: 'prod', namespace: 'shop' })).toMatchObject({
      allowed: false,
    });
    expect(requiredApprovals(file.rules, { cluster: 'prod', namespace: 'payments' })).toBe(2);
  });

  it('lists every approver once, lower-cased, in policy order (what Teams cards may ask to refresh)', () => {
    const withEnv = createApprovalPolicy({
      approvers: [PAYMENTS, 'S0GROUP'],
      rules: file.rules,
      listGroupMembers: async () => [],
    });
    expect(withEnv.approverIds?.()).toEqual([PAYMENTS, 'S0GROUP', LEAD, 'U0LEAD']);
    expect(approval.approverIds?.()).toEqual([LEAD, 'U0LEAD', PAYMENTS]);
  });

  it('reads by object id from a Teams channel named in a readers rule, not from another', async () => {
    const read = createReadPolicy({
      readers: [],
      everyone: false,
      rules: file.readers ?? [],
      approval,
      isListed: approval.isListed,
    });
    const ask = (channel: string) => ({ user: STRANGER, channel, cluster: 'prod', namespace: 'shop' });
    expect(await read.check(ask('19:abc123@thread.tacv2'))).toEqual({ allowed: true });
    expect(await read.check(ask('19:other@thread.tacv2'))).toMatchObject({ allowed: false });
  });

  it('refuses what is neither a Slack id nor a GUID', () => {
    expect(() => policyFileSchema.parse({ rules: [{ approvers: ['alice@example.com'] }] })).toThrow();
    expect(() => policyFileSchema.parse({ readers: [{ channels: ['general'] }] })).toThrow();
  });

  it('takes object ids in ROLLOUT_DOCTOR_APPROVERS and READERS, lower-cased', () => {
    const config = loadAppConfig({
      ...baseAppEnv(),
      ROLLOUT_DOCTOR_APPROVERS: `U0LEAD,${LEAD.toUpperCase()}`,
      ROLLOUT_DOCTOR_READERS: STRANGER,
    });
    expect(config.approvers).toEqual(['U0LEAD', LEAD]);
    expect(config.readers).toEqual([STRANGER]);
    expect(() => loadAppConfig({ ...baseAppEnv(), ROLLOUT_DOCTOR_APPROVERS: 'not-an-id' })).toThrow(/Entra/);
  });
});

describe("the policy file's names of approvers", () => {
  it('are kept by id (GUIDs lower-cased) and given with a refusal for the approvers of that scope only', async () => {
    const file = policyFileSchema.parse({
      rules: [{ namespace: 'payments', approvers: [PAYMENTS, LEAD] }],
      names: { [PAYMENTS.toUpperCase()]: 'Dana Lee (payments)', [STRANGER]: 'Not an approver here' },
    });
    expect(file.names).toEqual({ [PAYMENTS]: 'Dana Lee (payments)', [STRANGER]: 'Not an approver here' });
    const policy = createApprovalPolicy({
      approvers: [],
      rules: file.rules,
      names: file.names,
      listGroupMembers: async () => [],
    });
    expect(await policy.check(STRANGER, { cluster: 'prod', namespace: 'payments' })).toEqual({
      allowed: false,
      reason: 'you are not an approver here',
      approvers: [PAYMENTS, LEAD],
      names: { [PAYMENTS]: 'Dana Lee (payments)' },
    });
  });

  it('refuses a key that is no id and a name that is not one line of text', () => {
    expect(policyFileSchema.safeParse({ names: { 'dana@example.com': 'Dana' } }).success).toBe(false);
    expect(policyFileSchema.safeParse({ names: { [LEAD]: 'Dana\nLee' } }).success).toBe(false);
    expect(policyFileSchema.safeParse({ names: { [LEAD]: 'Dana\u202eLee' } }).success).toBe(false);
    expect(policyFileSchema.safeParse({ names: { [LEAD]: 'x'.repeat(81) } }).success).toBe(false);
    expect(policyFileSchema.parse({}).names).toEqual({});
  });
});
