/**
 * Hostile HTTP against the real app process (src/app/main.ts as a child, private
 * Redis, Slack stand-in): a route fuzz of methods x paths x bodies, then slow and
 * oversize clients. A request must never end the process, /healthz must answer after
 * each one, and nothing of a request (its headers) may reach the process output
 * except as the logger's JSON lines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Child } from '../../bench/lib/children.js';
import { SLACK_MAX_BODY_BYTES } from '../../src/app/body-gate.js';
import { openSocket, rawRequest, readUntilClose } from '../support/raw-http.js';
import { startAppProcess, type AppProcess } from '../support/app-process.js';

const TOKEN = 'xoxb-http-routes';
/** Sent in every fuzz request; must never appear in the app's output. */
const MARKER = 'fuzz-marker-7f3a9c';
const HEADERS_TIMEOUT_MS = 400;
const REQUEST_TIMEOUT_MS = 800;

let started: AppProcess;
let app: Child;
let url: string;

beforeAll(async () => {
  started = await startAppProcess({
    SLACK_BOT_TOKEN: TOKEN,
    SLACK_SIGNING_SECRET: 'http-routes-secret',
    LOG_LEVEL: 'debug',
    ROLLOUT_DOCTOR_HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    ROLLOUT_DOCTOR_HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
  });
  ({ app, url } = started);
});

afterAll(async () => {
  await started?.close();
});

const alive = async (): Promise<boolean> =>
  (await rawRequest(url, 'GET /healthz HTTP/1.1\r\nHost: x')).status === 200;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'TRACE', 'PROPFIND'];
const PATHS = [
  '/',
  '/favicon.ico',
  '/healthz',
  '/readyz',
  '/slack/events',
  '//slack/events',
  '/slack/events/',
  '/./slack/events',
  '/slack/../slack/events',
  '/%2e/healthz',
  '/slack%2Fevents',
  '/%',
  '/%zz/%',
  '/healthz?x=%',
  '/..',
  '/../../etc/passwd',
  '//',
  `/${'a'.repeat(8_000)}`,
  // Past Node's 16 KB header limit: 431 from clientError.
  `/${'b'.repeat(20_000)}`,
  `/${'%'.repeat(2_000)}`,
  'http://evil.example/healthz',
  'http://evil.example/slack/events',
  '*',
];
const BODIES: { name: string; headers: string; body: string }[] = [
  { name: 'none', headers: '', body: '' },
  {
    name: 'form',
    headers: 'Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 9',
    body: 'token=abc',
  },
  { name: 'untyped', headers: 'Content-Length: 4', body: '{"a"' },
];

describe('route fuzz against the app process', () => {
  it('answers every method x path x body with a status, keeps serving /healthz and never exits', async () => {
    let exited = false;
    void app.exited.then(() => (exited = true));
    const failures: string[] = [];
    for (const method of METHODS) {
      for (const path of PATHS) {
        for (const { name, headers, body } of BODIES) {
          const head = [
            `${method} ${path} HTTP/1.1`,
            'Host: x',
            `Authorization: Bearer ${MARKER}`,
            `X-Fuzz: ${MARKER}`,
            ...(headers ? [headers] : []),
          ].join('\r\n');
          const res = await rawRequest(url, head, body);
          if (res.status === 0 || res.status >= 500)
            failures.push(`${method} ${path.slice(0, 40)} ${name}: ${res.status}`);
          if (exited || !(await alive())) {
            failures.push(`${method} ${path.slice(0, 40)} ${name}: app down`);
            expect(failures).toEqual([]);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(exited).toBe(false);
    // Only the logger writes: every output line is JSON, and no request header is in it.
    const lines = app
      .output()
      .split('\n')
      .filter((l) => l.trim() !== '');
    expect(lines.filter((l) => !l.startsWith('{'))).toEqual([]);
    expect(app.output()).not.toContain(MARKER);
  });

  it('answers 404 for unknown paths and 405 with Allow for known paths', async () => {
    const status = async (head: string): Promise<string> => {
      const res = await rawRequest(url, `${head}\r\nHost: x`);
      const allow = /\r\nallow: ([^\r]*)/i.exec(res.text)?.[1];
      return allow ? `${res.status} ${allow}` : String(res.status);
    };
    expect(await status('GET / HTTP/1.1')).toBe('404');
    expect(await status('GET /favicon.ico HTTP/1.1')).toBe('404');
    expect(await status('HEAD /healthz HTTP/1.1')).toBe('200');
    expect(await status('POST //slack/events HTTP/1.1')).toBe('404');
    expect(await status('POST /./slack/events HTTP/1.1')).toBe('404');
    expect(await status('POST /healthz HTTP/1.1')).toBe('405 GET, HEAD');
    expect(await status('GET /slack/events HTTP/1.1')).toBe('405 POST');
  });
});

describe('slow and oversize clients', () => {
  it('cuts off a client trickling its headers (slowloris) at the headers timeout', async () => {
    const socket = await openSocket(url);
    const started = Date.now();
    const reply = readUntilClose(socket, 10_000);
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    // One header line every 100 ms, for as long as the connection stays open. The
    // bound is loose (a shared CI machine) but far below the 10 s the read waits.
    const trickle = setInterval(() => socket.writable && socket.write(`X-Slow-${Date.now()}: a\r\n`), 100);
    const res = await reply;
    clearInterval(trickle);
    expect(res.closed).toBe(true);
    expect(res.status === 408 || res.status === 0).toBe(true);
    expect(Date.now() - started).toBeLessThan(HEADERS_TIMEOUT_MS * 10);
    expect(await alive()).toBe(true);
  });

  it('cuts off a slow body upload at the request timeout', async () => {
    const socket = await openSocket(url);
    const started = Date.now();
    const reply = readUntilClose(socket, 10_000);
    socket.write(
      'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n\r\n',
    );
    const trickle = setInterval(() => socket.writable && socket.write('a=b&'), 50);
    const res = await reply;
    clearInterval(trickle);
    expect(res.closed).toBe(true);
    expect(res.status === 408 || res.status === 0).toBe(true);
    expect(Date.now() - started).toBeLessThan(REQUEST_TIMEOUT_MS * 5);
    expect(await alive()).toBe(true);
  });

  it('refuses an oversize Content-Length with 413 before any of the body is sent', async () => {
    const socket = await openSocket(url);
    const reply = readUntilClose(socket, 5_000);
    socket.write(
      `POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${SLACK_MAX_BODY_BYTES + 1}\r\n\r\n`,
    );
    const res = await reply;
    expect(res.status).toBe(413);
    expect(res.closed).toBe(true);
  });

  it('cuts off a chunked body as soon as it passes the limit', async () => {
    const socket = await openSocket(url);
    const reply = readUntilClose(socket, 5_000);
    socket.write(
      'POST /slack/events HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n',
    );
    const chunk = 'a'.repeat(16 * 1024);
    let sent = 0;
    // Keeps sending (never the final chunk) until the server answers and closes.
    const pump = setInterval(() => {
      if (!socket.writable) return;
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      sent += chunk.length;
    }, 10);
    const res = await reply;
    clearInterval(pump);
    expect(res.status).toBe(413);
    expect(sent).toBeLessThan(SLACK_MAX_BODY_BYTES * 4);
    expect(await alive()).toBe(true);
  });
});
