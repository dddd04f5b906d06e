/**
 * Drill: Redis behind Sentinel (one master, one replica, three sentinels on loopback)
 * fails over under the real app and worker processes, at three steps of incident A:
 *
 * 1. after a slash command is acked: the replica is cut off, the command taken and
 *    announced, then the master is SIGKILLed with its job and the message's
 *    subscription; the app's replication guard writes both again on the promoted
 *    replica, and the result reaches the message. (The master dying as the command is
 *    queued, answered "Nothing was started": redis-sentinel-replicas.test.ts.)
 * 2. between the result and the click: SENTINEL FAILOVER demotes the master; the
 *    click afterwards is approved and applied.
 * 3. between the claim and the apply: the approval is claimed and queued while no
 *    worker runs and while the replica is cut off, then the master is SIGKILLed: the
 *    claim and its job die with it (asynchronous replication; WAIT said 0 replicas).
 *    The app's replication guard writes them again on the promoted replica, and the
 *    worker started afterwards applies the plan once, and it rolls out.
 *
 * Nothing is applied twice, nothing answered goes missing, and both processes
 * recover without a restart.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { HOOK_TIMEOUT_MS, SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';
import type { SentinelSet } from '../support/redis-sentinel.js';
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
let set: SentinelSet;
let appExited = false;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    redis: 'sentinel',
    workerEnv: FAST_RECOVERY,
  });
  if (!stack.sentinel) throw new Error('no sentinel set');
  set = stack.sentinel;
  void stack.app.exited.then(() => (appExited = true));
  await deadlockTracker(stack.sim);
}, HOOK_TIMEOUT_MS);

afterAll(async () => {
  await stack?.close();
});

const results = (): StoredMessage[] => deadlockResults(stack.slack);

/**
 * `wait`, and when it fails, what Redis holds (the remediate and diagnose jobs, the
 * claims) and what the app and the last worker said about Redis: a failed drill says
 * which write went missing.
 */
