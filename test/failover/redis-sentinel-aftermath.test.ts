/**
 * Drill: the minute after a Sentinel failover that leaves no replica (issue 53.5).
 * One master, one replica, three sentinels on loopback under the real app and worker
 * (REDIS_WAIT_REPLICAS 1, the Sentinel default). The master is SIGKILLed: the replica
 * is promoted and has no replica of its own, so no WAIT can reach one. From the kill
 * on, slash commands come at a steady 5 a second for 60 s, and 35 s in (where a drill
 * round saw every command fail for 5-7 s while the app's connection sat in back-to-back
 * WAITs) the approver clicks Approve on a result offering a plan.
 *
 * Twice: the old master revived 10 s in (it comes back as a replica and resyncs), and
 * never revived. Asserted each time: every command is answered within Slack's 3 s
 * acknowledgement, and once one is taken every later one is taken too (no "try again"
 * for a minute); the click is answered within 3 s, the approval is taken at once and
 * "applied" reaches its thread within seconds; the plan is applied once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STACK_APPROVER, startStack, type Stack } from '../../bench/lib/stack.js';
import {
  PLAN_KIND,
  addBystander,
  armIncident,
  command,
  offeredResult,
} from '../../bench/lib/failover-probes.js';
import { buttonsOf } from '../support/slack-sign.js';
import type { StoredMessage } from '../support/slack-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { FAST_RECOVERY, queuesSettled, realPatches } from '../drills/support/drill-kit.js';
import type { SentinelSet } from '../support/redis-sentinel.js';

/** Slack's acknowledgement window: behaviour, not a test limit (not scaled). */
const ACK_MS = 3_000;
/** How long after the kill commands keep coming, and at what pace. */
const DRILL_MS = 60_000;
const EVERY_MS = 200;
/** When the approver clicks, after the kill. */
const CLICK_AT_MS = 35_000;
/** From the click to "applied" in the thread: "within seconds" (the bench measured 2.2-2.8 s from the kill). */
const APPLIED_WITHIN_MS = 10_000;

let stack: Stack;
let set: SentinelSet;
let appExited = false;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 1,
    redis: 'sentinel',
    workerEnv: FAST_RECOVERY,
    // The budget is not under test: 5 commands a second from one person for a minute.
    appEnv: {
      ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: '1000',
      ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: '1000',
    },
  });
  if (!stack.sentinel) throw new Error('no sentinel set');
  set = stack.sentinel;
  void stack.app.exited.then(() => (appExited = true));
  await addBystander(stack.sim);
}, SIGNAL_WAIT_MS * 2);

afterAll(async () => {
  await stack?.close();
});

interface Answer {
  /** Sent this long after the kill. */
  at: number;
  status: number;
  ms: number;
  kind: 'taken' | 'try again' | 'no answer';
}

/** One command about the bystander (so no run re-makes the plan being approved). */
async function ask(channel: string, t0: number): Promise<Answer> {
  const at = Date.now() - t0;
  try {
    const reply = await command(stack, channel, 'U0STEADY', 'vision-api');
    const refused = /Nothing was started|try again/i.test(reply.body);
    return { at, status: reply.status, ms: reply.ms, kind: refused ? 'try again' : 'taken' };
  } catch {
    return { at, status: 0, ms: Date.now() - t0 - at, kind: 'no answer' };
  }
}

/** Commands every EVERY_MS from `t0` until DRILL_MS after it (paced by the clock, not by the answers). */
async function steadyCommands(channel: string, t0: number): Promise<Answer[]> {
  const sent: Promise<Answer>[] = [];
  for (let i = 0; i * EVERY_MS < DRILL_MS; i += 1) {
    const due = t0 + i * EVERY_MS;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    sent.push(ask(channel, t0));
  }
  return Promise.all(sent);
}

/** Answers as one line a second: "t+12s 5 taken max 140 ms", for a failed drill. */
function timeline(answers: Answer[]): string {
  const bySecond = new Map<number, Answer[]>();
  for (const a of answers)
    bySecond.set(Math.floor(a.at / 1000), [...(bySecond.get(Math.floor(a.at / 1000)) ?? []), a]);
  return [...bySecond.entries()]
    .map(([s, list]) => {
      const kinds = [...new Set(list.map((a) => a.kind))].map(
        (k) => `${list.filter((a) => a.kind === k).length} ${k}`,
      );
      return `t+${s}s ${kinds.join(', ')}; slowest ${Math.round(Math.max(...list.map((a) => a.ms)))} ms`;
    })
    .join('\n');
}

