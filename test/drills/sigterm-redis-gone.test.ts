/**
 * Drill (issue 67.10): SIGTERM reaches a worker whose Redis has gone away (killed, or a
 * Sentinel set shut down). The worker must still exit within its shutdown bound, well
 * inside Kubernetes' 30 s grace, instead of waiting on Redis until the kubelet's
 * SIGKILL: twelve such workers were all still running 20 s after SIGTERM.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnEntry, type Child } from '../../bench/lib/children.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis } from '../support/redis.js';
import { startSentinelSet } from '../support/redis-sentinel.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { writeUnreachableKubeconfig } from '../support/unreachable-kubeconfig.js';
import { waitUntil } from './support/drill-kit.js';

let dir: string;
let kubeconfig: string;
const cleanups: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-sigterm-redis-'));
  kubeconfig = writeUnreachableKubeconfig(join(dir, 'kubeconfig'));
});

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await rm(dir, { recursive: true, force: true });
});

/** A worker process (workers/main.ts) on `redisUrl`, with the product's defaults unless `env` says otherwise. */
async function startWorker(redisUrl: string, env: Record<string, string> = {}): Promise<Child> {
  const worker = await spawnEntry(
    'workers/main.ts',
    { REDIS_URL: redisUrl, KUBECONFIG: kubeconfig, ...testKeys.workerEnv, LOG_LEVEL: 'info', ...env },
    { ready: /workers started/, timeoutMs: SIGNAL_WAIT_MS },
  );
  cleanups.push(() => worker.stop('SIGKILL'));
  return worker;
}

/** Waits until the worker has logged a Redis error: it has seen Redis go. */
async function sawRedisGo(worker: Child): Promise<void> {
  await waitUntil(
    'the worker sees Redis gone',
    () => /"msg":"(redis \([a-z ]+\) error|worker error)"/.test(worker.output()),
    SIGNAL_WAIT_MS,
  );
}

/**
 * Sends SIGTERM and waits for the process's exit event; the time from the signal to the
 * exit, and the exit code. Nothing kills it harder while we wait: a worker that does not
 * exit by itself fails the test (on `boundMs`), it is SIGKILLed only in the cleanup.
 */
async function sigterm(
  worker: Child,
  boundMs: number,
): Promise<{ ms: number; code: number | null | 'running' }> {
  const started = performance.now();
  process.kill(worker.pid, 'SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const code = await Promise.race([
    worker.exited,
    new Promise<'running'>((resolve) => {
      timer = setTimeout(() => resolve('running'), boundMs);
    }),
  ]);
  clearTimeout(timer);
  return { ms: Math.round(performance.now() - started), code };
}

/** The worker's last log lines but Redis errors, for a failure's message. */
const tail = (worker: Child): string =>
  worker
    .output()
    .split('\n')
    .filter((line) => !/"level":50|redis \(/.test(line))
    .slice(-8)
    .join('\n');

/** The bound the product promises with its defaults: the shutdown settles well inside Kubernetes' 30 s. */
const BOUND_MS = 12_000;

describe('SIGTERM to a worker whose Redis has gone away', () => {
  it('a killed Redis (SIGKILL): the worker exits 0 within the bound, not after the drain grace', async () => {
    const redis = await startRedis();
    cleanups.push(() => redis.close());
    const worker = await startWorker(redis.url);
    await redis.stop('SIGKILL');
    await sawRedisGo(worker);
    const { ms, code } = await sigterm(worker, BOUND_MS);
    expect({ code, within: ms < BOUND_MS }, tail(worker)).toEqual({ code: 0, within: true });
  });

  it('a Sentinel set shut down (sentinels and data nodes): the worker exits 0 within the bound', async () => {
    const set = await startSentinelSet();
    cleanups.push(() => set.close());
    const worker = await startWorker(set.url);
    await set.stopSentinels();
    for (const node of set.nodes) await node.stop('SIGKILL');
    await sawRedisGo(worker);
    const { ms, code } = await sigterm(worker, BOUND_MS);
    expect({ code, within: ms < BOUND_MS }, tail(worker)).toEqual({ code: 0, within: true });
  });
});
