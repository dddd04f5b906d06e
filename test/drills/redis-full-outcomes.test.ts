/**
 * Drill (issue 53.2): Redis full (`maxmemory` reached, `noeviction`: every write that
 * needs memory refused) for 8 s and for 15 s while an approved fix's PATCH is in
 * flight, on the real processes (app, worker, simulator, Slack stand-in). The cluster
 * is patched once; once Redis takes writes again the thread says "applied" (with its
 * Undo) and "rolled out", and the approved message's state line says rolled out.
 * Before the outbox (src/worker/outbox.ts) the job spent its retries on the refused
 * replies and the message stayed at "approved; applying" for good.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { buttonsOf } from '../support/slack-sign.js';
import type { StoredMessage } from '../support/slack-standin.js';
import { fillRedis } from '../support/redis-faults.js';
import {
  NAME,
  deadlockTracker,
  deployment,
  realPatches,
  rolledOut,
  waitUntil,
  freshResult,
} from './support/drill-kit.js';
import { SIGNAL_WAIT_MS, STORY_TIMEOUT_MS } from '../support/timeouts.js';

// Each test here plays a whole story: the story limit, not the config's default.
vi.setConfig({ testTimeout: STORY_TIMEOUT_MS });

for (const seconds of [8, 15]) {
  describe(`Redis full for ${seconds} s while an approved fix is applied`, () => {
    let stack: Stack;
    let admin: Redis;
    const thread = (root: StoredMessage): StoredMessage[] =>
      [...stack.slack.messages.values()].filter((m) => m.threadTs === root.ts);

    beforeAll(async () => {
      stack = await startStack({
        sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
        workers: 1,
        workerEnv: { ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: '60' },
      });
      admin = new Redis(stack.redis.url);
      await deadlockTracker(stack.sim);
    });

    afterAll(async () => {
      admin?.disconnect();
      await stack?.close();
    });

    it('the thread still says applied (with Undo) and rolled out', async () => {
      const { sim } = stack;
      const result = await freshResult(stack);
      const approve = buttonsOf(result).find((b) => b.action_id.startsWith('approve_plan'));
      if (!approve) throw new Error('no Approve button');
      const patchesBefore = realPatches(sim);
      const logBefore = stack.workers[0]?.output().length ?? 0;
      // The PATCH is held at the server long enough to fill Redis behind it.
      sim.addFault({
        match: { verb: 'patch', resource: 'deployments', name: NAME, dryRun: false },
        delayMs: 1_500,
        times: 1,
      });
      const click = await stack.click(result, approve.action_id);
      expect(click.status).toBe(200);
      const patch = await waitUntil(
        'the real PATCH reached the API server',
        () => sim.requests.find((r) => r.verb === 'patch' && r.name === NAME && !r.dryRun),
        SIGNAL_WAIT_MS,
      );
      const full = await fillRedis(admin);
      const filledAt = Date.now();
      // Full before the API server answered: the worker learns of its write with Redis refusing.
      expect(patch.finishedAt, 'the PATCH still in flight once Redis is full').toBeUndefined();
      // Redis really refused the worker's reply: it said so, and kept it.
      await waitUntil(
        'the worker kept a refused outcome',
        () => (stack.workers[0]?.output().slice(logBefore) ?? '').includes('Redis refuses the outcome: kept'),
        seconds * 1000,
      );
      // The fault lasts its time (a duration, not a stand-in for a signal).
      await new Promise((r) => setTimeout(r, Math.max(0, filledAt + seconds * 1000 - Date.now())));
      await full.release();

      // Delivered once Redis takes writes: well before a stalled job (30 s lock, 30 s check) would be run again.
      const replies = await stack.slack.waitFor(() => {
        const now = thread(result);
        return now.some((m) => /^rolled out/i.test(m.text)) && now.some((m) => /^applied/i.test(m.text))
          ? now
          : undefined;
      }, SIGNAL_WAIT_MS);
      const applied = replies.filter((m) => /^applied/i.test(m.text));
      expect(applied).toHaveLength(1);
      const undo = replies.find((m) => buttonsOf(m).some((b) => b.action_id.startsWith('undo_plan')));
      expect(undo, 'an Undo button in the thread').toBeDefined();
      expect(replies.filter((m) => /^(failed|refused)/i.test(m.text))).toEqual([]);
      // The approved message's state line follows.
      const root = (): StoredMessage | undefined =>
        stack.slack.messages.get(`${result.channel}/${result.ts}`);
      await stack.slack.waitFor(
        () => /rolled out at/.test(JSON.stringify(root()?.blocks ?? [])) || undefined,
        SIGNAL_WAIT_MS,
      );
      // What the cluster received: one PATCH that landed, and the rollout finished.
      expect(realPatches(sim) - patchesBefore).toBe(1);
      await sim.waitFor(() => rolledOut(deployment(sim)), SIGNAL_WAIT_MS);
    });
  });
}
