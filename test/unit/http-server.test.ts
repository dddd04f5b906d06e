import { describe, expect, it } from 'vitest';
import { routeTable, type Handler } from '../../src/app/http-server.js';
import { readyzRoute } from '../../src/app/routes/health.js';
import { discardLogger, httpServerPerTest } from '../support/http-test-server.js';
import { openSocket, rawRequest, readUntilClose } from '../support/raw-http.js';

const logger = discardLogger('http-server-test');
const servers = httpServerPerTest(logger, {
  headersTimeoutMs: 2_000,
  requestTimeoutMs: 4_000,
  keepAliveTimeoutMs: 1_000,
});

const start = async (extra: Record<string, Record<string, Handler>>): Promise<string> =>
  (await servers.start(routeTable([], extra))).url;

describe('startHttpServer', () => {
  it('answers 500 when a route handler throws or rejects, and keeps serving', async () => {
    const url = await start({
      '/throws': {
        GET: () => {
          throw new Error('boom');
        },
      },
      '/rejects': { GET: () => Promise.reject(new Error('boom')) },
      '/ok': { GET: (_req, res) => void res.end('ok') },
    });
    expect((await rawRequest(url, 'GET /throws HTTP/1.1\r\nHost: x')).status).toBe(500);
    expect((await rawRequest(url, 'GET /rejects HTTP/1.1\r\nHost: x')).status).toBe(500);
    expect((await rawRequest(url, 'GET /ok HTTP/1.1\r\nHost: x')).status).toBe(200);
  });

  it('answers 500 when a Bolt-style custom route (readyz) fails inside its promise', async () => {
    const readyz = readyzRoute({
      pingRedis: () => Promise.resolve(),
      slackReady: () => {
        throw new Error('boom');
      },
      logger,
    });
    const { url } = await servers.start(routeTable([readyz]));
    expect((await rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x')).status).toBe(500);
  });

  it('answers a malformed request line with 400 (clientError)', async () => {
    const url = await start({});
    const socket = await openSocket(url);
    const reply = readUntilClose(socket);
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\nBad Header Line\r\n\r\n');
    expect((await reply).status).toBe(400);
  });

  it('refuses route paths that are patterns (they would bring back decoding)', () => {
    expect(() => routeTable([{ path: '/x/:id', method: 'GET', handler: () => undefined }])).toThrow(/fixed/);
  });

  it('closes the connection after answering a request whose body has not all arrived, instead of draining it', async () => {
    // Node's request timeout far beyond the read's 5 s: only the server's own close ends it.
    const { url } = await servers.start(
      routeTable([], { '/ok': { GET: (_req, res) => void res.end('ok') } }),
      undefined,
      {
        headersTimeoutMs: 60_000,
        requestTimeoutMs: 60_000,
        keepAliveTimeoutMs: 1_000,
      },
    );
    const socket = await openSocket(url);
    const reply = readUntilClose(socket);
    // A body that would never end: Node's default reads it until the request timeout.
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nabc');
    // A byte now and then, so Node's keep-alive timer does not end it either.
    const trickle = setInterval(() => socket.writable && socket.write('d'), 100);
    const res = await reply;
    clearInterval(trickle);
    expect(res.status).toBe(200);
    expect(res.closed).toBe(true);
  });
});

describe('readyzRoute', () => {
  it('shares one Redis PING among the probes that arrive while it is out', async () => {
    let pings = 0;
    let answer: () => void = () => undefined;
    const readyz = readyzRoute({
      pingRedis: () => {
        pings += 1;
        return new Promise<void>((resolve) => (answer = resolve));
      },
      slackReady: () => true,
      logger,
    });
    let arrived = 0;
    const counted = {
      ...readyz,
      handler: (...args: Parameters<typeof readyz.handler>) => {
        arrived += 1;
        readyz.handler(...args);
      },
    };
    const { url } = await servers.start(routeTable([counted]));
    const probes = Array.from({ length: 20 }, () => rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x'));
    await expect.poll(() => arrived).toBe(20);
    answer();
    expect((await Promise.all(probes)).map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(pings).toBe(1);
    const later = rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x');
    await expect.poll(() => pings).toBe(2);
    answer();
    expect((await later).status).toBe(200);
  });

  it('answers not ready when the PING does not return in time, instead of holding the probe', async () => {
    const readyz = readyzRoute({
      pingRedis: () => new Promise<void>(() => undefined),
      slackReady: () => true,
      logger,
      pingTimeoutMs: 50,
    });
    const { url } = await servers.start(routeTable([readyz]));
    const res = await rawRequest(url, 'GET /readyz HTTP/1.1\r\nHost: x');
    expect(res.status).toBe(503);
    expect(res.text).toContain('"redis":"unreachable"');
  });
});
