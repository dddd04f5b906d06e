import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createAppAlerts } from '../../src/app/alerts/app-intake.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { createPlanStore } from '../../src/queue/plan-store.js';
import {
  closeConnection,
  createProducerConnection,
  createWorkerConnection,
} from '../../src/queue/connection.js';
import { ALERT_NOTIFY_QUEUE, NOTIFY_QUEUES, QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { crashLooping, notification, rolloutStuck } from '../support/alert-payloads.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { testKeys } from '../support/plan-keys.js';
import { waitUntil } from '../support/wait.js';

/**
 * Alert storms against a real Redis: two app "replicas" (separate connections,
 * producers and routes, as separate processes would have) take thousands of
 * notifications for the same workloads; the cluster queue must see one diagnosis per
 * workload per window. Counted by stand-in consumers of the real queues.
 */

const TOKEN = 'storm-token';
const WORKLOADS = 20;

interface Replica {
  server: Server;
  url: string;
  connection: Redis;
  producers: Producers;
}

let redis: TestRedis;
const replicas: Replica[] = [];
let workerConnection: Redis;
let counter: Worker;
let notifyCounter: Worker;
const diagnosed: string[] = [];
const priorities: (number | undefined)[] = [];
let threadJobs = 0;
const overflows: { channel: string; workloads: number; firing: number }[] = [];

async function startReplica(
  windowSeconds: number,
  env: Record<string, string> = {},
  options: { allows?: (scope: { namespace: string }) => boolean; now?: () => number } = {},
): Promise<Replica> {
  const config = loadAppConfig({
    ...testKeys.appEnv,
    ...env,
    SLACK_BOT_TOKEN: 'xoxb-storm',
    SLACK_SIGNING_SECRET: 'storm-secret',
    REDIS_URL: redis.url,
    ALERTMANAGER_TOKEN: TOKEN,
    ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0STORM',
    ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS: String(windowSeconds),
  });
  const logger = createLogger({ level: 'silent', name: 'storm' });
  const connection = createProducerConnection(redis.url);
  const producers = createProducers({ connection, clusters: config.clusters });
  const plans = createPlanStore(connection);
  const route = createAppAlerts({
    config,
    producers,
    redis: connection,
    plans,
    logger,
    allows: options.allows ?? (() => true),
    chats: () => ({}),
    ...(options.now ? { now: options.now } : {}),
  }).routes[0];
  if (!route) throw new Error('route not mounted');
  const server = createServer((req, res) => route.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const replica = {
    server,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    connection,
    producers,
  };
  replicas.push(replica);
  return replica;
}

beforeAll(async () => {
  redis = await startRedis();
  workerConnection = createWorkerConnection(redis.url);
  counter = new Worker(
    diagnoseQueueName('default'),
    async (job) => {
      diagnosed.push(String(job.id));
      priorities.push(job.opts.priority);
    },
    { connection: workerConnection, prefix: QUEUE_PREFIX, concurrency: 8 },
  );
  notifyCounter = new Worker(
    ALERT_NOTIFY_QUEUE,
    async (job) => {
      if (job.name === 'alert-thread') threadJobs += 1;
      if (job.name === 'alert-overflow') overflows.push(job.data as (typeof overflows)[number]);
    },
    { connection: workerConnection, prefix: QUEUE_PREFIX, concurrency: 8 },
  );
});

afterAll(async () => {
  await counter?.close();
  await notifyCounter?.close();
  for (const r of replicas) {
    r.server.closeAllConnections();
    await new Promise((resolve) => r.server.close(resolve));
    await r.producers.close();
    await closeConnection(r.connection);
  }
  if (workerConnection) await closeConnection(workerConnection);
  await redis?.close();
});

function body(i: number): string {
  const w = Math.floor(i / 2) % WORKLOADS;
  const alerts =
    i % 2 === 0
      ? [rolloutStuck(`svc-${w}`, 'shop')]
      : [crashLooping(`svc-${w}-7f8b9c6d5-bx2zq`, 'shop'), crashLooping(`svc-${w}-7f8b9c6d5-cx2zq`, 'shop')];
  const alertname = alerts[0]?.labels['alertname'] ?? '';
  return JSON.stringify(
    notification(alerts, { groupKey: `{}:{alertname="${alertname}", workload="svc-${w}"}` }),
  );
}

async function post(url: string, payload: string): Promise<number> {
  const res = await fetch(`${url}/alerts/alertmanager`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: payload,
  });
  await res.arrayBuffer();
  return res.status;
}

/**
 * Every post above was answered, so its intake has enqueued all it would; once both
 * queues are idle the stand-in consumers have counted every job, duplicates included.
 */
async function settle(): Promise<void> {
  await waitForIdleQueues(redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES]);
}

