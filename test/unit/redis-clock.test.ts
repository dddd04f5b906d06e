/**
 * Expiry and lease times come from Redis's clock (issue 67.9): a worker whose own clock
 * is 20 minutes off reads Redis's TIME (src/queue/clock-watch.ts) and keeps working, a
 * fresh job runs, an expired one is still refused, the plans it stores expire by Redis's
 * clock; only where Redis's clock is unknown (no fresh reading) does it answer with its
 * clock, as before. Against a real redis-server, the worker's clock faked.
 */
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { createLogger } from '../../src/logger.js';
import { startClockWatch, type ClockWatch } from '../../src/queue/clock-watch.js';
import { SIGNED_JOB_MS, signDiagnoseByApp, verifyDiagnoseJob } from '../../src/queue/diagnose-signature.js';
import type { PlanStore, StoredPlan } from '../../src/queue/plan-store.js';
import type { DiagnoseJob, NotifyJobInput } from '../../src/queue/schemas.js';
import type { RemediationPlan } from '../../src/remediation/plan.js';
import { createDiagnoseProcessor } from '../../src/worker/diagnose-processor.js';
import { approvalClaims, signApproval, verifyApproval } from '../../src/trust/approval-signature.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let server: TestRedis;
let redis: Redis;
beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url);
});
afterAll(async () => {
  redis?.disconnect();
  await server?.close();
});

const MIN = 60_000;
const silent = createLogger({ level: 'silent', name: 'test' });
const target = { kind: 'Deployment' as const, namespace: 'shop', name: 'web' };
const data = { mode: 'workload', cluster: 'default', target, requestedBy: 'U1' } satisfies DiagnoseJob;
const keys = { approval: testKeys.approval.publicKeys, seal: testKeys.seal };

/** A watch of the real Redis by a process whose clock is `skewMs` off; resolves after its first reading. */
async function watchWith(skewMs: number, everyMs = 60_000): Promise<ClockWatch> {
  const watch = startClockWatch(redis, {
    who: 'this worker',
    logger: silent,
    everyMs,
    now: () => Date.now() + skewMs,
  });
  await expect.poll(() => watch.reading()).toBeDefined();
  return watch;
}

/** One diagnose job signed by an in-step app `signedAgoMs` ago, run by a worker wired as src/worker/runtime.ts wires it. */
async function runJob(watch: ClockWatch, signedAgoMs: number) {
  const notified: NotifyJobInput[] = [];
  const collected: string[] = [];
  const saved: StoredPlan[] = [];
  const plan = { id: 'p1', kind: 'rollout-restart', target } as unknown as RemediationPlan;
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
        remediations: [plan],
        analyzerErrors: [],
      }) satisfies Diagnosis,
    dryRun: async () => ({ ok: true, changes: [] }),
    scan: async () => ({ scanned: 0, entries: [] }),
    plans: { save: async (p: StoredPlan) => void saved.push(p) } as unknown as PlanStore,
    planTtlMs: 10 * MIN,
    notify: async (n) => void notified.push(n),
    logger: silent,
    verifyJob: (job, jobId) => verifyDiagnoseJob(job, jobId, keys, watch.now()),
    clock: () => watch.problem(),
    now: () => watch.now(),
  });
  const jobId = 'diagnose.shop.web';
  const job = {
    id: jobId,
    data: { ...data, sig: signDiagnoseByApp(data, jobId, testKeys.approval, Date.now() - signedAgoMs) },
    timestamp: Date.now() - signedAgoMs,
    attemptsMade: 0,
    attemptsStarted: 1,
    opts: { attempts: 1 },
  };
  const outcome = await processor(job as unknown as Job<DiagnoseJob>).then(
    (value) => ({ value }),
    (error: unknown) => ({ error: String(error) }),
  );
  const result = notified.find((n) => n.kind === 'diagnosis-result');
  const reason =
    result?.kind === 'diagnosis-result' && result.outcome.status === 'failed' ? result.outcome.reason : '';
  return { outcome, collected, saved, reason };
}

