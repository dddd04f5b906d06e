/**
 * The per-file Redis helper must never hand a test someone else's server: a port that
 * was free when picked can be taken before redis-server binds it.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, startRedis, type TestRedis } from '../support/redis.js';

const started: TestRedis[] = [];
afterAll(async () => {
  await Promise.all(started.map((r) => r.close()));
});

async function serverPid(url: string): Promise<number> {
  const client = new Redis(url, { maxRetriesPerRequest: 0 });
  try {
    return Number(/^process_id:(\d+)/m.exec(await client.info('server'))?.[1]);
  } finally {
    client.disconnect();
  }
}

describe('startRedis', () => {
  it('moves to a fresh port when the picked one was taken meanwhile, instead of sharing', async () => {
    const first = await startRedis();
    started.push(first);
    // The race, made certain: the first candidate is the port another file's Redis holds.
    const candidates = [first.port];
    const second = await startRedis({ pickPort: async () => candidates.shift() ?? freePort() });
    started.push(second);

    expect(second.port).not.toBe(first.port);
    expect(await serverPid(second.url)).not.toBe(await serverPid(first.url));
  });

  it('restarts on its own port and refuses a port someone else took while it was down', async () => {
    const own = await startRedis();
    started.push(own);
    await own.stop();
    await own.start();
    const pid = await serverPid(own.url);
    expect(pid).toBeGreaterThan(0);

    await own.stop();
    const squatter = await startRedis({ pickPort: async () => own.port });
    started.push(squatter);
    await expect(own.start()).rejects.toThrow(/could not take back port/);
  });
});