describe('alert storms', () => {
  it('turns 2,000 notifications over two replicas into one diagnosis per workload per window', async () => {
    // The per-minute cap is tested below; here every workload must get its thread.
    const generous = { ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000' };
    const pair = [await startReplica(600, generous), await startReplica(600, generous)];
    let next = 0;
    const statuses: number[] = [];
    const send = async (): Promise<void> => {
      while (next < 2_000) {
        const i = next;
        next += 1;
        statuses.push(await post(pair[i % 2]?.url ?? '', body(i)));
      }
    };
    await Promise.all(Array.from({ length: 16 }, send));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    await settle();
    expect(diagnosed).toHaveLength(WORKLOADS);
    expect(new Set(diagnosed).size).toBe(WORKLOADS);
    // Two groups per workload (the Deployment alert and the pod alerts): one thread update each.
    expect(threadJobs).toBe(2 * WORKLOADS);
  });

  it('starts a new diagnosis for a re-fire after the window, not within it', async () => {
    // A window far longer than the test: both posts land in it however slow the machine.
    const windowSeconds = 600;
    const replica = await startReplica(windowSeconds, {
      ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000',
    });
    const client = new Redis(redis.url);
    onTestFinished(() => void client.quit());
    const dedupKeys = () => client.keys(`${QUEUE_PREFIX}:${diagnoseQueueName('default')}:de:*`);
    const keysBefore = new Set(await dedupKeys());
    const before = diagnosed.length;
    const payload = JSON.stringify(notification([rolloutStuck('lonely', 'other')]));
    expect(await post(replica.url, payload)).toBe(200);
    expect(await post(replica.url, payload)).toBe(200);
    await settle();
    expect(diagnosed.length - before).toBe(1);
    // The window is a Redis TTL on the diagnosis's deduplication key: it ends when the
    // key does (here at once, not in ten minutes), and the next fire diagnoses again.
    const window = (await dedupKeys()).filter((k) => !keysBefore.has(k));
    expect(window).toHaveLength(1);
    const key = window[0] ?? '';
    const ttl = await client.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(windowSeconds * 1000);
    await client.pexpire(key, 1);
    await waitUntil('the window to end', async () => (await client.exists(key)) === 0);
    expect(await post(replica.url, payload)).toBe(200);
    await settle();
    expect(diagnosed.length - before).toBe(2);
  });

  it('caps one notification naming 3,000 made-up workloads: 20 threads and diagnoses, one summary, nothing more on a retry', async () => {
    const replica = await startReplica(600, {
      ROLLOUT_DOCTOR_ALERT_MAX_BYTES: String(8 * 1024 * 1024),
      ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000',
    });
    const diagnosedBefore = diagnosed.length;
    const threadsBefore = threadJobs;
    const flood = JSON.stringify(
      notification(
        Array.from({ length: 3_000 }, (_, i) => rolloutStuck(`made-up-${i}`, `flood-${i % 40}`)),
        { groupKey: '{}:{alertname="KubeDeploymentRolloutStuck"}' },
      ),
    );
    const res = await fetch(`${replica.url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: flood,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ targets: 3_000, overflow: 2_980 });
    expect(await post(replica.url, flood)).toBe(200); // Alertmanager's retry of the same notification
    await settle();
    expect(diagnosed.length - diagnosedBefore).toBe(20);
    // Queued behind anything a person asks for meanwhile (BACKGROUND_PRIORITY).
    expect(new Set(priorities.slice(diagnosedBefore))).toEqual(new Set([10]));
    expect(threadJobs - threadsBefore).toBe(20);
    expect(overflows).toEqual([
      expect.objectContaining({ channel: 'C0STORM', workloads: 2_980, firing: 2_980 }),
    ]);
  });

  it('caps new threads per minute across notifications: the rest get one summary per channel that minute', async () => {
    // A fixed clock: the whole flood falls into one minute however slow the machine is.
    const minute = Date.UTC(2000, 0, 1, 0, 0); // never the minute the other tests run in
    const replica = await startReplica(
      600,
      { ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '30' },
      { now: () => minute + 5_000 },
    );
    const diagnosedBefore = diagnosed.length;
    const threadsBefore = threadJobs;
    const overflowsBefore = overflows.length;
    const flood = (n: number): string =>
      JSON.stringify(
        notification(
          Array.from({ length: 10 }, (_, i) => rolloutStuck(`minute-${n}-${i}`, 'minute-flood')),
          { groupKey: `{}:{alertname="KubeDeploymentRolloutStuck", n="${n}"}` },
        ),
      );
    const answers: unknown[] = [];
    for (let n = 0; n < 12; n++) {
      const res = await fetch(`${replica.url}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: flood(n),
      });
      answers.push(await res.json());
    }
    await settle();
    expect(threadJobs - threadsBefore).toBe(30);
    expect(diagnosed.length - diagnosedBefore).toBe(30);
    expect(answers.slice(0, 3)).toEqual(Array(3).fill(expect.objectContaining({ overflow: 0 })));
    expect(answers.slice(3)).toEqual(Array(9).fill(expect.objectContaining({ overflow: 10 })));
    expect(overflows.slice(overflowsBefore)).toEqual([
      expect.objectContaining({ channel: 'C0STORM', cause: 'minute', limit: 30, workloads: 10 }),
    ]);
  });

  it('opens no thread and starts no diagnosis in a namespace the read policy closes to alerts', async () => {
    const replica = await startReplica(
      600,
      { ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000' },
      { allows: ({ namespace }) => namespace !== 'payments' },
    );
    const diagnosedBefore = diagnosed.length;
    const threadsBefore = threadJobs;
    const res = await fetch(`${replica.url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(
        notification([rolloutStuck('ledger', 'payments'), rolloutStuck('web', 'policy-open')], {
          groupKey: '{}:{alertname="KubeDeploymentRolloutStuck", t="policy"}',
        }),
      ),
    });
    expect(await res.json()).toMatchObject({ targets: 2, notAllowed: 1, overflow: 0 });
    await settle();
    expect(threadJobs - threadsBefore).toBe(1);
    expect(diagnosed.slice(diagnosedBefore)).toEqual([expect.stringContaining('policy-open')]);
  });
});
