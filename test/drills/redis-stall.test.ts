/**
 * Drill (issue 53.1, 53.8): a Redis that stalls under the app for 20 s (its link holds
 * every byte, connections open, nothing answered), on the real processes (app, worker,
 * simulator, Slack stand-in). Each slash command sent meanwhile gets a visible "try
 * again" within Slack's 3-second ack window, and once the stall ends none of them runs
 * unseen: the cluster is never asked about their targets and nothing is posted for
 * them. The next command after the stall is taken and answered. Before the deadlines
 * (src/queue/deadline.ts) a command waited on the stalled budget, Slack gave up after
 * 3 s, and the job was queued anyway once Redis answered: a diagnosis nobody saw.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { ACK_WINDOW_MS, playStall } from '../../bench/lib/stall-story.js';
import { addBystander } from '../../bench/lib/failover-probes.js';
import { STORY_TIMEOUT_MS } from '../support/timeouts.js';

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
