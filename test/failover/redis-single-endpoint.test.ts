/**
 * Drill: the single endpoint a managed Redis gives (one redis:// address) through the
 * failover such a service makes. The server behind the address has a replica; the
 * failover promotes the replica and demotes the address's server to a replica of it
 * (REPLICAOF: it still answers PING, and every write gets READONLY), then promotes it
 * back. Under the real app and worker processes:
 *
 * - while demoted: /readyz says what it waits for (a read-only replica), a slash
 *   command is answered inside Slack's 3 s with "Nothing was started", and an
 *   approval click is answered "Nothing was applied", never left without an answer;
 * - between the claim and the apply (approved and queued while no worker runs): the
 *   demotion and promotion keep the claim and its job, and the worker started after
 *   applies the plan once;
 * - both processes recover by themselves, and nothing is applied twice.
 *
 * The restart of the address's server (stopped, started again) is
 * test/drills/redis-restart.test.ts.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { HOOK_TIMEOUT_MS, SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import type { StoredMessage } from '../support/slack-standin.js';
import {
  FAST_RECOVERY,
  NAME,
  NS,
  deadlockTracker,
  deployment,
  queuesSettled,
  realPatches,
  rolledOut,
  waitUntil,
  deadlockResults,
} from '../drills/support/drill-kit.js';

let stack: Stack;
let standby: TestRedis;
let appExited = false;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    workerEnv: FAST_RECOVERY,
  });
  standby = await startRedis({ extraArgs: ['--replicaof', '127.0.0.1', String(stack.redis.port)] });
  void stack.app.exited.then(() => (appExited = true));
  await deadlockTracker(stack.sim);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await standby?.close();
  await stack?.close();
});

async function on<T>(port: number, work: (c: Redis) => Promise<T>): Promise<T> {
  const c = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1, lazyConnect: true });
  c.on('error', () => undefined);
  try {
    await c.connect();
    return await work(c);
  } finally {
    c.disconnect();
  }
}

const replication = (port: number): Promise<string> => on(port, (c) => c.info('replication'));
const offset = (info: string): number => Number(/^master_repl_offset:(\d+)/m.exec(info)?.[1] ?? -1);

/** Waits until `replica` has everything `primary` has (a managed service's planned failover). */
async function caughtUp(primary: TestRedis, replica: TestRedis): Promise<void> {
  await waitUntil('the replica to catch up', async () => {
    const [p, r] = await Promise.all([replication(primary.port), replication(replica.port)]);
    return /master_link_status:up/.test(r) && offset(r) === offset(p) && offset(p) > 0;
  });
}

/** `from` becomes a replica of `to`, `to` the master; resolves once `from` has synced. */
async function switchRoles(from: TestRedis, to: TestRedis): Promise<void> {
  await caughtUp(from, to);
  await on(to.port, (c) => c.call('REPLICAOF', 'NO', 'ONE'));
  await on(from.port, (c) => c.call('REPLICAOF', '127.0.0.1', String(to.port)));
  await waitUntil('the demoted server to sync from the new master', async () =>
    /master_link_status:up/.test(await replication(from.port)),
  );
}

const readyz = async (): Promise<{ status: number; body: { waitingFor?: string[] } }> => {
  const res = await fetch(`${stack.appUrl}/readyz`);
  return { status: res.status, body: (await res.json()) as { waitingFor?: string[] } };
};

const results = (): StoredMessage[] => deadlockResults(stack.slack);

const ephemerals = (): string[] => stack.slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text));

describe('one redis:// address whose server is demoted to a replica and promoted back', () => {
  it(
    'answers every command and click while read-only, and applies the plan once',
    async () => {
      const { slack, sim, redis } = stack;
      expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
      const result = await slack.waitFor(() => results()[0], SIGNAL_WAIT_MS);

      // Demoted: the address answers PING but refuses writes.
      await switchRoles(redis, standby);
      const notReady = await waitUntil('readyz to say read-only', async () => {
        const r = await readyz();
        return r.status === 503 ? r : undefined;
      });
      expect(notReady.body.waitingFor).toEqual(['redis (read-only replica)']);
      const refused = await stack.command(`${NAME} -n ${NS}`);
      expect(refused.status).toBe(200);
      expect(refused.ms).toBeLessThan(3_000);
      expect(refused.body).toContain('Nothing was started');
      const before = ephemerals().length;
      expect((await stack.click(result, 'approve_plan.0')).status).toBe(200);
      const told = await waitUntil('the clicker to be told', async () => ephemerals().slice(before)[0]);
      expect(told).toContain('Nothing was applied');
      expect(slack.messages.get(`${result.channel}/${result.ts}`)?.text).not.toMatch(/approved/);

      // Promoted back: the same processes take writes again.
      await switchRoles(standby, redis);
      await waitUntil('app ready again', async () => (await readyz()).status === 200, SIGNAL_WAIT_MS);

      // Claimed and queued with no worker running; then the address fails over and back.
      const worker = stack.workers[0];
      expect(await worker?.stop('SIGTERM')).toBe(0);
      sim.clearRequests();
      expect((await stack.click(result, 'approve_plan.0')).status).toBe(200);
      await slack.waitFor(() => slack.editOf(result, /approved/), SIGNAL_WAIT_MS);
      await switchRoles(redis, standby);
      await switchRoles(standby, redis);
      await stack.startWorker();

      await slack.waitFor(
        () =>
          [...slack.messages.values()].find(
            (m) => m.threadTs === result.ts && m.text.startsWith('rolled out'),
          ),
        SIGNAL_WAIT_MS,
      );
      await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
      await queuesSettled(stack.redisUrl); // a second apply would have happened by now
      expect(realPatches(sim)).toBe(1);
      const thread = [...slack.messages.values()].filter(
        (m) => m.threadTs === result.ts && !m.text.startsWith('Full report'),
      );
      expect(thread.map((m) => m.text.split(':')[0]).sort()).toEqual(['applied', 'rolled out']);
      // One top-level message: the one diagnosis run; the command refused while
      // read-only started nothing, then or later.
      expect(slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === undefined)).toHaveLength(1);
      expect(appExited).toBe(false);
    },
    STORY_TIMEOUT_MS,
  );
});