describe("a worker whose clock is off takes times from Redis's", () => {
  for (const skew of [20 * MIN, -20 * MIN]) {
    it(`${skew > 0 ? 'ahead' : 'behind'} by 20 min: runs a fresh job, refuses an expired one, stores plans by Redis's clock`, async () => {
      const watch = await watchWith(skew);
      try {
        expect(Math.abs(watch.now() - Date.now())).toBeLessThan(2_000);
        expect(watch.problem()).toBeUndefined();
        const fresh = await runJob(watch, 0);
        expect(fresh.outcome).toEqual({ value: 'healthy' });
        expect(fresh.collected).toEqual(['web']);
        // The plan expires 10 min from now by Redis's clock, not 20 min off it.
        expect(Math.abs((fresh.saved[0]?.expiresAt ?? 0) - (Date.now() + 10 * MIN))).toBeLessThan(2_000);
        // Signed longer ago than the job's life and the tolerance: refused, nothing read.
        const expired = await runJob(watch, SIGNED_JOB_MS + 2 * MIN);
        expect(expired.collected).toEqual([]);
        expect(expired.reason).toMatch(/not run: the request expired at/);
      } finally {
        watch.stop();
      }
    });
  }

  it('40 min ahead: a fresh job is not taken for expired (by its own clock it would be)', async () => {
    const watch = await watchWith(40 * MIN);
    try {
      const jobId = 'diagnose.shop.web';
      const signed = { ...data, sig: signDiagnoseByApp(data, jobId, testKeys.approval, Date.now()) };
      expect(verifyDiagnoseJob(signed, jobId, keys, Date.now() + 40 * MIN).ok).toBe(false);
      expect(verifyDiagnoseJob(signed, jobId, keys, watch.now()).ok).toBe(true);
      expect((await runJob(watch, 0)).collected).toEqual(['web']);
    } finally {
      watch.stop();
    }
  });

  it('40 min ahead: an approval the app just signed for a 10-min plan verifies by Redis time (by its own clock it expired)', async () => {
    const watch = await watchWith(40 * MIN);
    try {
      const now = Date.now();
      const approval = signApproval(
        approvalClaims({
          planId: 'p1',
          digest: 'd'.repeat(64),
          cluster: 'default',
          planExpiresAt: now + 10 * MIN,
          approvers: ['U0APPROVER'],
          channel: 'C1',
          messageTs: '1.1',
          now,
          keyId: testKeys.approval.keyId,
        }),
        testKeys.approval.privateKey,
      );
      const expected = {
        planId: 'p1',
        digest: 'd'.repeat(64),
        cluster: 'default',
        channel: 'C1',
        messageTs: '1.1',
        approvedBy: ['U0APPROVER'],
      };
      const keys = testKeys.approval.publicKeys;
      expect(verifyApproval(approval, keys, { ...expected, now: Date.now() + 40 * MIN })).toMatchObject({
        ok: false,
        expired: true,
      });
      expect(verifyApproval(approval, keys, { ...expected, now: watch.now() }).ok).toBe(true);
    } finally {
      watch.stop();
    }
  });

  it("where Redis's clock is unknown (no fresh reading), answers with its clock and reads nothing", async () => {
    // Read once, then Redis stops answering TIME: the reading goes stale after three periods.
    let answering = true;
    const flaky = {
      time: async () => {
        if (!answering) throw new Error('connection lost');
        return redis.time();
      },
    };
    let local = Date.now() + 20 * MIN;
    const watch = startClockWatch(flaky, {
      who: 'this worker',
      logger: silent,
      everyMs: 50,
      now: () => local,
    });
    try {
      await expect.poll(() => watch.reading()).toBeDefined();
      answering = false;
      expect(watch.problem()).toBeUndefined();
      local += 200; // three periods and more without a reading
      expect(watch.problem()).toMatch(
        /^this worker's clock is (20 min|19 min 59 s) ahead of Redis's \(more than the 60 s tolerated\)/,
      );
      expect(watch.now()).toBe(local);
      const refused = await runJob(watch, 0);
      expect(refused.collected).toEqual([]);
      expect(refused.reason).toMatch(/not run: this worker's clock is (20 min|19 min 59 s) ahead of Redis's/);
    } finally {
      watch.stop();
    }
  });
});
