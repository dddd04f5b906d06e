import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { createAudit } from '../../src/audit.js';
import { createLogger } from '../../src/logger.js';
import type { PlanStore, StoredPlan } from '../../src/plans/store.js';
import type { NotifyJobInput, RemediateJob } from '../../src/queue/schemas.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { createRemediateProcessor, type RemediateDeps } from '../../src/worker/remediate-processor.js';

const plan: RemediationPlan = {
  id: 'set-recreate-0123456789abcdef',
  kind: 'set-recreate',
  target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
  summary: 'Switch to Recreate',
  impact: 'outage',
  warnings: [],
  patch: { type: 'strategic-merge', body: { spec: { strategy: { type: 'Recreate', rollingUpdate: null } } } },
  preconditions: { uid: 'u1', generation: 2, fields: [] },
  inverse: null,
  addresses: 'RolloutSurgeDeadlock',
};

function harness(storedCluster: string) {
  const notes: NotifyJobInput[] = [];
  const applied: RemediationPlan[] = [];
  const stored: StoredPlan = { plan, cluster: storedCluster, createdAt: 0, expiresAt: Date.now() + 60_000 };
  const plans = {
    get: async () => stored,
    claimOf: async () => ({ approvers: ['U0LEAD'], at: 1 }),
  } as unknown as PlanStore;
  const logger = createLogger({ level: 'silent', name: 'test' });
  const deps: RemediateDeps = {
    apply: async (p) => {
      applied.push(p);
      return { status: 'applied', changes: [], generation: 3, resourceVersion: '9' };
    },
    watch: async () => ({ outcome: 'complete', summary: 'rolled out' }),
    currentFinding: async () => undefined,
    inverse: () => null,
    plans,
    planTtlMs: 60_000,
    notify: async (job) => {
      notes.push(job);
    },
    audit: createAudit(logger),
    logger,
  };
  const job = (cluster: string) =>
    ({
      data: { planId: plan.id, cluster, approvedBy: ['U0LEAD'], channel: 'C1', messageTs: '1.1' },
      attemptsMade: 0,
      attemptsStarted: 1,
      opts: { attempts: 3 },
    }) as unknown as Job<RemediateJob>;
  return { process: createRemediateProcessor(deps), job, notes, applied };
}

describe('remediate processor', () => {
  it('applies a plan made for the cluster it serves', async () => {
    const h = harness('prod');
    await expect(h.process(h.job('prod'))).resolves.toBe('rolled-out');
    expect(h.applied).toHaveLength(1);
  });

  it('refuses a plan stored for another cluster and applies nothing', async () => {
    const h = harness('staging');
    await expect(h.process(h.job('prod'))).rejects.toThrow('another cluster');
    expect(h.applied).toHaveLength(0);
    expect(h.notes).toMatchObject([{ stage: 'refused', detail: expect.stringContaining('cluster staging') }]);
  });
});
