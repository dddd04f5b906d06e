/**
 * Connection limits of the app's HTTP server, over real sockets from several loopback
 * addresses (each 127.x.y.z is a peer of its own), with small configured limits.
 */
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { peerKey, refusalLog, type ConnectionLimits } from '../../src/app/connection-guard.js';
import { routeTable } from '../../src/app/http-server.js';
import { createLogger } from '../../src/logger.js';
import { discardLogger, httpServerPerTest } from '../support/http-test-server.js';
import { readUntilClose } from '../support/raw-http.js';

const servers = httpServerPerTest(discardLogger('connection-guard-test'), {
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 30_000,
});
const WIDE: ConnectionLimits = {
  maxConnections: 100,
  maxConnectionsPerPeer: 100,
  maxRequestsPerConnection: 100,
};
const connections = (): number | undefined => servers.current()?.connections();

/** GET /ok answers at once; GET /hold answers when `release` is called. */
async function start(
  limits: Partial<ConnectionLimits>,
): Promise<{ url: string; release: () => void; holding: () => number; handled: () => number }> {
  const held: (() => void)[] = [];
  let handled = 0;
  const server = await servers.start(
    routeTable([], {
      '/ok': {
        GET: (_req, res) => {
          handled += 1;
          res.end('ok');
        },
      },
      '/hold': { GET: (_req, res) => void held.push(() => res.end('held')) },
    }),
    { ...WIDE, ...limits },
  );
  return {
    url: server.url,
    release: () => held.splice(0).forEach((end) => end()),
    holding: () => held.length,
    handled: () => handled,
  };
}

/** A connection from `from` that sends nothing (or `request`), with a promise of its close. */
async function idle(url: string, from: string, request?: string): Promise<{ closed: Promise<unknown> }> {
  const socket = await servers.connect(url, from);
  const closed = readUntilClose(socket);
  if (request !== undefined) socket.write(request);
  return { closed };
}

const ok = (url: string, from?: string): Promise<number> =>
  (async () => {
    const socket = await servers.connect(url, from);
    const reply = readUntilClose(socket);
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    return (await reply).status;
  })();

describe('guardConnections', () => {
  it("past a peer's cap, its connection idle longest is closed to make room, and the newcomer is served", async () => {
    const { url } = await start({ maxConnectionsPerPeer: 3 });
    const first = await idle(url, '127.0.0.2');
    await expect.poll(connections).toBe(1);
    await idle(url, '127.0.0.2');
    await idle(url, '127.0.0.2');
    await expect.poll(connections).toBe(3);
    expect(await ok(url, '127.0.0.2')).toBe(200);
    expect(await first.closed).toMatchObject({ closed: true, status: 0 });
    await expect.poll(connections).toBe(2);
  });

  it('past the global cap, the connection idle longest of any peer is closed; one with an answer in progress is not', async () => {
    const { url, release, holding } = await start({ maxConnections: 3 });
    const busy = await idle(url, '127.0.0.2', 'GET /hold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await expect.poll(holding).toBe(1);
    const oldestIdle = await idle(url, '127.0.0.3');
    await idle(url, '127.0.0.4');
    await expect.poll(connections).toBe(3);
    expect(await ok(url, '127.0.0.5')).toBe(200);
    expect(await oldestIdle.closed).toMatchObject({ closed: true, status: 0 });
    release();
    expect(await busy.closed).toMatchObject({ status: 200 });
  });

  it('turns the newcomer away when every connection has an answer in progress', async () => {
    const { url, release, holding } = await start({ maxConnections: 2 });
    await idle(url, '127.0.0.2', 'GET /hold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await idle(url, '127.0.0.3', 'GET /hold HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await expect.poll(holding).toBe(2);
    expect(await ok(url, '127.0.0.4')).toBe(0);
    release();
  });

  it('closes a connection that pipelines more requests than allowed, and runs no handler past the limit', async () => {
    const { url, handled } = await start({ maxRequestsPerConnection: 4 });
    const socket = await servers.connect(url);
    const reply = readUntilClose(socket);
    // 50 requests in one write, as Node parses them: all in one go.
    socket.write(
      'GET /ok HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(49) +
        'GET /ok HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    const res = await reply;
    expect(res.closed).toBe(true);
    expect(res.text.split('HTTP/1.1 200').length - 1).toBeLessThanOrEqual(4);
    expect(handled()).toBeLessThanOrEqual(4);
    expect(await ok(url)).toBe(200);
  });
});

describe('pipelining cut into small reads', () => {
  /** Sends `batches` of `perWrite` requests, each after the previous batch's answers arrived; the texts seen and whether it closed. */
  async function batches(
    url: string,
    perWrite: number,
    count: number,
  ): Promise<{ closed: boolean; answers: number }> {
    const socket = await servers.connect(url);
    let text = '';
    let closed = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    const ended = new Promise<void>((resolve) => socket.once('close', () => ((closed = true), resolve())));
    const answers = (): number => text.split('HTTP/1.1 200').length - 1;
    for (let i = 0; i < count && !closed; i += 1) {
      const want = answers() + perWrite;
      socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n\r\n'.repeat(perWrite));
      // The answers to this batch (or the close) before the next: each batch is its own read.
      await Promise.race([
        ended,
        new Promise<void>((resolve) => {
          const check = (): void => {
            if (answers() >= want) {
              socket.off('data', check);
              resolve();
            }
          };
          socket.on('data', check);
          check();
        }),
      ]);
    }
    const seen = answers();
    socket.destroy();
    return { closed, answers: seen };
  }

  it('two requests per read, again and again, add up to pipelining and close the connection (issue 27 flake under load)', async () => {
    const { url } = await start({ maxRequestsPerConnection: 4 });
    const flood = await batches(url, 2, 20);
    expect(flood.closed).toBe(true);
    expect(flood.answers).toBeLessThanOrEqual(6);
  });

  it('a client that waits for each answer is never taken for pipelining', async () => {
    const { url } = await start({ maxRequestsPerConnection: 4 });
    const polite = await batches(url, 1, 20);
    expect(polite.closed).toBe(false);
    expect(polite.answers).toBe(20);
  });
});

describe('peerKey', () => {
  it('counts IPv4 by address, IPv4-mapped as IPv4, IPv6 by its /64 however it is written', () => {
    expect(peerKey('192.0.2.7')).toBe('192.0.2.7');
    expect(peerKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(peerKey('2001:db8:1:2::5')).toBe('2001:db8:1:2::/64');
    expect(peerKey('2001:0db8:0001:0002:ffff:0:0:9')).toBe('2001:db8:1:2::/64');
    expect(peerKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(peerKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(peerKey('::1')).toBe('0:0:0:0::/64');
    expect(peerKey(undefined)).toBe('unknown');
  });
});

describe('refusalLog', () => {
  it('writes one line per reason and window, then one with the count of the rest', async () => {
    const lines: { reason?: string; count?: number }[] = [];
    const sink = createLogger(
      { level: 'info', name: 'refusals' },
      new Writable({
        write: (chunk, _e, cb) => {
          lines.push(JSON.parse(String(chunk)) as { reason?: string; count?: number });
          cb();
        },
      }),
    );
    const refused = refusalLog(sink, 50);
    for (let i = 0; i < 100; i += 1) refused('slow', { i }, 'refused');
    refused('other', {}, 'refused');
    expect(lines.map((l) => l.reason)).toEqual(['slow', 'other']);
    await expect.poll(() => lines.length).toBe(3);
    expect(lines[2]).toMatchObject({ reason: 'slow', count: 99 });
  });
});
