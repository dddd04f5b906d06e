/**
 * The worker's health endpoint over the real worker runtime and a real Redis: 200
 * while Redis answers, 503 naming the problem once Redis is gone, 200 again after
 * it is back (the liveness probe of deploy/worker.yaml relies on exactly this).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { createLogger } from '../../src/logger.js';
import { startHealthServer, type HealthServer } from '../../src/worker/health.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { fakeClusterDeps } from '../support/fake-cluster.js';
import { testKeys } from '../support/plan-keys.js';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let redis: TestRedis;
let workers: WorkerRuntime;
let health: HealthServer;

beforeAll(async () => {
  redis = await startRedis();
  const config = loadWorkerConfig({
    ...testKeys.workerEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '1',
    ROLLOUT_DOCTOR_HEALTH_PORT: '9465',
  });
  expect(config.healthPort).toBe(9465);
  workers = startWorkers(config, createLogger({ level: 'silent', name: 'health-test' }), fakeClusterDeps([]));
  health = await startHealthServer(workers.health, { port: 0, host: '127.0.0.1' });
});

afterAll(async () => {
  await health?.close();
  await workers?.stop();
  await redis?.close();
});

async function probe(): Promise<{ status: number; body: string }> {
  const res = await fetch(`http://127.0.0.1:${health.port}/healthz`);
  return { status: res.status, body: await res.text() };
}

/** Polls the probe until it answers `status` (bounded). */
async function until(status: number, timeoutMs = SIGNAL_WAIT_MS): Promise<{ status: number; body: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answer = await probe();
    if (answer.status === status) return answer;
    if (Date.now() > deadline) throw new Error(`health stayed ${answer.status}: ${answer.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('worker health endpoint', () => {
  it('is healthy with Redis, fails naming Redis when it is lost, and recovers when it is back', async () => {
    expect(await until(200)).toEqual({ status: 200, body: 'ok\n' });
    await redis.stop();
    const failing = await until(503);
    expect(failing.body).toMatch(/redis/);
    await redis.start();
    expect((await until(200)).body).toBe('ok\n');
  });

  it('/readyz names what it waits for: a Redis that is away, then one that is read-only', async () => {
    const readyz = async (): Promise<{ status: number; body: { status: string; waitingFor?: string[] } }> => {
      const res = await fetch(`http://127.0.0.1:${health.port}/readyz`);
      return { status: res.status, body: (await res.json()) as { status: string; waitingFor?: string[] } };
    };
    const answer = async (status: number): Promise<Awaited<ReturnType<typeof readyz>>> => {
      const deadline = Date.now() + SIGNAL_WAIT_MS;
      for (;;) {
        const got = await readyz();
        if (got.status === status || Date.now() > deadline) return got;
        await new Promise((r) => setTimeout(r, 100));
      }
    };
    expect(await answer(200)).toEqual({ status: 200, body: { status: 'ready' } });
    await redis.stop();
    const away = await answer(503);
    expect(away.status).toBe(503);
    expect(away.body.waitingFor).toContain('redis (no answer)');
    expect(away.body.waitingFor?.some((w) => /^redis connection (jobs|notify) \(/.test(w))).toBe(true);
    await redis.start();
    expect((await answer(200)).status).toBe(200);
    // Demoted (REPLICAOF a master that does not answer): it answers, but takes no writes.
    const admin = new Redis(redis.url);
    try {
      await admin.call('REPLICAOF', '127.0.0.1', String(await freePort()));
      const readOnly = await answer(503);
      expect(readOnly.body.waitingFor).toEqual(['redis (read-only replica)']);
      await admin.call('REPLICAOF', 'NO', 'ONE');
      expect((await answer(200)).status).toBe(200);
    } finally {
      admin.disconnect();
    }
  });

  it("serves the worker's metrics, its clock against Redis's among them, and nothing else", async () => {
    const metrics = await fetch(`http://127.0.0.1:${health.port}/metrics`);
    expect(metrics.status).toBe(200);
    // Read from Redis's TIME at start: this machine's clock and the test Redis's are one.
    await expect
      .poll(async () =>
        /^rollout_doctor_clock_offset_seconds (-?[\d.e-]+)$/m.exec(
          await (await fetch(`http://127.0.0.1:${health.port}/metrics`)).text(),
        ),
      )
      .toBeTruthy();
    const text = await (await fetch(`http://127.0.0.1:${health.port}/metrics`)).text();
    const offset = Number(/^rollout_doctor_clock_offset_seconds (\S+)$/m.exec(text)?.[1]);
    expect(Math.abs(offset)).toBeLessThan(1);
    const res = await fetch(`http://127.0.0.1:${health.port}/other`);
    expect(res.status).toBe(404);
  });
});
