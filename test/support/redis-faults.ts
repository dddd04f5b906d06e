/**
 * Faults of a Redis that is up: full (`maxmemory` reached with `noeviction`: every
 * write that needs memory is refused with OOM, reads still answer), and a network
 * partition or a stall between one process and Redis (a TCP proxy the test cuts and heals).
 */
import { createServer, Socket, type Server } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Redis } from 'ioredis';

const usedMemory = async (redis: Redis): Promise<number> =>
  Number(/used_memory:(\d+)/.exec(await redis.info('memory'))?.[1]);

/**
 * Fills the Redis behind `admin` up to a maxmemory just above what it held, with
 * `noeviction`: from then on a write that needs memory is refused (OOM). The limit then
 * drops to half of what it holds: client buffers come and go by hundreds of kilobytes
 * on a busy server, and a dip below the limit would let a write through.
 * `release()` lifts the limit and drops the ballast.
 */
export async function fillRedis(admin: Redis): Promise<{ release(): Promise<void> }> {
  await admin.config('SET', 'maxmemory-policy', 'noeviction');
  await admin.config('SET', 'maxmemory', String((await usedMemory(admin)) + 256 * 1024));
  const value = 'x'.repeat(8 * 1024);
  let written = 0;
  for (let full = false; !full;) {
    const batch = admin.pipeline();
    for (let i = 0; i < 32; i += 1) batch.set(`ballast:${written + i}`, value);
    const results = (await batch.exec()) ?? [];
    full = results.some(([error]) => error !== null);
    written += results.length;
  }
  await admin.config('SET', 'maxmemory', String(Math.floor((await usedMemory(admin)) / 2)));
  return {
    async release() {
      await admin.config('SET', 'maxmemory', '0');
      const keys = Array.from({ length: written }, (_, i) => `ballast:${i}`);
      for (let i = 0; i < keys.length; i += 500) await admin.del(...keys.slice(i, i + 500));
    },
  };
}

/** A TCP proxy on loopback in front of a Redis: `url` for the process to be cut off. */
export interface RedisPartition {
  url: string;
  /**
   * Cuts the link: no byte moves either way and connections stay open, as a partition
   * looks to a client (no reset, no answer). What is sent meanwhile waits in the
   * sockets' buffers, as TCP keeps retransmitting it.
   */
  cut(): void;
  /**
   * Stalls Redis for this process: the same as `cut()`, named for the fault it plays (a
   * paused server, a slow fsync, a saturated managed Redis, a black hole: the
   * connection open, nothing answered). `heal()` ends it; what was sent meanwhile runs then.
   */
  stall(): void;
  /**
   * Stalls it from the first bytes the process sends that contain `text` (a key name, a
   * script's words): those bytes and everything after them wait, as a stall that
   * begins right at that command. For stalling one step of a sequence of calls.
   */
  stallOn(text: string): void;
  /** Whether bytes the process sent wait for the heal (a call is stuck on the stall). */
  holding(): boolean;
  /** Heals it: what waited is delivered, in order, and traffic flows again. */
  heal(): void;
  close(): Promise<void>;
}

export async function startRedisPartition(redisPort: number): Promise<RedisPartition> {
  let cut = false;
  /** Each direction of each connection: its socket to write to and what waits for the heal. */
  const links = new Set<{ to: Socket; held: Buffer[] }>();
  const sockets = new Set<Socket>();
  let trigger: string | undefined;
  const forward = (from: Socket, to: Socket, sent: boolean): void => {
    const link = { to, held: [] as Buffer[] };
    links.add(link);
    from.on('data', (chunk: Buffer) => {
      if (!cut && sent && trigger !== undefined && chunk.includes(trigger)) {
        cut = true;
        trigger = undefined;
      }
      if (cut) link.held.push(chunk);
      else to.write(chunk);
    });
    from.on('close', () => links.delete(link));
  };
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    sockets.add(client).add(upstream);
    upstream.connect(redisPort, '127.0.0.1');
    forward(client, upstream, true);
    forward(upstream, client, false);
    const drop = (): void => {
      sockets.delete(client);
      sockets.delete(upstream);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', drop).on('error', drop);
    upstream.on('close', drop).on('error', drop);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${port}`,
    cut() {
      cut = true;
    },
    stall() {
      cut = true;
    },
    stallOn(text) {
      trigger = text;
    },
    holding() {
      return [...links].some((link) => link.held.length > 0);
    },
    heal() {
      cut = false;
      trigger = undefined;
      for (const link of links) for (const chunk of link.held.splice(0)) link.to.write(chunk);
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
