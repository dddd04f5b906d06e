import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import {
  routeTable,
  slackBodyGate,
  startHttpServer,
  type Handler,
  type HttpServerHandle,
} from '../../src/app/http-server.js';
import { readyzRoute } from '../../src/app/routes/health.js';
import { createLogger } from '../../src/logger.js';
import { openSocket, rawRequest, readUntilClose } from '../support/raw-http.js';

// 'debug', not 'silent': the serializers must run on what the server logs.
const logger = createLogger(
  { level: 'debug', name: 'http-server-test' },
  new Writable({ write: (_c, _e, cb) => cb() }),
);
const timeouts = { headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 1_000 };
let server: HttpServerHandle | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

const start = async (extra: Record<string, Record<string, Handler>>): Promise<string> => {
  server = await startHttpServer({
    routes: routeTable([], extra),
    logger,
    timeouts,
    host: '127.0.0.1',
    port: 0,
  });
  return server.url;
};

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
    server = await startHttpServer({
      routes: routeTable([readyz]),
      logger,
      timeouts,
      host: '127.0.0.1',
      port: 0,
    });
    expect((await rawRequest(server.url, 'GET /readyz HTTP/1.1\r\nHost: x')).status).toBe(500);
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
});

describe('slackBodyGate', () => {
  it('answers 503 beyond the cap on bodies read at once, and hands complete bodies on', async () => {
    const gate = slackBodyGate(logger, { maxBytes: 1_000, maxConcurrent: 1 });
    const seen: string[] = [];
    const url = await start({
      '/slack/events': {
        POST: gate.handler((req, res) => {
          seen.push(String((req as typeof req & { rawBody: Buffer }).rawBody));
          res.end('ok');
        }),
      },
    });
    const slow = await openSocket(url);
    const slowReply = readUntilClose(slow);
    slow.write(
      'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\nConnection: close\r\n\r\nabc',
    );
    // The first body is now being read: wait until the gate counts it.
    await expect.poll(() => gate.inFlight()).toBe(1);
    const second = await rawRequest(url, 'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Length: 2', 'hi');
    expect(second.status).toBe(503);
    slow.write('defghij');
    expect((await slowReply).status).toBe(200);
    expect(seen).toEqual(['abcdefghij']);
    expect(gate.inFlight()).toBe(0);
  });
});
