/**
 * Drill (issue 53.1, 53.8): a Redis that stalls under the app (its link holds every
 * byte, connections open, nothing answered), on the real processes (app, worker,
 * simulator, Slack stand-in).
 * - For 20 s while commands keep coming: each gets a visible "try again" within Slack's
 *   3-second ack window, and once the stall ends none of them runs unseen (the cluster
 *   is never asked about their targets, nothing is posted for them); the next command
 *   after the stall is taken and answered. Before the deadlines (src/queue/deadline.ts) a
 *   command waited on the stalled budget, Slack gave up after 3 s (Bolt's 404), and the
 *   job was queued anyway once Redis answered: a diagnosis nobody saw.
 * - From a command's enqueue (its budget taken): told to try again in time; the add Redis
 *   runs after the stall is withdrawn and the worker runs nothing of it.
 * - From an approval's claim: the approver is told to try again in time; the claim Redis
 *   makes after the stall is released, nothing is applied, and the next click applies once.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { STACK_APPROVER, startStack, type Stack } from '../../bench/lib/stack.js';
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { buttonsOf } from '../support/slack-sign.js';
import {
  NS,
  deadlockTracker,
  queuesSettled,
  realPatches,
  waitUntil,
  freshResult,
} from './support/drill-kit.js';
import { ACK_WINDOW_MS, playStall } from '../../bench/lib/stall-story.js';
import { addBystander } from '../../bench/lib/failover-probes.js';
import { SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';

// A whole story: the story limit, not the config's default.
vi.setConfig({ testTimeout: STORY_TIMEOUT_MS });

/** The stall the issue measured (a duration the drill plays, not a wait for a signal). */
const STALL_MS = 20_000;

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    appRedisLink: true,
  });
  await addBystander(stack.sim);
  await deadlockTracker(stack.sim);
});

afterAll(async () => {
  await stack?.close();
});

describe('Redis stalls under the app for 20 s', () => {
  it('every command gets a visible "try again" in time, none runs unseen, and the next one is answered', async () => {
    const round = await playStall(stack, {
      stallMs: STALL_MS,
      everyMs: 2_000,
      channel: 'C0STALL',
      user: 'U0STALL',
    });
    expect(round.during.length, 'commands sent during the stall').toBeGreaterThanOrEqual(5);
    // What the person sees: each answered within the ack window, saying nothing started.
    expect(
      round.failed.map((c) => ({ name: c.name, ms: c.ms, status: c.status, body: c.body.slice(0, 200) })),
      `answers later than ${ACK_WINDOW_MS} ms or without "try again"`,
    ).toEqual([]);
    for (const c of round.during) expect(c.body).toContain('did not answer in time');
    // What the cluster received: nothing about the stalled commands' targets, and no post for them.
    expect(round.unseen, 'stalled commands that ran after all').toEqual([]);
    // After the stall, the next command is taken and its result posted.
    expect(round.after.unanswered, 'commands with no answer after the stall').toBe(0);
    expect(round.after.answeredMs, 'the next command answered after the stall').toBeDefined();
  });
});

describe('Redis stalls as a command is queued (its budget taken)', () => {
  it('the command is told to try again in time, and the job Redis takes late runs nothing', async () => {
    const link = stack.appLink;
    if (!link) throw new Error('no app link');
    const worker = stack.workers[0];
    if (!worker) throw new Error('no worker');
    const name = 'queued-late';
    const logBefore = worker.output().length;
    // The stall starts with the enqueue (the job id names the Deployment), after the budget.
    link.stallOn(`diagnose.${NS}.${name}`);
    const answer = await stack.command(`${name} -n ${NS}`, 'U0LATE');
    expect(answer.status).toBe(200);
    expect(answer.ms).toBeLessThan(ACK_WINDOW_MS);
    expect(answer.body).toContain('Redis did not answer in time');
    expect(answer.body).toContain('Nothing was started');
    // The stall ends (a duration the drill plays): Redis takes the add, then its withdrawal.
    await new Promise((r) => setTimeout(r, 2_000));
    link.heal();
    await waitUntil(
      'the worker dropped the late job',
      () => worker.output().slice(logBefore).includes('diagnose job not run: its request was answered'),
      SIGNAL_WAIT_MS,
    );
    await queuesSettled(stack.redisUrl);
    // What the cluster received and the channel got: nothing for it.
    expect(stack.sim.requests.filter((r) => r.name === name || r.path.includes(name))).toEqual([]);
    expect([...stack.slack.messages.values()].filter((m) => m.text.includes(name))).toEqual([]);
  });
});

