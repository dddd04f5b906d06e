/**
 * The shutdown bound (issue 67.10): ROLLOUT_DOCTOR_SHUTDOWN_SECONDS as the schemas read
 * it, and boundedStop, which ends a stop that Redis holds up (the process drill is
 * test/drills/sigterm-redis-gone.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/environment.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { boundedStop } from '../../src/config/process-entry.js';
import { createLogger } from '../../src/logger.js';
import { trackRunning } from '../../src/worker/running-jobs.js';
import { testKeys } from '../support/plan-keys.js';
import type { Job } from 'bullmq';

const logger = createLogger({ level: 'silent', name: 'test' });
const worker = (env: Record<string, string> = {}) => loadWorkerConfig({ ...testKeys.workerEnv, ...env });
const app = (env: Record<string, string> = {}) =>
  loadAppConfig({ ...testKeys.appEnv, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's', ...env });

describe('ROLLOUT_DOCTOR_SHUTDOWN_SECONDS', () => {
  it('defaults: a worker its drain grace + 3 s, the app 10 s', () => {
    expect(worker().shutdownMs).toBe(28_000);
    expect(worker({ ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '1' }).shutdownMs).toBe(4_000);
    expect(app().shutdownMs).toBe(10_000);
  });

  it('is read when set, and a worker refuses one not longer than its drain grace', () => {
    expect(
      worker({ ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: '20', ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '15' }).shutdownMs,
    ).toBe(20_000);
    expect(app({ ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: '4' }).shutdownMs).toBe(4_000);
    expect(() => worker({ ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: '20' })).toThrow(
      /ROLLOUT_DOCTOR_SHUTDOWN_SECONDS \(20\) must be longer than ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS \(25\)/,
    );
    expect(() => worker({ ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: '0' })).toThrow(ConfigError);
    expect(() => app({ ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: 'soon' })).toThrow(/ROLLOUT_DOCTOR_SHUTDOWN_SECONDS/);
  });
});

describe('boundedStop', () => {
  it('a stop that ends: its code (0, or 1 when it failed), nothing abandoned', async () => {
    let abandoned = 0;
    const abandon = () => ((abandoned += 1), {});
    expect(await boundedStop(logger, async () => undefined, { boundMs: 1_000, abandon })).toBe(0);
    expect(await boundedStop(logger, () => Promise.reject(new Error('x')), { boundMs: 1_000, abandon })).toBe(
      1,
    );
    expect(abandoned).toBe(0);
  });

  it('a stop that never ends (Redis gone): abandoned at the bound, exit code 0', async () => {
    let abandoned = 0;
    const started = Date.now();
    const code = await boundedStop(logger, () => new Promise<void>(() => undefined), {
      boundMs: 50,
      abandon: () => ((abandoned += 1), { jobsLeft: { 'diagnose.default': ['1'] } }),
    });
    expect({ code, abandoned }).toEqual({ code: 0, abandoned: 1 });
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('trackRunning: idle and ids, which ask Redis nothing', () => {
  it('idle resolves at once with nothing running, else when the last job ends', async () => {
    let finish: () => void = () => undefined;
    const running = trackRunning<unknown, void>(() => new Promise<void>((resolve) => (finish = resolve)));
    await running.idle();
    const job = running.processor({ id: '7' } as Job, 'token');
    expect(running.ids()).toEqual(['7']);
    let idle = false;
    const waiting = running.idle().then(() => (idle = true));
    await Promise.resolve();
    expect(idle).toBe(false);
    finish();
    await job;
    await waiting;
    expect({ idle, ids: running.ids() }).toEqual({ idle: true, ids: [] });
  });
});