interface Click {
  ackMs: number;
  /** Click → the message marked approved, and → "applied" in its thread. */
  approvedMs: number;
  appliedMs: number;
}

/** Clicks Approve on `result` at CLICK_AT_MS after `t0`; the click's ack and what followed. */
async function approveLater(result: StoredMessage, t0: number): Promise<Click> {
  const { slack } = stack;
  const button = buttonsOf(result).find((b) => b.value?.includes(PLAN_KIND));
  if (!button) throw new Error(`no ${PLAN_KIND} button on the result`);
  const due = t0 + CLICK_AT_MS;
  if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
  const at = Date.now();
  const click = await stack.click(result, button.action_id);
  expect(click.status).toBe(200);
  const answer = await slack.waitFor(() => {
    const update = slack
      .callsOf('chat.update')
      .find((c) => c.at >= at && c.args.ts === result.ts && String(c.args.text).endsWith('approved'));
    if (update) return { approved: true, text: '' };
    const reply = slack
      .callsOf('chat.postEphemeral')
      .find((c) => c.at >= at && c.args.user === STACK_APPROVER);
    return reply ? { approved: false, text: String(reply.args.text) } : undefined;
  }, SIGNAL_WAIT_MS);
  // Taken at the first click: 35 s after the failover, nothing is left to retry for.
  expect(answer.text).toBe('');
  const approvedMs = Date.now() - at;
  await slack.waitFor(
    () => [...slack.messages.values()].find((m) => m.threadTs === result.ts && m.text.startsWith('applied')),
    SIGNAL_WAIT_MS,
  );
  return { ackMs: click.ms, approvedMs, appliedMs: Date.now() - at };
}

/** A round: a result offering the plan, the master killed, a minute of commands and a click. */
async function drill(round: number, options: { reviveAfterMs?: number }): Promise<void> {
  await armIncident(stack.sim, round);
  const result = await offeredResult(stack, `C0SETUP${round}`, `U0SETUP${round}`);
  await set.synced();
  await queuesSettled(stack.redisUrl);
  stack.sim.clearRequests();
  let t0 = 0;
  let work: Promise<[Answer[], Click]> | undefined;
  const killed = await set.killMaster(() => {
    t0 = Date.now();
    work = Promise.all([steadyCommands(`C0STEADY${round}`, t0), approveLater(result, t0)]);
  });
  if (!work) throw new Error('master not killed');
  if (options.reviveAfterMs !== undefined) {
    const due = t0 + options.reviveAfterMs;
    if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
    await set.revive(killed.old);
  }
  const [answers, click] = await work;
  const summary = `round ${round}: click ${JSON.stringify(click)}; commands:\n${timeline(answers)}`;
  const slowest = Math.round(Math.max(...answers.map((a) => a.ms)));
  console.log(
    `aftermath round ${round}: ${answers.length} commands, slowest answer ${slowest} ms; click answered in ${Math.round(click.ackMs)} ms, approved after ${click.approvedMs} ms, applied after ${click.appliedMs} ms`,
  );
  const late = answers.filter((a) => a.status !== 200 || a.ms > ACK_MS);
  expect(late, summary).toEqual([]);
  const firstTaken = answers.findIndex((a) => a.kind === 'taken');
  expect(firstTaken, summary).toBeGreaterThanOrEqual(0);
  expect(
    answers.slice(firstTaken).filter((a) => a.kind !== 'taken'),
    summary,
  ).toEqual([]);
  expect(click.ackMs, summary).toBeLessThan(ACK_MS);
  expect(click.appliedMs, summary).toBeLessThan(APPLIED_WITHIN_MS);
  if (options.reviveAfterMs === undefined) await set.revive(killed.old);
  await set.synced();
  await queuesSettled(stack.redisUrl); // a second apply would have happened by now
  expect(realPatches(stack.sim)).toBe(1);
  expect(appExited).toBe(false);
}

describe('the minute after a Sentinel failover that leaves no replica', () => {
  it('answers every command and click in time, and applies the approval at once (old master revived 10 s in)', async () => {
    await drill(0, { reviveAfterMs: 10_000 });
  });

  it('does the same when the old master stays dead', async () => {
    await drill(1, {});
  });
});
