/**
 * Drill: the early warning's lease (src/worker/early-warning/lease.ts) and a worker's
 * start on a Redis Sentinel set, under real worker processes:
 *
 * 1. two workers compete for the lease; the master dies (SIGKILL) after its replica
 *    was cut off, so the renewals since are lost with it. Afterwards exactly one worker
 *    watches, and the lease on the new master is renewed by it.
 * 2. a third worker starts while no master can be found (every sentinel down): its
 *    /readyz says what it waits for; once the sentinels are back it becomes ready by
 *    itself, and joins as a follower (still one watcher).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import type { Child } from '../../bench/lib/children.js';
import { leaderKey } from '../../src/worker/early-warning/lease.js';
import { HOOK_TIMEOUT_MS, SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';
import type { SentinelSet } from '../support/redis-sentinel.js';
import { freePort } from '../support/redis.js';
import { FAST_RECOVERY, waitUntil } from '../drills/support/drill-kit.js';

let stack: Stack;
let set: SentinelSet;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 2,
    redis: 'sentinel',
    appEnv: { ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0INCIDENT' },
    workerEnv: {
      ...FAST_RECOVERY,
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'vision',
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
    },
  });
  if (!stack.sentinel) throw new Error('no sentinel set');
  set = stack.sentinel;
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
});

const LEADS = 'early-warning watch started (this replica holds the lease)';
const LOSES = 'early-warning lease lost: another replica watches';

/** Workers watching now: each one's lead lines outnumber its lost lines. */
const watching = (): Child[] =>
  stack.workers.filter((w) => {
    const lines = w.output().split('\n');
    return lines.filter((l) => l.includes(LEADS)).length > lines.filter((l) => l.includes(LOSES)).length;
  });

/** The lease's remaining time on the master now (ms; negative: no lease). */
async function leaseTtl(): Promise<number> {
  const master = await set.master();
  const redis = new Redis({ port: master.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    return await redis.pttl(leaderKey('default'));
  } finally {
    redis.disconnect();
  }
}

/**
 * Two renewals of the lease seen on the master (its TTL going up twice): a whole
 * renewal period passed on it, in which every worker's own tick came too.
 */
async function twoRenewals(): Promise<void> {
  let last = await leaseTtl();
  let renewals = 0;
  await waitUntil(
    'two lease renewals on the master',
    async () => {
      const ttl = await leaseTtl().catch(() => -2);
      if (ttl > last) renewals += 1;
      last = ttl;
      return renewals >= 2;
    },
    SIGNAL_WAIT_MS,
  );
}

const readyz = async (port: number): Promise<{ status: number; waitingFor?: string[] }> => {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/readyz`);
    const body = (await res.json()) as { waitingFor?: string[] };
    return { status: res.status, ...(body.waitingFor ? { waitingFor: body.waitingFor } : {}) };
  } catch {
    return { status: 0 }; // the endpoint is not up yet
  }
};

describe('the early-warning lease and a worker start on a Sentinel set', () => {
  it(
    'one watcher after the master dies; a worker started with no master comes ready by itself',
    async () => {
      await waitUntil('a watcher', () => watching().length > 0, SIGNAL_WAIT_MS);
      expect(watching()).toHaveLength(1);
      await twoRenewals();

      // 1. The master dies with the renewals its replica never got.
      await set.cutOffReplicas();
      const { old } = await set.killMaster();
      await set.revive(old);
      await set.synced();
      await twoRenewals();
      expect(watching()).toHaveLength(1);

      // 2. A worker starts while no sentinel answers: not ready, and it says why.
      await set.stopSentinels();
      const port = await freePort();
      await stack.startWorker({ ROLLOUT_DOCTOR_HEALTH_PORT: String(port) });
      const away = await waitUntil('the new worker to say it waits', async () => {
        const r = await readyz(port);
        return r.status === 503 ? r : undefined;
      });
      expect(away.waitingFor?.some((w) => w.startsWith('redis'))).toBe(true);
      await set.startSentinels();
      await waitUntil(
        'the new worker ready by itself',
        async () => (await readyz(port)).status === 200,
        SIGNAL_WAIT_MS,
      );
      await twoRenewals();
      expect(stack.workers).toHaveLength(3);
      expect(watching()).toHaveLength(1);
    },
    STORY_TIMEOUT_MS,
  );
});
