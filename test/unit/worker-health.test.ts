/**
 * The worker's health endpoint over the real worker runtime and a real Redis: 200
 * while Redis answers, 503 naming the problem once Redis is gone, 200 again after
 * it is back (the liveness probe of deploy/worker.yaml relies on exactly this).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadWorkerConfig } from '../../src/config/environment.js';
import { createLogger } from '../../src/logger.js';
import { startHealthServer, type HealthServer } from '../../src/worker/health.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { fakeClusterDeps } from '../support/fake-cluster.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

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
async function until(status: number, timeoutMs = 15_000): Promise<{ status: number; body: string }> {
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

  it('serves nothing else', async () => {
    const res = await fetch(`http://127.0.0.1:${health.port}/metrics`);
    expect(res.status).toBe(404);
  });
});
