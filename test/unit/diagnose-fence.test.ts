/**
 * What a diagnose job posts when time or ownership says no (issue 53.3, 53.4): a worker
 * that lost its job posts no result; a worker whose clock is off answers with its
 * clock and reads nothing; a genuine job whose time passed on an in-step worker is
 * answered naming the app's clock; a forged one is answered with nothing.
 */
import type { Job } from 'bullmq';
import { describe, expect, it } from 'vitest';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { createLogger } from '../../src/logger.js';
import type { DiagnoseVerdict } from '../../src/queue/diagnose-signature.js';
import type { PlanStore, StoredPlan } from '../../src/queue/plan-store.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import type { DiagnoseJob, NotifyJobInput } from '../../src/queue/schemas.js';
import { createDiagnoseProcessor, type DiagnoseDeps } from '../../src/worker/diagnose-processor.js';

const target = { kind: 'Deployment' as const, namespace: 'shop', name: 'web' };
const data = { mode: 'workload', cluster: 'default', target, requestedBy: 'U1' } satisfies DiagnoseJob;

/** A plan as the engine offers it; only its id matters to the store here. */
const offered = { id: 'set-rolling-update-1', kind: 'set-rolling-update' } as unknown as RemediationPlan;

async function run(extra: Partial<DiagnoseDeps>, attemptsStarted = 1) {
  const notified: NotifyJobInput[] = [];
  const saved: string[] = [];
  const collected: string[] = [];
  const processor = createDiagnoseProcessor({
    collect: async (ref) => {
      collected.push(ref.name);
      return { target: ref } as unknown as DeploymentSnapshot;
    },
    diagnose: (snapshot) =>
      ({
        target: snapshot.target,
        capturedAt: '',
        observed: { uid: 'u', generation: 1, resourceVersion: '1' },
        findings: [],
        remediations: [offered],
        analyzerErrors: [],
      }) satisfies Diagnosis,
    dryRun: async () => ({ ok: true, changes: [] }),
    scan: async () => ({ scanned: 0, entries: [] }),
    plans: { save: async (stored: StoredPlan) => void saved.push(stored.plan.id) } as unknown as PlanStore,
    planTtlMs: 60_000,
    notify: async (n) => void notified.push(n),
    logger: createLogger({ level: 'silent', name: 'test' }),
    ...extra,
  });
  const job = {
    id: 'diagnose.shop.web',
    data,
    timestamp: 1,
    attemptsMade: 0,
    attemptsStarted,
    opts: { attempts: 1 },
  };
  const outcome = await processor(job as unknown as Job<DiagnoseJob>).then(
    (value) => ({ value }),
    (error: unknown) => ({ error: String(error) }),
  );
  const results = notified.filter((n) => n.kind === 'diagnosis-result');
  return { outcome, results, collected, saved };
}

const reasonOf = (n: NotifyJobInput | undefined): string =>
  n?.kind === 'diagnosis-result' && n.outcome.status === 'failed' ? n.outcome.reason : '';

describe('diagnose jobs and time, and jobs another worker took over', () => {
  it('posts no result and stores no plan once a later attempt of the job started', async () => {
    const { results, collected, saved } = await run({ superseded: async () => true });
    expect(collected).toEqual(['web']);
    expect(results).toEqual([]);
    // Its plans would replace the taking attempt's, which its message shows.
    expect(saved).toEqual([]);
    const owner = await run({ superseded: async () => false });
    expect(owner.results).toHaveLength(1);
    expect(owner.saved).toEqual(['set-rolling-update-1']);
  });

  it("stores and posts nothing on an attempt after the one that posted its run's result", async () => {
    const marked: number[] = [];
    const answered = (by: number | undefined): DiagnoseDeps['answered'] => ({
      by: async () => by,
      mark: async (job) => void marked.push(job.attemptsStarted),
    });
    // Attempt 2 of a run attempt 1 answered (its lock lapsed in a failover after it posted).
    const again = await run({ superseded: async () => false, answered: answered(1) }, 2);
    expect(again.collected).toEqual(['web']);
    expect(again.results).toEqual([]);
    expect(again.saved).toEqual([]);
    expect(marked).toEqual([]);
    // The first attempt to answer stores, posts and says so; the same attempt run again posts again.
    const first = await run({ superseded: async () => false, answered: answered(undefined) }, 2);
    expect(first.saved).toEqual(['set-rolling-update-1']);
    expect(first.results).toHaveLength(1);
    expect(marked).toEqual([2]);
    expect((await run({ answered: answered(2) }, 2)).results).toHaveLength(1);
  });

  it('asks again when Redis cannot tell at first (a failover), and then stores and posts nothing', async () => {
    let asked = 0;
    const { results, saved } = await run({
      superseded: async () => {
        asked += 1;
        if (asked === 1) throw new Error('Connection is closed.');
        return true;
      },
    });
    expect(asked).toBe(2);
    expect(results).toEqual([]);
    expect(saved).toEqual([]);
  });

  it('answers with its clock, reading nothing, when the clock is off', async () => {
    const problem =
      "this worker's clock is 30 min ahead of Redis's (more than the 60 s tolerated): fix time sync (NTP, chrony) on its node";
    const { results, collected, outcome } = await run({ clock: () => problem });
    expect(collected).toEqual([]);
    expect(reasonOf(results[0])).toBe(`deployment/web in shop: not run: ${problem}`);
    expect(outcome).toMatchObject({ error: expect.stringContaining('not run') });
  });

  it("answers a genuine job whose time passed by naming the app's clock, and a forged one with nothing", async () => {
    const expired: DiagnoseVerdict = {
      ok: false,
      reason: 'expired',
      expired: { expiresAt: Date.UTC(2026, 10, 26, 2, 0), job: data },
    };
    const late = await run({ verifyJob: () => expired });
    expect(late.collected).toEqual([]);
    expect(reasonOf(late.results[0])).toMatch(
      /expired at 2026-11-26 02:00 UTC by this worker's clock, which is in step with Redis's; .*the clock of the app that signed it is behind/,
    );
    const forged = await run({
      verifyJob: () => ({ ok: false, reason: 'the job signature does not verify' }),
    });
    expect(forged.collected).toEqual([]);
    expect(forged.results).toEqual([]);
  });
});
