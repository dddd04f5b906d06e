import { describe, expect, it } from 'vitest';
import {
  accessWarnings,
  createApprovalPolicy,
  policyFileSchema,
  type ReaderRule,
} from '../../src/policy/approval-policy.js';
import { createReadPolicy } from '../../src/policy/read-policy.js';

const GROUPS: Record<string, string[]> = { S0PAYTEAM: ['U0PAYDEV'] };

function policy(options: {
  readers?: string[];
  rules?: unknown[];
  approvers?: string[];
  approvalRules?: unknown[];
}) {
  const file = policyFileSchema.parse({ rules: options.approvalRules ?? [], readers: options.rules });
  const approval = createApprovalPolicy({
    approvers: options.approvers ?? ['U0LEAD'],
    rules: file.rules,
    listGroupMembers: async (g) => GROUPS[g] ?? [],
  });
  const readers = options.readers ?? [];
  return createReadPolicy({
    readers: readers.filter((r) => r !== '*'),
    everyone: readers.includes('*'),
    rules: (file.readers ?? []) as ReaderRule[],
    approval,
    isListed: approval.isListed,
  });
}

const ask = (user: string, namespace: string | undefined, channel = 'C0OPS', cluster = 'prod') => ({
  user,
  channel,
  cluster,
  namespace,
});

describe('read policy', () => {
  it('by default only approvers read, and only cluster-level approvers scan every namespace', async () => {
    const p = policy({
      approvalRules: [{ namespace: 'payments', approvers: ['U0PAYLEAD'] }],
    });
    expect(await p.check(ask('U0LEAD', 'shop'))).toEqual({ allowed: true });
    expect(await p.check(ask('U0LEAD', undefined))).toEqual({ allowed: true });
    expect(await p.check(ask('U0PAYLEAD', 'payments'))).toEqual({ allowed: true });
    expect(await p.check(ask('U0PAYLEAD', 'shop'))).toMatchObject({ allowed: false });
    expect(await p.check(ask('U0PAYLEAD', undefined))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('scan one namespace with -n'),
    });
    expect(await p.check(ask('U0STRANGER', 'shop'))).toMatchObject({
      allowed: false,
      reason: expect.stringContaining('namespace shop of cluster prod'),
    });
  });

  it('ROLLOUT_DOCTOR_READERS opens single namespaces, not cluster-wide scans', async () => {
    const anyone = policy({ readers: ['*'] });
    expect(await anyone.check(ask('U0STRANGER', 'shop'))).toEqual({ allowed: true });
    expect(await anyone.check(ask('U0STRANGER', undefined))).toMatchObject({ allowed: false });
    const group = policy({ readers: ['S0PAYTEAM'] });
    expect(await group.check(ask('U0PAYDEV', 'shop'))).toEqual({ allowed: true });
    expect(await group.check(ask('U0STRANGER', 'shop'))).toMatchObject({ allowed: false });
  });

  it('readers rules match cluster, namespace, channel and user or group', async () => {
    const p = policy({
      rules: [
        { cluster: 'prod', namespace: 'payments', channels: ['C0PAY'], users: ['S0PAYTEAM'] },
        { cluster: 'staging', clusterScan: true },
      ],
    });
    expect(await p.check(ask('U0PAYDEV', 'payments', 'C0PAY'))).toEqual({ allowed: true });
    expect(await p.check(ask('U0PAYDEV', 'payments', 'C0RANDOM'))).toMatchObject({ allowed: false });
    expect(await p.check(ask('U0PAYDEV', 'shop', 'C0PAY'))).toMatchObject({ allowed: false });
    expect(await p.check(ask('U0STRANGER', 'payments', 'C0PAY'))).toMatchObject({ allowed: false });
    expect(await p.check(ask('U0STRANGER', undefined, 'C0ANY', 'staging'))).toEqual({ allowed: true });
    expect(await p.check(ask('U0STRANGER', 'web', 'C0ANY', 'staging'))).toEqual({ allowed: true });
    expect(await p.check(ask('U0STRANGER', undefined, 'C0ANY', 'prod'))).toMatchObject({ allowed: false });
  });

  it('alerts: every namespace until a rule sets alerts, then only the scopes and channels rules name', () => {
    expect(policy({}).allowsAlert({ cluster: 'prod', namespace: 'anything', channel: 'C0A' })).toBe(true);
    const p = policy({
      rules: [
        { cluster: 'prod', namespace: 'shop', alerts: true },
        { namespace: 'payments', channels: ['C0PAY'], alerts: true },
      ],
    });
    expect(p.allowsAlert({ cluster: 'prod', namespace: 'shop', channel: 'C0A' })).toBe(true);
    expect(p.allowsAlert({ cluster: 'prod', namespace: 'kube-system', channel: 'C0A' })).toBe(false);
    expect(p.allowsAlert({ cluster: 'dev', namespace: 'payments', channel: 'C0PAY' })).toBe(true);
    expect(p.allowsAlert({ cluster: 'dev', namespace: 'payments', channel: 'C0A' })).toBe(false);
  });

  it('rejects unknown keys in the policy file instead of ignoring them', () => {
    expect(() => policyFileSchema.parse({ readers: [{ namespace: 'shop', user: ['U1'] }] })).toThrow();
    expect(() => policyFileSchema.parse({ rules: [{ approvers: ['U1'], requiredApproval: 2 }] })).toThrow();
  });
});

describe('start-up warnings about who may use the app', () => {
  const rules = [{ approvers: ['U0LEAD'], requiredApprovals: 1 }];
  it('no approvers and no readers anywhere: nobody can run /rollout-doctor or approve', () => {
    expect(accessWarnings({ approvers: [], readers: [], policy: { rules: [] } })).toEqual([
      expect.stringContaining('nobody can run /rollout-doctor or approve a fix'),
    ]);
  });
  it('readers but no approvers: nobody can approve', () => {
    expect(accessWarnings({ approvers: [], readers: ['*'], policy: { rules: [] } })).toEqual([
      expect.stringContaining('nobody can approve a fix'),
    ]);
  });
  it('approvers in the environment or in the policy file: nothing to say', () => {
    expect(accessWarnings({ approvers: ['U0LEAD'], readers: [], policy: { rules: [] } })).toEqual([]);
    expect(accessWarnings({ approvers: [], readers: [], policy: { rules } })).toEqual([]);
  });
});
