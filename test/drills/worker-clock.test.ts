/**
 * Drill (issue 53.4, 67.9): a worker whose clock is 30 minutes ahead, then one 20 minutes
 * behind (libfaketime, preloaded into the real worker process), the app and Redis in
 * step. Before issue 53.4 the first refused every job as "tampered" and the second made
 * every plan "expired" on arrival; with 53.4 the worker answered each command with its
 * clock. Now it reads Redis's TIME, says so in its log and metric, stays ready, and
 * takes expiry and lease times from Redis's clock: the command is diagnosed. (Where
 * Redis's clock is unknown it still answers with its clock: test/unit/redis-clock.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { freePort } from '../support/redis.js';
import type { StoredMessage } from '../support/slack-standin.js';
import { NAME, NS, deadlockTracker, waitUntil } from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';
import { requireFile } from '../support/tools.js';

const LIBFAKETIME = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';
// Debian's faketime package; the drill is about real processes with a wrong clock.
const AVAILABLE = requireFile(LIBFAKETIME, 'apt install faketime');

let stack: Stack;

beforeAll(async () => {
  if (!AVAILABLE) return;
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 0,
  });
  await deadlockTracker(stack.sim);
});

afterAll(async () => {
  await stack?.close();
});

const cases = [
  { faketime: '+30m', offset: 1800 },
  { faketime: '-20m', offset: -1200 },
];

/**
 * Whether `text` names the worker's clock `offset` seconds off Redis's, to within 5 s as
 * the metric is checked: the worker reads the offset from a TIME round trip, known to
 * half of it, and on a loaded machine a -20 min clock can read "19 min 59 s behind".
 */
function namesClock(text: string, offset: number): boolean {
  const way = offset >= 0 ? 'ahead of' : 'behind';
  return [...text.matchAll(/this worker's clock is (\d+) min(?: (\d+) s)? (ahead of|behind) Redis's/g)].some(
    ([, minutes, seconds, said]) =>
      said === way && Math.abs(Number(minutes) * 60 + Number(seconds ?? 0) - Math.abs(offset)) <= 5,
  );
}

describe.runIf(AVAILABLE)('a worker whose clock is off', () => {
  for (const { faketime, offset } of cases) {
    it(`${faketime}: says so in its log and metric, stays ready, and diagnoses by Redis's clock`, async () => {
      const { sim, slack } = stack;
      const port = await freePort();
      const worker = await stack.startWorker({
        LD_PRELOAD: LIBFAKETIME,
        FAKETIME: faketime,
        // Timers and round trips keep the real pace; only the wall clock is off.
        FAKETIME_DONT_FAKE_MONOTONIC: '1',
        ROLLOUT_DOCTOR_HEALTH_PORT: String(port),
      });
      try {
        // Redis's clock is known (TIME): the worker stays ready and takes times from it (issue 67.9).
        await waitUntil(
          'the worker logs its clock',
          () => namesClock(worker.output(), offset),
          SIGNAL_WAIT_MS,
        );
        expect(worker.output()).toContain("it takes expiry and lease times from Redis's clock meanwhile");
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
        expect(ready.status).toBe(200);
        const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
        const seconds = Number(/^rollout_doctor_clock_offset_seconds (\S+)$/m.exec(metrics)?.[1]);
        expect(Math.abs(seconds - offset)).toBeLessThan(5);

        sim.clearRequests();
        const known = new Set(slack.messages.keys());
        expect((await stack.command(`${NAME} -n ${NS}`)).status).toBe(200);
        const answer = await slack.waitFor(
          () =>
            [...slack.messages.entries()].find(
              ([key, m]) =>
                !known.has(key) &&
                m.threadTs === undefined &&
                // The result, not the progress line "diagnosing deployment/… in …: collecting…"
                // (posted before the worker reads anything; caught first on a loaded machine).
                m.text.startsWith(`deployment/${NAME} in ${NS}:`),
            )?.[1],
          SIGNAL_WAIT_MS,
        );
        expect(answer.text).not.toMatch(/not run|tampered|expired/i);
        // Diagnosed: the worker read the cluster.
        expect(sim.requests.filter((r) => r.namespace === NS).length).toBeGreaterThan(0);
        const lastMessage = (m: StoredMessage): boolean => m.ts === answer.ts;
        expect([...slack.messages.values()].filter(lastMessage)).toHaveLength(1);
      } finally {
        // Stopped as a deployment stops it (SIGTERM: its job finished or handed back), so
        // the next case's command does not join a run this worker left active under its
        // lock (on a loaded machine, SIGKILLed between its answer and the job's completion,
        // the next command waited the lock's expiry and a stall check: over a minute).
        await worker.stop('SIGTERM');
        stack.workers.splice(stack.workers.indexOf(worker), 1);
      }
    });
  }
});
