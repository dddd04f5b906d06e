/**
 * A producer whose first add meets Redis going away (a failover as the first command
 * came in) works on the next call, on the same connection: BullMQ readies a queue once,
 * and a queue whose readiness failed failed every later add at once until the process
 * restarted (src/queue/producers.ts drops such a queue).
 */
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConnection, createProducerConnection, waitForReady } from '../../src/queue/connection.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { startRedis, type TestRedis } from '../support/redis.js';

let redis: TestRedis;
let connection: Redis;
let producers: Producers;

beforeAll(async () => {
  redis = await startRedis();
  connection = createProducerConnection(redis.url);
  connection.on('error', () => undefined);
  await waitForReady(connection, 10_000);
  producers = createProducers({ connection, clusters: ['default'], onError: () => undefined });
});

afterAll(async () => {
  await producers?.close();
  if (connection) await closeConnection(connection);
  await redis?.close();
});

const request = () =>
  producers.enqueueDiagnose({
    mode: 'workload',
    cluster: 'default',
    target: { kind: 'Deployment', namespace: 'shop', name: 'checkout' },
    requestedBy: 'U1',
  });

describe('a producer queue first readied as Redis went away', () => {
  it('takes the job on the next call, without a restart', async () => {
    // The failover lands on BullMQ's one readiness read (INFO, for the server version):
    // that read fails as a master's death makes it fail (ioredis' retries spent).
    const info = connection.info.bind(connection);
    let failures = 1;
    Object.assign(connection, {
      info: (...args: Parameters<typeof info>) =>
        failures-- > 0
          ? Promise.reject(new Error('Reached the max retries per request limit (which is 1).'))
          : info(...args),
    });
    await expect(request()).rejects.toThrow();
    await expect(request()).resolves.toMatchObject({ joined: false });
  });
});
