/**
 * Drill: the early warning on two worker processes (`npm run worker` entry points),
 * through an API server restart and a Redis restart. One replica holds the lease and
 * watches; after the API server comes back its watches resume from their
 * resourceVersion (no re-list); after Redis comes back the same leader keeps
 * watching. Then a rollout deadlocks and exactly one early-warning thread appears on
 * the Slack stand-in, with its diagnosis, however many replicas run.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../../bench/lib/stack.js';
import { FAST_RECOVERY, deadlockTracker, waitUntil } from './support/drill-kit.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const CHANNEL = 'C0INCIDENT';
let stack: Stack;

beforeAll(async () => {
  stack = await startStack({
    sim: { scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 },
    workers: 2,
    appendonly: true,
    appEnv: { ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNEL },
    workerEnv: {
      ...FAST_RECOVERY,
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'vision',
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
      ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: '200',
    },
  });
});

afterAll(async () => {
  await stack?.close();
});

const LEADER_LINE = 'early-warning watch started (this replica holds the lease)';

const watchRequests = () =>
  stack.sim.requests.filter((r) => r.verb === 'watch' && (r.resource === 'pods' || r.resource === 'events'));
const listRequests = () =>
  stack.sim.requests.filter((r) => r.verb === 'list' && (r.resource === 'pods' || r.resource === 'events'));

describe('early warning through restarts, on two replicas', () => {
  it('one replica watches; watches resume after an API server restart and survive a Redis restart; one thread', async () => {
    const leaders = await waitUntil('a leader', () => {
      const found = stack.workers.filter((w) => w.output().includes(LEADER_LINE));
      return found.length > 0 ? found : undefined;
    });
    expect(leaders).toHaveLength(1);
    await waitUntil('both streams open', () => watchRequests().length >= 2);
    const listsBefore = listRequests().length;
    const watchesBefore = watchRequests().length;

    await stack.sim.restartApiServer({ downMs: 300 });
    // Each stream comes back with a watch from its last resourceVersion, not a list.
    await waitUntil('watches resumed', () => watchRequests().length >= watchesBefore + 2, SIGNAL_WAIT_MS);
    const resumed = watchRequests().slice(watchesBefore);
    expect(resumed.every((r) => /resourceVersion=[1-9]/.test(r.query ?? ''))).toBe(true);
    expect(listRequests().length).toBe(listsBefore);

    await stack.redis.stop();
    await stack.redis.start();
    await deadlockTracker(stack.sim);
    const root = await waitUntil(
      'the early-warning thread',
      () =>
        [...stack.slack.messages.values()].find(
          (m) => m.channel === CHANNEL && m.threadTs === undefined && m.text.startsWith('Early warning:'),
        ),
      SIGNAL_WAIT_MS,
    );
    expect(root.text).toContain('RolloutSurgeDeadlock on vision/deployment/vision-object-tracker');
    await waitUntil('its diagnosis', () =>
      [...stack.slack.messages.values()].find((m) => m.threadTs === root.ts),
    );
    // Still one watcher after the Redis restart, and one thread.
    expect(stack.workers.filter((w) => w.output().includes(LEADER_LINE))).toHaveLength(1);
    expect(
      [...stack.slack.messages.values()].filter(
        (m) => m.threadTs === undefined && m.text.startsWith('Early warning:'),
      ),
    ).toHaveLength(1);
  });
});