async function explained<T>(what: string, wait: () => Promise<T>): Promise<T> {
  try {
    return await wait();
  } catch (error) {
    const master = await set.master();
    const redis = new Redis({ port: master.port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
    redis.on('error', () => undefined);
    const keys = await redis
      .keys('rd:*')
      .then((all) => all.filter((k) => /remediate\.|diagnose\.|:claim$/.test(k)))
      .catch((e: unknown) => [`(keys: ${String(e)})`]);
    redis.disconnect();
    // Each log line's message and error, not its stack.
    const lines = (text: string): string =>
      text
        .split('\n')
        .filter((l) => /redis|replica|WAIT|queue|approv|remediat|failover/i.test(l))
        .map((l) => {
          try {
            const { msg, err } = JSON.parse(l) as { msg?: string; err?: { message?: string } };
            return `  ${msg ?? ''}${err?.message ? ` (${err.message})` : ''}`;
          } catch {
            return `  ${l}`;
          }
        })
        .slice(-40)
        .join('\n');
    console.error(
      [
        `drill: ${what} did not come; on master ${master.port}: ${keys.join(' ') || '(no job or claim)'}`,
        `app:\n${lines(stack.app.output())}`,
        `last worker:\n${lines(stack.workers.at(-1)?.output() ?? '')}`,
      ].join('\n'),
    );
    throw error;
  }
}

/** The app logged that a failover lost its writes of `what` ('command', 'approval') and wrote them again. */
const redone = (what: string): boolean =>
  stack.app
    .output()
    .split('\n')
    .some((l) => l.includes('a Redis failover lost these writes') && l.includes(`"what":"${what}"`));

const ready = async (): Promise<boolean> => (await fetch(`${stack.appUrl}/readyz`)).status === 200;

describe('Redis Sentinel failover under the running app and worker', () => {
  it(
    'loses no answered command or approval and applies the plan once',
    async () => {
      const { slack, sim } = stack;

      // 1. Acked, then lost: the replica is cut off, the command is taken (the ack
      // waited WAIT's timeout for a replica) and announced, and the master dies with its
      // job and the message's subscription. The app writes both again on the promoted
      // replica, and the result reaches the message.
      await set.cutOffReplicas();
      const ack = await stack.command(`${NAME} -n ${NS}`);
      expect(ack.status).toBe(200);
      expect(ack.ms).toBeLessThan(3_000);
      expect(ack.body).not.toContain('Nothing was started');
      // Posted (a call, not the message: a quick result may have replaced its text already).
      await slack.waitFor(
        () =>
          slack
            .callsOf('chat.postMessage')
            .find((c) => String(c.args.text).includes('asked for a diagnosis')),
        SIGNAL_WAIT_MS,
      );
      const killed = await set.killMaster();
      const result = await explained('the result of the command the master died with', () =>
        slack.waitFor(() => results()[0], SIGNAL_WAIT_MS),
      );
      // The worker may have finished the diagnosis before the master died (it runs all
      // along): the result can come before the guard's next check redoes the lost writes.
      await waitUntil('the app to write the lost command again', () => redone('command'), SIGNAL_WAIT_MS);
      await set.revive(killed.old);
      await set.synced();
      // The command written again runs again, and its result replaces the message's plan:
      // the click in step 3 must see the message as it is once that run has been posted
      // (a click on the earlier plan is refused as one a later diagnosis re-made).
      await queuesSettled(stack.redisUrl);

      // 2. A failover between the result and the click.
      await set.failover();
      await waitUntil('app ready after SENTINEL FAILOVER', ready, SIGNAL_WAIT_MS);
      expect(await fetch(`${stack.appUrl}/readyz`).then((r) => r.json())).toMatchObject({ status: 'ready' });
      await set.synced();

      // 3. Claimed and queued with no worker running, then the master dies before its
      // replica has any of it: the replica is cut off first, so WAIT says 0 replicas and
      // the claim and the job die with the master. The app's replication guard sees the
      // promoted replica's history end before them and writes them again.
      const worker = stack.workers[0];
      expect(await worker?.stop('SIGTERM')).toBe(0);
      sim.clearRequests();
      await set.cutOffReplicas();
      // The message as it reads now: when the master died with the run's record as well
      // (the replica was cut off), the app ran the lost command again, and its result
      // replaced the first one on the message (a plan re-made with the state it read).
      const shown = slack.messages.get(`${result.channel}/${result.ts}`) ?? result;
      const click = await stack.click(shown, 'approve_plan.0');
      expect(click.status).toBe(200);
      await slack
        .waitFor(() => slack.editOf(result, /approved/), SIGNAL_WAIT_MS)
        .catch((error: unknown) => {
          // What the clicker was told instead.
          console.error(
            'drill: told',
            slack.callsOf('chat.postEphemeral').map((c) => String(c.args.text).slice(0, 200)),
          );
          throw error;
        });
      const second = await set.killMaster();
      await set.revive(second.old);
      // The revived old master rejoins as a replica before the worker runs: one that is
      // still taken for a master can bring a second failover that takes the worker's
      // start with it (the run is then taken again as a first attempt).
      await set.synced();
      await stack.startWorker();

      await explained('"rolled out" in the thread of the approval the master died with', () =>
        slack.waitFor(
          () =>
            [...slack.messages.values()].find(
              (m) => m.threadTs === result.ts && m.text.startsWith('rolled out'),
            ),
          SIGNAL_WAIT_MS,
        ),
      );
      expect(redone('approval')).toBe(true);
      await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
      await queuesSettled(stack.redisUrl); // a second apply would have happened by now
      expect(realPatches(sim)).toBe(1);
      const thread = [...slack.messages.values()].filter(
        (m) => m.threadTs === result.ts && !m.text.startsWith('Full report'),
      );
      expect(thread.map((m) => m.text.split(':')[0]).sort()).toEqual(['applied', 'rolled out']);
      // One top-level message, the command's: its job written again posted nothing new.
      expect(slack.callsOf('chat.postMessage').filter((c) => c.args.thread_ts === undefined)).toHaveLength(1);
      expect(appExited).toBe(false);
    },
    STORY_TIMEOUT_MS,
  );
});
