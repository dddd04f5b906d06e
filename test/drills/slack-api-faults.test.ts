/**
 * Drill: Slack's Web API answers 429 with Retry-After and 500 while rollout-doctor
 * reports. Every notification must arrive once, and the messages of one thread must
 * arrive in the order they were sent (applied before rolled out). Checked on the
 * calls the Slack stand-in recorded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startE2e, type E2eHarness, type StoredMessage } from '../support/e2e-harness.js';
import type { SlackCall } from '../support/slack-standin.js';
import { NAME, NS, deadlockTracker, deployment, queuesSettled, rolledOut } from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

let h: E2eHarness;
let result: StoredMessage;

beforeAll(async () => {
  h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  await deadlockTracker(h.sim);
});

afterAll(async () => {
  await h?.close();
});

/** Calls that Slack accepted (HTTP 200, ok: true), in arrival order. */
function accepted(method: string, since: number): SlackCall[] {
  return h.slack.calls.slice(since).filter((c) => c.method === method && c.status === 200 && c.response.ok);
}

describe('Slack Web API faults', () => {
  it('the diagnosis message ends on the result, once, through 500s and a 429', async () => {
    const { slack } = h;
    const from = slack.calls.length;
    slack.failNext('chat.update', 2, { status: 500 });
    slack.failNext('chat.update', 1, { status: 429, retryAfter: 1 });

    expect((await h.command(`${NAME} -n ${NS}`)).status).toBe(200);
    result = await h.waitForResult(NS, NAME, { timeoutMs: 30_000 });
    await queuesSettled(h.redis.url); // a late, stale progress update would have landed by now
    const refused = slack.calls.slice(from).filter((c) => c.status !== 200);
    expect(refused.map((c) => c.status)).toEqual([500, 500, 429]);
    // One message for the run, never re-posted.
    const roots = accepted('chat.postMessage', from).filter((c) => c.args.thread_ts === undefined);
    expect(roots).toHaveLength(1);
    // Updates only move forward: the last one is the result, and the result is written once.
    const updates = accepted('chat.update', from).filter((c) => c.args.ts === result.ts);
    const finals = updates.filter((c) => JSON.stringify(c.args.blocks).includes('RolloutSurgeDeadlock'));
    expect(finals).toHaveLength(1);
    expect(updates.at(-1)).toBe(finals[0]);
    expect(h.message(result.channel, result.ts)?.text).toBe(result.text);
  });

  it('thread replies arrive once and in order through a 500 and a 429', async () => {
    const { slack, sim } = h;
    const from = slack.calls.length;
    // The "applied" reply fails first (500, retried later); the next post is throttled.
    slack.failNext('chat.postMessage', 1, { status: 500 });
    slack.failNext('chat.postMessage', 1, { status: 429, retryAfter: 1 });

    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);
    await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
    await queuesSettled(h.redis.url); // a duplicate reply would have landed by now

    const refused = slack.calls.slice(from).filter((c) => c.status !== 200);
    expect(refused.map((c) => c.status)).toEqual([500, 429]);
    const thread = accepted('chat.postMessage', from)
      .filter((c) => c.args.thread_ts === result.ts)
      .map((c) => String(c.args.text).split(':')[0]);
    expect(thread).toEqual(['applied', 'rolled out']);
    // The stand-in's view of the thread agrees (ts order = arrival order).
    expect(
      h
        .replies(result.ts)
        .filter((m) => !m.text.startsWith('Full report')) // the report under every result
        .sort((a, b) => a.ts.localeCompare(b.ts))
        .map((m) => m.text.split(':')[0]),
    ).toEqual(['applied', 'rolled out']);
  });
});
