/**
 * Drill (issue 53.3): two workers, one cut off from Redis (a TCP proxy between it and
 * Redis, cut) while its PATCH is in flight. Its lock lapses, the other worker takes the
 * job over, applies the fix and rolls it out. The cut-off worker's PATCH then reaches
 * the API server (409: the other's write moved the resourceVersion) and it finds the
 * change in place; after the heal it must post nothing: before the fence it posted a
 * stale "already applied" and moved the message back from "rolled out".
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import type { Child } from '../../bench/lib/children.js';
import { buttonsOf } from '../support/slack-sign.js';
import type { StoredMessage } from '../support/slack-standin.js';
import { startRedisPartition, type RedisPartition } from '../support/redis-faults.js';
import {
  NAME,
  NS,
  deadlockTracker,
  deployment,
  queuesSettled,
  realPatches,
  rolledOut,
  waitUntil,
} from './support/drill-kit.js';
import { SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';

// Each test here plays a whole story: the story limit, not the config's default.
vi.setConfig({ testTimeout: STORY_TIMEOUT_MS });

/** Locks that lapse in 3 s, checked every second: the takeover comes within seconds of the cut. */
const QUICK_TAKEOVER = {
  ROLLOUT_DOCTOR_JOB_LOCK_MS: '3000',
  ROLLOUT_DOCTOR_STALLED_INTERVAL_MS: '1000',
  ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '60',
  // The held PATCH must outlast the takeover, not time out first.
  ROLLOUT_DOCTOR_KUBE_TIMEOUT_MS: '90000',
};

let stack: Stack;
let toA: RedisPartition;
let toB: RedisPartition;
let workerA: Child;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 0,
    workerEnv: QUICK_TAKEOVER,
  });
  toA = await startRedisPartition(stack.redis.port);
  toB = await startRedisPartition(stack.redis.port);
  // B waits behind a cut link until A has taken the remediation: then the job is A's.
  toB.cut();
  workerA = await stack.startWorker({ REDIS_URL: toA.url });
  await stack.startWorker({ REDIS_URL: toB.url });
  await deadlockTracker(stack.sim);
});

afterAll(async () => {
  await stack?.close();
  await toA?.close();
  await toB?.close();
});

describe('a worker cut off from Redis while its PATCH is in flight', () => {
  it('loses the job to the other worker and, once back, posts nothing and moves nothing', async () => {
    const { sim, slack } = stack;
    expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
    const result = await slack.waitFor(
      () =>
        [...slack.messages.values()].find(
          (m) => m.threadTs === undefined && buttonsOf(m).some((b) => b.action_id.startsWith('approve_plan')),
        ),
      SIGNAL_WAIT_MS,
    );
    const approve = buttonsOf(result).find((b) => b.action_id.startsWith('approve_plan'));
    if (!approve) throw new Error('no Approve button');
    // A's PATCH is held at the API server until well after B has taken over.
    sim.addFault({
      match: { verb: 'patch', resource: 'deployments', name: NAME, dryRun: false },
      delayMs: 25_000,
      times: 1,
    });
    const click = await stack.click(result, approve.action_id);
    expect(click.status).toBe(200);
    const heldPatch = await waitUntil(
      "A's PATCH reached the API server",
      () => sim.requests.find((r) => r.verb === 'patch' && r.name === NAME && !r.dryRun),
      SIGNAL_WAIT_MS,
    );
    toA.cut();
    toB.heal();

    const thread = (): StoredMessage[] =>
      [...slack.messages.values()].filter((m) => m.threadTs === result.ts);
    const root = (): StoredMessage | undefined => slack.messages.get(`${result.channel}/${result.ts}`);
    // B applied the fix (its PATCH went through while A's was still held) and rolled it out.
    await slack.waitFor(
      () => thread().some((m) => /^rolled out/i.test(m.text)) || undefined,
      STORY_TIMEOUT_MS,
    );
    await slack.waitFor(
      () => /rolled out at/.test(JSON.stringify(root()?.blocks ?? [])) || undefined,
      SIGNAL_WAIT_MS,
    );
    // A's PATCH lands on B's change: refused (409), nothing written twice.
    await waitUntil("A's held PATCH answered", () => heldPatch.finishedAt !== undefined, SIGNAL_WAIT_MS);
    expect(heldPatch.status).toBe(409);

    const logA = workerA.output().length;
    toA.heal();
    // A is back: its kept outcome is dropped (or, without the fence, posted).
    await waitUntil(
      'A dropped its stale outcome, or posted it',
      () =>
        workerA.output().slice(logA).includes('outcome of a job a later attempt took over: not posted') ||
        thread().some((m) => /already applied/i.test(m.text)),
      SIGNAL_WAIT_MS,
    );
    await queuesSettled(stack.redisUrl, SIGNAL_WAIT_MS);

    expect(thread().filter((m) => /already applied/i.test(m.text))).toEqual([]);
    expect(thread().filter((m) => /^applied/i.test(m.text))).toHaveLength(1);
    expect(thread().filter((m) => /^rolled out/i.test(m.text))).toHaveLength(1);
    expect(JSON.stringify(root()?.blocks ?? [])).toMatch(/rolled out at/);
    expect(JSON.stringify(root()?.blocks ?? [])).not.toMatch(/already applied/);
    // The cluster received one PATCH that landed (B's); A's was refused.
    expect(realPatches(sim)).toBe(1);
    expect(rolledOut(deployment(sim))).toBe(true);
  });
});