/** The approver's private answer to a click made at `at`. */
const answerSince = (at: number) => (): { text: string; ms: number } | undefined => {
  const call = stack.slack
    .callsOf('chat.postEphemeral')
    .find((c) => c.at >= at && c.args.user === STACK_APPROVER);
  return call ? { text: String(call.args.text), ms: call.at - at } : undefined;
};

describe('Redis stalls as an approval claims its plan', () => {
  it('the approver is told to try again in time, no claim is left standing, nothing is applied; the next click applies once', async () => {
    const link = stack.appLink;
    if (!link) throw new Error('no app link');
    const result = await freshResult(stack);
    const approve = buttonsOf(result).find((b) => b.action_id.startsWith('approve_plan'));
    if (!approve) throw new Error('no Approve button');
    const { planId } = parsePlanButtonValue(approve.value ?? '');
    const claimKey = `rd:plan:${planId}:claim`;
    await queuesSettled(stack.redisUrl);
    const patchesBefore = realPatches(stack.sim);
    // The claim's comings and goings, as Redis sees them (keyspace notifications).
    const admin = new Redis(stack.redis.url);
    const watcher = new Redis(stack.redis.url);
    const events: string[] = [];
    try {
      await admin.config('SET', 'notify-keyspace-events', 'Kg$');
      await watcher.subscribe(`__keyspace@0__:${claimKey}`);
      watcher.on('message', (_channel, event: string) => events.push(event));

      // The stall starts with the approval's claim script (it names the plan's approvals-shown key).
      link.stallOn(`rd:plan:${planId}:approvals-shown`);
      const clickedAt = Date.now();
      const click = await stack.click(result, approve.action_id);
      expect(click.status).toBe(200);
      const told = await waitUntil('the approver answered', answerSince(clickedAt), SIGNAL_WAIT_MS);
      expect(told.text).toContain('could not be recorded: Redis did not answer in time');
      expect(told.text).toContain('Nothing was applied');
      expect(told.ms, 'answered within the ack window').toBeLessThan(ACK_WINDOW_MS);
      // The stall ends (a duration the drill plays): the claim script runs late, and is undone.
      await new Promise((r) => setTimeout(r, 2_000));
      link.heal();
      await waitUntil(
        'the late claim made and released',
        () => events.includes('set') && events.includes('del'),
        SIGNAL_WAIT_MS,
      );
      expect(await admin.get(claimKey)).toBeNull();
      await queuesSettled(stack.redisUrl);
      expect(realPatches(stack.sim) - patchesBefore, 'nothing applied for the click told to try again').toBe(
        0,
      );

      // The next click is taken and applied, once.
      const again = Date.now();
      await stack.click(result, approve.action_id);
      await stack.slack.waitFor(
        () =>
          [...stack.slack.messages.values()].find(
            (m) => m.threadTs === result.ts && /^applied/i.test(m.text),
          ),
        SIGNAL_WAIT_MS,
      );
      expect(answerSince(again)()?.text ?? '').not.toMatch(/could not be recorded|unavailable/);
      await queuesSettled(stack.redisUrl);
      expect(realPatches(stack.sim) - patchesBefore).toBe(1);
    } finally {
      watcher.disconnect();
      admin.disconnect();
    }
  });
});
