/**
 * An alert thread ends in an answer too (issue 41.3). Its root says "rollout-doctor is
 * diagnosing; the result follows in this thread"; a Redis writer pins the alert's
 * diagnose job as active under a lock that never expires (no worker takes it, so no
 * result ever reaches the thread). Within the run
 * deadline (ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS) a reply in the thread says the
 * diagnosis could not finish, audited as `unfinished` (planId 'alert'); a thread whose
 * result came is marked answered by the app and gets no such reply. Real app, worker,
 * Redis, simulator and Slack stand-in.
 */
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { diagnoseJobId } from '../../src/queue/job-ids.js';
import { redisKeys } from '../../src/queue/redis-keys.js';
import { startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TOKEN = 'alert-token-deadline';
const ALERT_CHANNEL = 'C0ALERTS';
const GENUINE = 'vision-object-tracker';
const PINNED = 'vision-frame-router';
const COULD_NOT_FINISH = 'The diagnosis for this alert could not finish: no result came within 4 s';

let h: E2eHarness;
let redis: Redis;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    appEnv: {
      ALERTMANAGER_TOKEN: TOKEN,
      ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL,
      ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS: '4',
    },
  });
  redis = new Redis(h.redis.url, { maxRetriesPerRequest: 1 });
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

async function fire(deployment: string): Promise<void> {
  const res = await fetch(`${h.app.handle.url}/alerts/alertmanager`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      groupKey: `{}:{alertname="KubeDeploymentRolloutStuck",deployment="${deployment}"}`,
      truncatedAlerts: 0,
      status: 'firing',
      receiver: 'rollout-doctor',
      groupLabels: { deployment },
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example:9093',
      alerts: [
        {
          status: 'firing',
          labels: { alertname: 'KubeDeploymentRolloutStuck', namespace: 'vision', deployment },
          annotations: { summary: 'Deployment rollout is not progressing.' },
          startsAt: new Date(Date.now() - 60_000).toISOString(),
          endsAt: '0001-01-01T00:00:00Z',
          fingerprint: deployment,
        },
      ],
    }),
  });
  expect(res.status).toBeLessThan(300);
}

/** The thread root the app posts for `deployment`'s alert. */
const rootOf = async (deployment: string): Promise<string> => {
  const root = await h.slack.waitFor(
    () =>
      h.slack.calls.find(
        (c) =>
          c.method === 'chat.postMessage' &&
          c.args.channel === ALERT_CHANNEL &&
          !c.args.thread_ts &&
          String(c.args.text).includes(deployment),
      ),
    SIGNAL_WAIT_MS,
  );
  return String(root.response.ts);
};
const replies = (ts: string) =>
  h.slack.calls.filter((c) => c.method === 'chat.postMessage' && c.args.thread_ts === ts);
const unfinished = () =>
  h.audit().filter((e) => e.action === 'refusal' && e.reason === 'unfinished' && e.planId === 'alert');

describe('an alert thread whose diagnosis cannot finish ends in an answer', () => {
  it('a genuine run: its result goes into the thread, which the app marks answered', async () => {
    await fire(GENUINE);
    const ts = await rootOf(GENUINE);
    await h.slack.waitFor(() => replies(ts).length > 0 || undefined, SIGNAL_WAIT_MS);
    await vi.waitFor(
      async () =>
        expect(await redis.get(redisKeys.messageAnswered({ channel: ALERT_CHANNEL, ts }))).not.toBeNull(),
      { timeout: 10_000, interval: 50 },
    );
  });

  it('a pinned job: the thread is told it could not finish within the deadline, audited', async () => {
    // The alert's job pinned as active under a lock that never expires: no worker takes
    // it. (A pinned run record no longer silences a run since issue 67.8.)
    const jobId = diagnoseJobId('vision', PINNED);
    const queue = new Queue(diagnoseQueueName('default'), { connection: redis, prefix: QUEUE_PREFIX });
    const jobKey = queue.toKey(jobId);
    await redis.hset(jobKey, {
      name: 'deployment',
      data: JSON.stringify({
        mode: 'workload',
        cluster: 'default',
        target: { kind: 'Deployment', namespace: 'vision', name: PINNED },
        requestedBy: 'ALERTMANAGER',
      }),
      opts: '{}',
      timestamp: String(Date.now()),
      processedOn: String(Date.now()),
    });
    await redis.lpush(queue.toKey('active'), jobId);
    await redis.set(`${jobKey}:lock`, 'pinned');
    await queue.close();
    await fire(PINNED);
    const ts = await rootOf(PINNED);
    const told = await h.slack.waitFor(
      () => replies(ts).find((c) => String(c.args.text).includes(COULD_NOT_FINISH)),
      SIGNAL_WAIT_MS,
    );
    expect(String(told.args.text)).toContain(`run ${jobId}`);
    expect(String(told.args.text)).toContain('Nothing was changed');
    // The root keeps the alert: the answer is a reply, never an edit of it.
    expect(h.slack.calls.filter((c) => c.method === 'chat.update' && c.args.ts === ts)).toEqual([]);
    expect(unfinished()).toEqual([
      expect.objectContaining({
        cluster: 'default',
        namespace: 'vision',
        deployment: PINNED,
        user: 'ALERTMANAGER',
        detail: `job ${jobId}: no result within 4 s`,
      }),
    ]);
    // The genuine thread's deadline passed before this one's: it got no such answer.
    const genuine = await rootOf(GENUINE);
    expect(replies(genuine).filter((c) => String(c.args.text).includes(COULD_NOT_FINISH))).toEqual([]);
  });
});
