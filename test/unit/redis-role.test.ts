/**
 * pingWritable (src/queue/role.ts): /readyz's Redis check. PING answers on a replica
 * too, so a server demoted during a failover (one address whose server became a
 * replica) must read as not ready: ROLE decides, and PING alone where ROLE is not
 * allowed.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it, vi } from 'vitest';
import { pingWritable, RedisReadOnlyError } from '../../src/queue/role.js';

const fake = (role: () => Promise<unknown>, ping = vi.fn(async () => 'PONG')) =>
  ({ call: vi.fn(role), ping }) as unknown as Redis & { ping: typeof ping };

describe('pingWritable', () => {
  it('a master passes', async () => {
    await expect(pingWritable(fake(async () => ['master', 10, []]))).resolves.toBeUndefined();
  });

  it('a replica (demoted by a failover) is read-only', async () => {
    await expect(
      pingWritable(fake(async () => ['slave', '127.0.0.1', 6380, 'connected', 10])),
    ).rejects.toThrow(RedisReadOnlyError);
  });

  it('ROLE not allowed (a managed command list, an ACL): PING decides', async () => {
    const redis = fake(async () => Promise.reject(new Error("ERR unknown command 'ROLE'")));
    await expect(pingWritable(redis)).resolves.toBeUndefined();
    expect(redis.ping).toHaveBeenCalled();
  });

  it('a connection error is not taken for a missing command', async () => {
    const redis = fake(async () => Promise.reject(new Error("Stream isn't writeable")));
    await expect(pingWritable(redis)).rejects.toThrow("Stream isn't writeable");
    expect(redis.ping).not.toHaveBeenCalled();
  });
});
