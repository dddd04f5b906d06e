/**
 * Drill: Redis (append-only persistence) stopped and restarted under a running app
 * process. While it is down, a slash command still gets an answer inside Slack's
 * 3 s, and that answer says clearly that nothing was started. When Redis is back the
 * same app process recovers by itself, and the jobs queued before the stop (a
 * diagnosis and an approved remediation) survive and complete: the diagnosis posts
 * its result, the patch is applied once.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { QUEUE_PREFIX, diagnoseQueueName, remediateQueueName } from '../../src/queue/names.js';
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
} from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let stack: Stack;
let appExited = false;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    appendonly: true,
    workerEnv: FAST_RECOVERY,
  });
  void stack.app.exited.then(() => (appExited = true));
  await deadlockTracker(stack.sim);
});

afterAll(async () => {
  await stack?.close();
});

const isResult = (m: StoredMessage): boolean =>
  m.text.startsWith(`deployment/${NAME} in ${NS}:`) && m.threadTs === undefined;

/** Waiting jobs per queue, read straight from Redis. */
async function waiting(): Promise<{ diagnose: number; remediate: number }> {
  const read = async (name: string): Promise<number> => {
    const queue = new Queue(name, { connection: { url: stack.redis.url }, prefix: QUEUE_PREFIX });
    try {
      return await queue.getWaitingCount();
    } finally {
      await queue.close();
    }
  };
  return {
    diagnose: await read(diagnoseQueueName('default')),
    remediate: await read(remediateQueueName('default')),
  };
}

async function ready(): Promise<number> {
  return (await fetch(`${stack.appUrl}/readyz`)).status;
}

describe('Redis stopped and restarted', () => {
  it('answers clearly while down, recovers without an app restart, and queued jobs survive', async () => {
    const { slack, sim, redis } = stack;
    // A diagnosis with plans, then every worker gone.
    expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
    const result = await slack.waitFor(
      () =>
        [...slack.messages.values()].find(
          (m) => isResult(m) && JSON.stringify(m.blocks).includes('RolloutSurgeDeadlock'),
        ),
      SIGNAL_WAIT_MS,
    );
    const worker = stack.workers[0];
    expect(await worker?.stop('SIGTERM')).toBe(0);

    // Queued before the stop: an approved remediation and a fresh diagnosis.
    sim.clearRequests();
    expect((await stack.click(result, 'approve_plan.0')).status).toBe(200);
    await slack.waitFor(() => slack.editOf(result, /approved/));
    expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
    const queuedRun = await slack.waitFor(() =>
      [...slack.messages.values()].find((m) => m.text.includes('asked for a diagnosis')),
    );
    await waitUntil('both jobs waiting', async () => {
      const w = await waiting();
      return w.diagnose === 1 && w.remediate === 1;
    });

    await redis.stop();
    const down = await stack.command(`${NAME} -n ${NS}`);
    expect(down.status).toBe(200);
    expect(down.ms).toBeLessThan(3_000);
    expect(JSON.parse(down.body)).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('queue is unavailable'),
    });
    expect(JSON.parse(down.body).text).toContain('Nothing was started');
    expect(await ready()).toBe(503);

    await redis.start();
    await waitUntil('app ready again', async () => (await ready()) === 200, SIGNAL_WAIT_MS);
    expect(appExited).toBe(false);
    const back = await stack.command(`${NAME} -n ${NS}`);
    expect(back.status).toBe(200);
    expect(back.body).not.toContain('unavailable');
    // The job queued before the stop is still there: the new request joins it.
    expect(await waiting()).toEqual({ diagnose: 1, remediate: 1 });
    await slack.waitFor(() =>
      [...slack.messages.values()].find((m) => m.text.includes('joining the run already in progress')),
    );

    await stack.startWorker();
    await slack.waitFor(
      () =>
        [...slack.messages.values()].find((m) => m.threadTs === result.ts && m.text.startsWith('rolled out')),
      SIGNAL_WAIT_MS,
    );
    await slack.waitFor(() =>
      isResult(slack.messages.get(`${queuedRun.channel}/${queuedRun.ts}`) ?? queuedRun),
    );
    await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
    await queuesSettled(stack.redis.url); // a second apply would have happened by now
    const tried = sim.requests.filter((r) => r.verb === 'patch' && r.resource === 'deployments' && !r.dryRun);
    expect(realPatches(sim), `PATCH statuses: ${tried.map((r) => r.status).join(', ')}`).toBe(1);
    // The plan's outcome replies; the thread report under every result is not one.
    const thread = [...slack.messages.values()].filter(
      (m) => m.threadTs === result.ts && !m.text.startsWith('Full report'),
    );
    expect(thread.map((m) => m.text.split(':')[0]).sort()).toEqual(['applied', 'rolled out']);
    expect(await waiting()).toEqual({ diagnose: 0, remediate: 0 });
  });
});
