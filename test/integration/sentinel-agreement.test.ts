/**
 * Issue 54.5: with a Sentinel set, the master is what a majority of the listed sentinels
 * name, never whichever answers first. Three sentinels speaking the Sentinel protocol on
 * loopback (the one listed first lies and names a trap that records what reaches it;
 * the other two name a real redis-server): every connection of the app's factory goes
 * to the real master, and the trap never sees a byte, so the data password never
 * reaches it. With only the liar and one honest sentinel listed, no majority exists and
 * nothing connects anywhere. One sentinel listed needs rediss+sentinel://.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { parseRedisUrl, RedisUrlError } from '../../src/queue/redis-url.js';
import { agreementNeeded } from '../../src/queue/sentinel-agreement.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const NAME = 'rdmaster';

/** The commands in a buffer of RESP arrays of bulk strings (what clients send). */
function commands(buffer: string): string[][] {
  const out: string[][] = [];
  const lines = buffer.split('\r\n');
  let i = 0;
  while (i < lines.length) {
    const head = lines[i] ?? '';
    if (!head.startsWith('*')) {
      i++;
      continue;
    }
    const n = Number(head.slice(1));
    const args: string[] = [];
    i++;
    for (let k = 0; k < n; k++) {
      args.push(lines[i + 1] ?? '');
      i += 2;
    }
    out.push(args);
  }
  return out;
}

const bulk = (s: string): string => `$${Buffer.byteLength(s)}\r\n${s}\r\n`;

/** A sentinel that names `master` for NAME. */
async function fakeSentinel(
  master: () => { host: string; port: number },
): Promise<{ server: Server; port: number }> {
  const server = createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (data) => {
      for (const [command = '', ...args] of commands(data.toString('utf8'))) {
        const c = command.toLowerCase();
        if (c === 'sentinel' && args[0]?.toLowerCase() === 'get-master-addr-by-name' && args[1] === NAME) {
          const { host, port } = master();
          socket.write(`*2\r\n${bulk(host)}${bulk(String(port))}`);
        } else if (c === 'subscribe') socket.write(`*3\r\n${bulk('subscribe')}${bulk(args[0] ?? '')}:1\r\n`);
        else socket.write('+OK\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

let redis: TestRedis;
let trap: Server;
let trapPort = 0;
const trapped: string[] = [];
const servers: Server[] = [];
let liar = 0;
const honest: number[] = [];

beforeAll(async () => {
  redis = await startRedis();
  trap = createServer((socket) => {
    socket.on('error', () => undefined);
    socket.on('data', (d) => trapped.push(d.toString('utf8')));
  });
  await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
  trapPort = (trap.address() as { port: number }).port;
  const real = { host: '127.0.0.1', port: Number(new URL(redis.url).port) };
  const lying = await fakeSentinel(() => ({ host: '127.0.0.1', port: trapPort }));
  liar = lying.port;
  servers.push(lying.server);
  for (let i = 0; i < 2; i++) {
    const s = await fakeSentinel(() => real);
    honest.push(s.port);
    servers.push(s.server);
  }
});

afterAll(async () => {
  for (const s of [...servers, trap]) {
    s.close();
  }
  await redis?.close();
});

const url = (ports: number[]) =>
  `redis+sentinel://:data-password@${ports.map((p) => `127.0.0.1:${p}`).join(',')}/${NAME}`;

describe('the master from the sentinels’ agreement', () => {
  it('a lying sentinel asked first does not get the connection, nor the data password', async () => {
    const connection = createProducerConnection(url([liar, ...honest]), { lazyConnect: true });
    connection.on('error', () => undefined);
    try {
      await connection.connect();
      expect(await connection.ping()).toBe('PONG');
      const stream = (connection as unknown as { stream: Socket }).stream;
      expect(stream.remotePort).toBe(Number(new URL(redis.url).port));
      expect(trapped).toEqual([]);
    } finally {
      await closeConnection(connection);
    }
  });

  it('no majority, no connection: one liar and one honest sentinel', async () => {
    const connection = createProducerConnection(url([liar, honest[0] ?? 0]), {
      lazyConnect: true,
      sentinelRetryStrategy: () => null,
    });
    connection.on('error', () => undefined);
    try {
      await expect(connection.connect()).rejects.toThrow(/do not agree|unreachable/);
      expect(trapped).toEqual([]);
    } finally {
      connection.disconnect();
    }
  });

  it('a majority is more than half the listed sentinels, and never fewer than two', () => {
    expect([1, 2, 3, 4, 5].map(agreementNeeded)).toEqual([2, 2, 2, 3, 3]);
  });

  it('one sentinel listed: refused in plain TCP, accepted with TLS to the data nodes', () => {
    expect(() => parseRedisUrl('redis+sentinel://:pw@127.0.0.1:26379/m')).toThrow(RedisUrlError);
    expect(parseRedisUrl('rediss+sentinel://:pw@127.0.0.1:26379/m')).toMatchObject({
      kind: 'sentinel',
      tls: true,
    });
  });
});
