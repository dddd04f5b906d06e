/**
 * A cluster-scoped change (taint-device creates a DeviceTaintRule every tenant's claims
 * are held to; untaint-device, its Undo, deletes it) is never a namespace's to approve
 * (issue 27.2): only cluster-level approvers count, and the confirm dialog says so.
 */
import { describe, expect, it, vi } from 'vitest';
import { approve } from '../../src/chat/approvals/approve.js';
import { toMrkdwn } from '../../src/chat/slack/render.js';
import { CLUSTER_WIDE, confirmDialogText } from '../../src/chat/use-cases/confirm-text.js';
import { approversFor, createApprovalPolicy, requiredApprovals } from '../../src/policy/approval-policy.js';
import type { StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';

const RULES = [
  { namespace: 'ml', approvers: ['U0MLTEAM'], requiredApprovals: 1 },
  { namespace: 'payments', approvers: ['U0PAY'], requiredApprovals: 2 },
];
const GLOBAL = ['U0PLATFORM'];

function stored(kind: RemediationPlan['kind']): StoredPlan {
  return {
    plan: {
      id: `${kind}-0123456789abcdef`,
      kind,
      target: { kind: 'Deployment', namespace: 'ml', name: 'trainer' },
      summary: 's',
      impact: 'i',
      warnings: [],
      patch: null,
      deviceTaint: {
        name: 'rd-gpu',
        driver: 'gpu.example.com',
        pool: 'node-a',
        device: 'gpu-0',
        effect: 'NoSchedule',
      },
    } as unknown as RemediationPlan,
    cluster: 'prod',
    createdAt: 0,
    // expired: a click that passes the policy is answered "expired", one that does not, "refused"
    expiresAt: 1,
  };
}

function services(plan: StoredPlan) {
  const audit = { record: vi.fn() };
  return {
    audit,
    services: {
      plans: { get: async () => plan },
      policy: createApprovalPolicy({ approvers: GLOBAL, rules: RULES, listGroupMembers: async () => [] }),
      audit,
    } as never,
  };
}

const click = (user: string, planId: string) => ({
  user,
  channel: 'C1',
  messageTs: '1.1',
  rootTs: '1.1',
  planId,
  shown: null,
  requester: null,
});

describe('cluster-scoped plans need cluster-level approvers (issue 27.2)', () => {
  it.each(['taint-device', 'untaint-device'] as const)(
    'a namespace-only approver is refused %s in their own namespace; a cluster-level approver is not',
    async (kind) => {
      const plan = stored(kind);
      const team = services(plan);
      const refused = await approve(team.services, click('U0MLTEAM', plan.plan.id));
      expect(refused.kind).toBe('refused');
      expect(refused.kind === 'refused' ? toMrkdwn(refused.text) : '').toContain('cluster-wide');
      expect(team.audit.record).toHaveBeenCalledWith(expect.objectContaining({ reason: 'not-approver' }));
      const platform = services(plan);
      expect((await approve(platform.services, click('U0PLATFORM', plan.plan.id))).kind).toBe('expired');
    },
  );

  it('the same namespace approver still approves a namespaced fix there', async () => {
    const plan = stored('set-rolling-update');
    expect((await approve(services(plan).services, click('U0MLTEAM', plan.plan.id))).kind).toBe('expired');
  });

  it('a cluster-wide change needs the strictest approval count of any namespace of the cluster', () => {
    const scope = { cluster: 'prod', namespace: 'ml' };
    expect(requiredApprovals(RULES, scope)).toBe(1);
    expect(requiredApprovals(RULES, { ...scope, clusterWide: true })).toBe(2);
    expect(approversFor(RULES, GLOBAL, scope)).toEqual(['U0MLTEAM']);
    expect(approversFor(RULES, GLOBAL, { ...scope, clusterWide: true })).toEqual(GLOBAL);
    const clusterRule = [...RULES, { cluster: 'prod', approvers: ['S0SRE'], requiredApprovals: 1 }];
    expect(approversFor(clusterRule, GLOBAL, { ...scope, clusterWide: true })).toEqual(['S0SRE']);
  });

  it('the confirm dialog says the change is cluster-wide, first', () => {
    expect(confirmDialogText(stored('taint-device').plan).startsWith(CLUSTER_WIDE)).toBe(true);
    expect(confirmDialogText(stored('untaint-device').plan, { undo: true }).startsWith(CLUSTER_WIDE)).toBe(
      true,
    );
    expect(confirmDialogText(stored('set-rolling-update').plan)).not.toContain(CLUSTER_WIDE);
  });
});
