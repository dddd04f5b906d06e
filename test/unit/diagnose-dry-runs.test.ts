import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { createLogger } from '../../src/logger.js';
import type { DryRunSummary, PlanStore, StoredPlan } from '../../src/queue/plan-store.js';
import type { DiagnoseJob, NotifyJobInput } from '../../src/queue/schemas.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { createDiagnoseProcessor } from '../../src/worker/diagnose-processor.js';

/** The diagnose processor dry-runs a diagnosis' plans side by side, bounded, and stores each. */

const target = { kind: 'Deployment' as const, namespace: 'shop', name: 'web' };

function plan(i: number): RemediationPlan {
  return {
    id: `plan-${i}`,
    kind: 'set-max-surge-zero',
    target,
    summary: `plan ${i}`,
    impact: 'none',
    warnings: [],
    patch: null,
    preconditions: { uid: 'u', generation: 1 },
    inverse: null,
    addresses: 'RolloutSurgeDeadlock',
  } as unknown as RemediationPlan;
}

async function diagnoseWith(
  plans: RemediationPlan[],
  dryRun: (p: RemediationPlan) => Promise<DryRunSummary>,
) {
  const saved: StoredPlan[] = [];
  const notified: NotifyJobInput[] = [];
  const processor = createDiagnoseProcessor({
    collect: async (ref) => ({ target: ref }) as unknown as DeploymentSnapshot,
    diagnose: (snapshot) =>
      ({
        target: snapshot.target,
        capturedAt: '',
        observed: { uid: 'u', generation: 1, resourceVersion: '1' },
        findings: [],
        remediations: plans,
        analyzerErrors: [],
      }) satisfies Diagnosis,
    dryRun,
    scan: async () => ({ scanned: 0, entries: [] }),
    plans: { save: async (stored: StoredPlan) => void saved.push(stored) } as unknown as PlanStore,
    planTtlMs: 60_000,
    notify: async (n) => void notified.push(n),
    logger: createLogger({ level: 'silent', name: 'test' }),
  });
  const job = {
    id: 'diagnose.shop.web',
    data: { mode: 'workload', cluster: 'default', target, requestedBy: 'U1' } satisfies DiagnoseJob,
    timestamp: 1,
    attemptsMade: 0,
    opts: { attempts: 1 },
  };
  await processor(job as unknown as Job<DiagnoseJob>);
  return { saved, notified };
}

describe('diagnose processor dry runs', () => {
  it('runs independent dry runs concurrently, at most 4 at a time, and stores every plan with its result', async () => {
    let inFlight = 0;
    let peak = 0;
    const plans = Array.from({ length: 6 }, (_, i) => plan(i));
    const { saved, notified } = await diagnoseWith(plans, async (p) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 10));
      inFlight -= 1;
      return p.id === 'plan-3' ? { ok: false, reason: 'conflict' } : { ok: true, changes: [] };
    });
    expect(peak).toBe(4);
    expect(saved.map((s) => s.plan.id).sort()).toEqual(plans.map((p) => p.id).sort());
    expect(saved.find((s) => s.plan.id === 'plan-3')?.dryRun).toEqual({ ok: false, reason: 'conflict' });
    const result = notified.find((n) => n.kind === 'diagnosis-result');
    expect(result).toMatchObject({
      outcome: {
        status: 'diagnosed',
        dryRuns: {
          'plan-0': { ok: true },
          'plan-3': { ok: false, reason: 'conflict' },
          'plan-5': { ok: true },
        },
      },
    });
  });

  it('records a dry run that throws as a failed dry run, not a failed diagnosis', async () => {
    const { saved, notified } = await diagnoseWith([plan(0), plan(1)], async (p) => {
      if (p.id === 'plan-1') throw new Error('connection reset');
      return { ok: true, changes: [] };
    });
    expect(saved).toHaveLength(2);
    expect(notified.find((n) => n.kind === 'diagnosis-result')).toMatchObject({
      outcome: { status: 'diagnosed', dryRuns: { 'plan-1': { ok: false, reason: 'connection reset' } } },
    });
  });
});
