/**
 * A Redis writer rewrites an alert thread's record (issue 27.1): its channel and root
 * ts now name a message of the writer's choosing. Genuine results of that workload,
 * a person's own /rollout-doctor run included, must not go there, and a genuine
 * resolve must not rewrite that message; the app says so in its log and a metric.
 * Real app, worker, Redis, simulator and Slack stand-in.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadKeys } from '../../src/queue/alert-keys.js';
import { reproduceSurgeDeadlock, startE2e, type E2eHarness } from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TOKEN = 'alert-token-tamper';
const ALERT_CHANNEL = 'C0ALERTS';
const ATTACKER = 'C0ATTACKER';
const NAME = 'vision-object-tracker';

let h: E2eHarness;
let redis: Redis;

beforeAll(async () => {
  h = await startE2e({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    appEnv: { ALERTMANAGER_TOKEN: TOKEN, ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL },
  });
  redis = new Redis(h.redis.url, { maxRetriesPerRequest: 1 });
  await reproduceSurgeDeadlock(h);
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

async function postAlert(status: 'firing' | 'resolved'): Promise<void> {
  const alert = {
    status,
    labels: {
      alertname: 'KubeDeploymentRolloutStuck',
      namespace: 'vision',
      deployment: NAME,
      severity: 'warning',
    },
    annotations: { summary: 'Deployment rollout is not progressing.' },
    startsAt: new Date(Date.now() - 60_000).toISOString(),
    endsAt: status === 'resolved' ? new Date().toISOString() : '0001-01-01T00:00:00Z',
    fingerprint: 'beef',
  };
  const res = await fetch(`${h.app.handle.url}/alerts/alertmanager`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      version: '4',
      groupKey: '{}:{alertname="KubeDeploymentRolloutStuck"}',
      truncatedAlerts: 0,
      status,
      receiver: 'rollout-doctor',
      groupLabels: {},
      commonLabels: {},
      commonAnnotations: {},
      externalURL: 'http://alertmanager.example:9093',
      alerts: [alert],
    }),
  });
  expect(res.status).toBeLessThan(300);
}

const toAttacker = () => h.slack.calls.filter((c) => c.args.channel === ATTACKER);

describe('an alert thread record rewritten in Redis', () => {
  it('steers nothing: no result, no edit in the channel it names; the app says so', async () => {
    await postAlert('firing');
    // The genuine thread: its root in the alert channel, the diagnosis as a reply.
    const root = await h.slack.waitFor(
      () =>
        h.slack.calls.find(
          (c) => c.method === 'chat.postMessage' && c.args.channel === ALERT_CHANNEL && !c.args.thread_ts,
        ),
      SIGNAL_WAIT_MS,
    );
    const rootTs = String(root.response.ts);
    await h.slack.waitFor(
      () => h.slack.calls.some((c) => c.method === 'chat.postMessage' && c.args.thread_ts === rootTs),
      SIGNAL_WAIT_MS,
    );

    // The attack: the workload's thread now "lives" in another channel, at a message there.
    const keys = await redis.keys(threadKeys.byWorkload('*'));
    expect(keys).toHaveLength(1);
    const threadId = (await redis.get(keys[0] ?? '')) ?? '';
    await redis.hset(threadKeys.thread(threadId), {
      channel: ATTACKER,
      ts: '1700000000.000001',
      title: 'All clear',
    });

    // A person's own run of the same Deployment, then the alert resolving.
    expect((await h.command(`${NAME} -n vision`)).status).toBe(200);
    await h.waitForResult('vision', NAME);
    await postAlert('resolved');
    await h.slack.waitFor(
      () => h.logs.some((l) => l.includes('has no valid mark') && l.includes('alert thread')),
      SIGNAL_WAIT_MS,
    );
    expect(toAttacker()).toEqual([]);
    const metric = await h.app.services.metrics.registry.getSingleMetricAsString(
      'rollout_doctor_tampered_records_total',
    );
    expect(metric).toMatch(/record="alert thread"\} [1-9]/);
  });
});
