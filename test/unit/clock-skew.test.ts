/**
 * Clocks (issue 53.4): each freshness check tolerates CLOCK_SKEW_TOLERANCE_MS either
 * way; a process reads its offset from Redis's TIME (src/queue/clock-watch.ts), logs
 * once when it is beyond, takes times from Redis's clock meanwhile (issue 67.9: the
 * rest is test/unit/redis-clock.test.ts), and says when it is back; a
 * genuine job whose time passed is told apart from a forged one.
 */
import { describe, expect, it } from 'vitest';
import { signDiagnoseByApp, verifyDiagnoseJob, SIGNED_JOB_MS } from '../../src/queue/diagnose-signature.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { beyondTolerance, readClockOffset, startClockWatch } from '../../src/queue/clock-watch.js';
import { CLOCK_SKEW_TOLERANCE_MS, offsetWords } from '../../src/trust/clock-skew.js';
import { testKeys } from '../support/plan-keys.js';

/** A Redis whose TIME is `redisNow()`. */
function fakeRedis(redisNow: () => number) {
  return {
    time: async (): Promise<number[]> => {
      const at = redisNow();
      return [Math.floor(at / 1000), (at % 1000) * 1000];
    },
  };
}

const job: DiagnoseJob = {
  mode: 'workload',
  cluster: 'default',
  target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
  requestedBy: 'U0ONCALL',
} as DiagnoseJob;

describe('clock skew', () => {
  it('reads this clock against Redis TIME', async () => {
    const redisAt = Date.UTC(2026, 10, 26, 2, 0);
    const reading = await readClockOffset(
      fakeRedis(() => redisAt),
      () => redisAt + 30 * 60_000,
    );
    expect(reading.offsetMs).toBe(30 * 60_000);
    expect(beyondTolerance(reading)).toBe(true);
    expect(beyondTolerance({ ...reading, offsetMs: CLOCK_SKEW_TOLERANCE_MS - 1 })).toBe(false);
    expect(beyondTolerance({ ...reading, offsetMs: -(CLOCK_SKEW_TOLERANCE_MS + 5_000) })).toBe(true);
    expect(offsetWords(30 * 60_000 + 4_000)).toBe('30 min 4 s ahead of');
    expect(offsetWords(-20 * 60_000)).toBe('20 min behind');
    expect(offsetWords(1_200)).toBe('1.2 s ahead of');
    // Rounded as a whole: never "29 min 60 s".
    expect(offsetWords(30 * 60_000 - 25)).toBe('30 min ahead of');
  });

  it('logs once when the clock goes beyond the tolerance, names it, and says when it is back', async () => {
    let offset = -20 * 60_000;
    const lines: { level: string; message: string }[] = [];
    const logger = {
      warn: (_f: unknown, message: string) => void lines.push({ level: 'warn', message }),
      info: (_f: unknown, message: string) => void lines.push({ level: 'info', message }),
    };
    const base = Date.UTC(2026, 10, 26, 2, 0);
    const offsets: number[] = [];
    const watch = startClockWatch(
      fakeRedis(() => base),
      {
        who: 'this worker',
        logger: logger as never,
        everyMs: 20,
        now: () => base + offset,
        onReading: (r) => offsets.push(r.offsetMs),
      },
    );
    try {
      await expect.poll(() => offsets.length >= 3).toBe(true);
      // Read fresh, Redis's clock is known: times are taken from it, nothing is refused (issue 67.9).
      expect(watch.problem()).toBeUndefined();
      expect(watch.now()).toBe(base);
      expect(lines.filter((l) => l.level === 'warn')).toHaveLength(1);
      expect(lines[0]?.message).toContain("this worker's clock is 20 min behind Redis's");
      expect(lines[0]?.message).toContain("it takes expiry and lease times from Redis's clock meanwhile");
      offset = 2_000;
      await expect.poll(() => lines.length).toBe(2);
      expect(lines.at(-1)).toEqual({
        level: 'info',
        message: "this worker's clock is back in step with Redis's",
      });
    } finally {
      watch.stop();
    }
  });

  it('accepts a job signed by a clock up to the tolerance apart, and tells an expired genuine job from a forged one', () => {
    const keys = { approval: testKeys.approval.publicKeys, seal: testKeys.seal };
    const signedAt = Date.UTC(2026, 10, 26, 2, 0);
    const data = { ...job, sig: signDiagnoseByApp(job, 'job-1', testKeys.approval, signedAt) };
    const justPast = signedAt + SIGNED_JOB_MS + CLOCK_SKEW_TOLERANCE_MS - 1;
    expect(verifyDiagnoseJob(data, 'job-1', keys, justPast).ok).toBe(true);
    // A worker 30 min ahead of the app that signed it: the job's time has passed.
    const ahead = verifyDiagnoseJob(data, 'job-1', keys, signedAt + SIGNED_JOB_MS + 30 * 60_000);
    expect(ahead.ok).toBe(false);
    expect(!ahead.ok && ahead.expired?.job).toMatchObject({ requestedBy: 'U0ONCALL' });
    // Under another id, or altered: not a genuine job, whatever the time.
    const forged = verifyDiagnoseJob(data, 'job-2', keys, signedAt + SIGNED_JOB_MS + 30 * 60_000);
    expect(!forged.ok && forged.expired).toBeUndefined();
  });
});
