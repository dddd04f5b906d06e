/**
 * Drill: an approver clicks Approve while every worker is down. The app claims the
 * plan and queues the remediation; when a worker comes back it applies the plan
 * exactly once. If the plan expired while no worker was there, the worker refuses
 * it cleanly (nothing patched, Re-run offered) instead of applying a stale approval.
 */
import { parsePlanButtonValue } from '../../src/chat/slack/blocks/action-ids.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remediateQueueName } from '../../src/queue/names.js';
import { startE2e, type E2eHarness, type StoredMessage } from '../support/e2e-harness.js';
import {
  NAME,
  NS,
  deadlockTracker,
  deployment,
  queuesSettled,
  realPatches,
  rolledOut,
  startDrillWorkers,
  waitUntil,
  type DrillWorkers,
} from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { CLOCK_SKEW_TOLERANCE_MS } from '../../src/trust/clock-skew.js';

const started: { close(): Promise<void> }[] = [];

afterAll(async () => {
  for (const part of started.reverse()) await part.close().catch(() => undefined);
});

/** A harness with incident A live and its diagnosis posted; then every worker stopped. */
async function diagnosedThenWorkersDown(
  workerEnv: Record<string, string> = {},
): Promise<{ h: E2eHarness; result: StoredMessage }> {
  const h = await startE2e({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50, workerEnv });
  started.push(h);
  await deadlockTracker(h.sim);
  expect((await h.command(`${NAME} -n ${NS}`)).status).toBe(200);
  const result = await h.waitForResult(NS, NAME, { timeoutMs: 20_000 });
  await h.workers.stop();
  return { h, result };
}

async function waitingRemediations(h: E2eHarness): Promise<number> {
  const rows = await h.app.services.producers.depths();
  return rows.find((r) => r.queue === remediateQueueName('default') && r.state === 'waiting')?.count ?? 0;
}

async function comeBack(h: E2eHarness, now?: () => number): Promise<DrillWorkers> {
  const workers = await startDrillWorkers(h.sim, h.redis.url, {}, now ? { now } : {});
  started.push({ close: () => workers.stop() });
  return workers;
}

const planIdOf = (h: E2eHarness, message: StoredMessage, actionId: string): string => {
  const value = h.buttons(message).find((b) => b.action_id === actionId)?.value;
  if (!value) throw new Error(`no ${actionId} button`);
  return parsePlanButtonValue(value).planId;
};

/** Replies about the plan (applied, rolled out, refused), without the thread report posted under every result. */
const outcomes = (h: E2eHarness, ts: string): StoredMessage[] =>
  h.replies(ts).filter((m) => !m.text.startsWith('Full report'));

describe('approve while every worker is down', () => {
  let h: E2eHarness;
  let result: StoredMessage;
  beforeAll(async () => {
    ({ h, result } = await diagnosedThenWorkersDown());
  });

  it('the click is claimed and queued; a returning worker applies it exactly once', async () => {
    const { sim } = h;
    // Read before the click: the stand-in updates the message in place once it is approved.
    const planId = planIdOf(h, result, 'approve_plan.0');
    sim.clearRequests();
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await waitUntil('remediation queued', async () => (await waitingRemediations(h)) === 1);
    expect((await h.app.services.plans.claimOf(planId))?.approvers).toEqual([h.approver]);
    await h.slack.waitFor(() => h.slack.editOf(result, /approved/));
    // The button now only reports the state: a second click while nobody can apply it
    // is told it is applied once, and queues nothing.
    expect((await h.click(result, 'plan_status.0', h.approver)).status).toBe(200);
    await h.waitForEphemeral(h.approver, 'it is applied once');
    expect(await waitingRemediations(h)).toBe(1);
    expect(realPatches(sim)).toBe(0);
    expect(outcomes(h, result.ts)).toHaveLength(0);

    await comeBack(h);
    await h.waitForReply(result.ts, 'rolled out', SIGNAL_WAIT_MS);
    await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
    await queuesSettled(h.redis.url); // a second apply would have happened by now
    expect(realPatches(sim)).toBe(1);
    expect(outcomes(h, result.ts).map((m) => m.text.split(':')[0])).toEqual(['applied', 'rolled out']);
    expect(await waitingRemediations(h)).toBe(0);
  });
});

describe('approve while every worker is down, and the plan expires meanwhile', () => {
  const TTL_SECONDS = 4;
  let h: E2eHarness;
  let result: StoredMessage;
  beforeAll(async () => {
    ({ h, result } = await diagnosedThenWorkersDown({
      ROLLOUT_DOCTOR_PLAN_TTL_SECONDS: String(TTL_SECONDS),
    }));
  });

  it('the returning worker refuses the expired plan: nothing patched, Re-run offered', async () => {
    const { sim } = h;
    const before = deployment(sim);
    const planId = planIdOf(h, result, 'approve_plan.0');
    sim.clearRequests();
    expect((await h.click(result, 'approve_plan.0', h.approver)).status).toBe(200);
    await waitUntil('remediation queued', async () => (await waitingRemediations(h)) === 1);
    const stored = await h.app.services.plans.get(planId);
    if (!stored) throw new Error('plan not stored');
    expect((await h.app.services.plans.claimOf(planId))?.at).toBeLessThan(stored.expiresAt);
    // The plan's own TTL runs out in real time; the workers then come back a minute
    // later, past the clock skew every freshness check tolerates (src/trust/clock-skew.ts):
    // their clock is moved on by that minute instead of the drill waiting it out.
    await waitUntil(
      'plan expired',
      () => Date.now() > stored.expiresAt + 100,
      TTL_SECONDS * 1000 + SIGNAL_WAIT_MS,
    );
    const later = CLOCK_SKEW_TOLERANCE_MS + 1_000;
    await comeBack(h, () => Date.now() + later);
    const refused = await h.waitForReply(result.ts, 'refused', SIGNAL_WAIT_MS);
    expect(refused.text).toContain('expired');
    expect(h.buttons(refused).map((b) => b.action_id)).toContain('rerun_diagnosis');
    await queuesSettled(h.redis.url);
    expect(realPatches(sim)).toBe(0);
    expect(sim.requests.filter((r) => r.verb === 'patch')).toHaveLength(0);
    expect(deployment(sim).spec).toEqual(before.spec);
    expect(deployment(sim).metadata.generation).toBe(before.metadata.generation);
    expect(outcomes(h, result.ts)).toHaveLength(1);
    expect(await waitingRemediations(h)).toBe(0);
  });
});
