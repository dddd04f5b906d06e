import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppAlerts } from '../../src/app/alerts/app-intake.js';
import { threadKeys, workloadHash } from '../../src/queue/alert-keys.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { createPlanStore } from '../../src/queue/plan-store.js';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { notification, rolloutStuck } from '../support/alert-payloads.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { testKeys } from '../support/plan-keys.js';

/**
 * The intake's storm fast path against a real Redis: a notification whose thread
 * update and diagnosis windows are already open costs one script (the windows are
 * checked and the diagnosis linked to its workload) and no BullMQ add; once a window
 * closes, the next notification queues again.
 */

const TOKEN = 'fast-path-token';
let redis: TestRedis;
let connection: Redis;
let producers: Producers;
let server: Server;
let url = '';
const calls = { notify: 0, diagnose: 0 };

beforeAll(async () => {
  redis = await startRedis();
  const config = loadAppConfig({
    ...testKeys.appEnv,
    SLACK_BOT_TOKEN: 'xoxb-fast',
    SLACK_SIGNING_SECRET: 'fast-secret',
    REDIS_URL: redis.url,
    ALERTMANAGER_TOKEN: TOKEN,
    ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0FAST',
  });
  connection = createProducerConnection(redis.url);
  const real = createProducers({ connection, clusters: config.clusters });
  // Counts the adds that reach BullMQ.
  producers = {
    ...real,
    enqueueNotify: (job, options) => {
      calls.notify += 1;
      return real.enqueueNotify(job, options);
    },
    enqueueDiagnose: (job, options) => {
      calls.diagnose += 1;
      return real.enqueueDiagnose(job, options);
    },
  };
  const route = createAppAlerts({
    config,
    producers,
    redis: connection,
    plans: createPlanStore(connection),
    allows: () => true,
    chats: () => ({}),
    logger: createLogger({ level: 'silent', name: 'fast-path' }),
  }).routes[0];
  if (!route) throw new Error('route not mounted');
  server = createServer((req, res) => route.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/alerts/alertmanager`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await producers?.close();
  if (connection) await closeConnection(connection);
  await redis?.close();
});

async function post(payload: string): Promise<number> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: payload,
  });
  await res.arrayBuffer();
  return res.status;
}

describe('alert intake fast path', () => {
  it('skips the adds of a repeated notification inside the window, links its diagnosis, and queues again after', async () => {
    const payload = JSON.stringify(notification([rolloutStuck('web', 'shop')]));
    expect(await post(payload)).toBe(200);
    expect(calls).toEqual({ notify: 1, diagnose: 1 });

    const link = threadKeys.job('default', 'diagnose.shop.web');
    await connection.del(link);
    for (let i = 0; i < 5; i += 1) expect(await post(payload)).toBe(200);
    expect(calls).toEqual({ notify: 1, diagnose: 1 });
    // The repeated notifications still link the run to the workload's thread.
    const w = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'web' });
    expect(await connection.get(link)).toMatch(new RegExp(`^${w} alert \\d+$`));
    expect(await connection.ttl(link)).toBeGreaterThan(3000);

    // The diagnosis window closes (its dedup key expires): the next notification queues it.
    await connection.del(producers.dedupKey({ kind: 'diagnose', cluster: 'default' }, `alert-diagnose-${w}`));
    expect(await post(payload)).toBe(200);
    expect(calls).toEqual({ notify: 1, diagnose: 2 });
  });
});
