import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webApi } from '@slack/bolt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slackFetch } from '../../src/chat/slack/slack-fetch.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: Server;
let base: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (req.url === '/api/chat.postMessage') {
        const params = new URLSearchParams(body);
        res.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'x-oauth-scopes': 'chat:write,commands',
        });
        res.end(JSON.stringify({ ok: true, channel: params.get('channel'), ts: '1700000000.000100' }));
      } else if (req.url === '/api/limited') {
        res.writeHead(429, { 'retry-after': '7', 'content-type': 'application/json' });
        res.end('{"ok":false,"error":"ratelimited"}');
      } else if (req.url === '/api/moved') {
        res.writeHead(302, { location: '/api/chat.postMessage' });
        res.end();
      } else if (req.url === '/api/slow') {
        setTimeout(() => res.end('{"ok":true}'), 2_000).unref();
      } else if (req.url === '/api/binary') {
        res.writeHead(200, { 'content-type': 'application/gzip', 'set-cookie': ['a=1', 'b=2'] });
        res.end(Buffer.from([0x1f, 0x8b, 0x00, 0xff]));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('slackFetch, the Web API transport', () => {
  it('carries a real WebClient call: form body, token header, parsed answer, scopes', async () => {
    const client = new webApi.WebClient('xoxb-test-token', { slackApiUrl: base, fetch: slackFetch });
    const result = await client.chat.postMessage({ channel: 'C123', text: 'héllo <@U1>' });
    expect(result.ok).toBe(true);
    expect(result.ts).toBe('1700000000.000100');
    expect(result.channel).toBe('C123');
    expect(result.response_metadata?.scopes).toEqual(['chat:write', 'commands']);
    const request = seen.at(-1);
    expect(request?.method).toBe('POST');
    expect(request?.headers.authorization).toBe('Bearer xoxb-test-token');
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(new URLSearchParams(request?.body).get('text')).toBe('héllo <@U1>');
  });

  it('shows a 429 with its Retry-After, so the client rejects it as rate limited', async () => {
    const response = await slackFetch(`${base}limited`, { method: 'POST', body: 'x=1' });
    expect(response.status).toBe(429);
    expect(response.ok).toBe(false);
    expect(response.headers.get('Retry-After')).toBe('7');
    expect(await response.json()).toEqual({ ok: false, error: 'ratelimited' });

    const client = new webApi.WebClient('xoxb-t', {
      slackApiUrl: base,
      fetch: slackFetch,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
    });
    await expect(client.apiCall('limited')).rejects.toMatchObject({
      code: 'slack_webapi_rate_limited_error',
      retryAfter: 7,
    });
  });

  it('never follows a redirect the client did not ask to follow', async () => {
    const before = seen.length;
    const response = await slackFetch(`${base}moved`, { method: 'POST', body: '', redirect: 'error' });
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/api/chat.postMessage');
    expect(seen.length).toBe(before + 1);
  });

  it('keeps binary bodies intact and joins repeated headers', async () => {
    const response = await slackFetch(new URL(`${base}binary`), { method: 'GET' });
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([0x1f, 0x8b, 0x00, 0xff]));
    expect(response.headers.get('set-cookie')).toBe('a=1, b=2');
    expect([...response.headers.entries()]).toContainEqual(['content-type', 'application/gzip']);
    expect(response.url).toBe(`${base}binary`);
  });

  it('stops waiting when the signal aborts (the client timeout)', async () => {
    const started = Date.now();
    await expect(
      slackFetch(`${base}slow`, { method: 'POST', body: '', signal: AbortSignal.timeout(100) }),
    ).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(1_500);
  });

  it('hands multipart bodies (file uploads) to the global fetch', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array([1, 2, 3])]), 'report.txt');
    form.append('channel', 'C1');
    const response = await slackFetch(`${base}chat.postMessage`, { method: 'POST', body: form });
    expect(response.status).toBe(200);
    const request = seen.at(-1);
    expect(request?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request?.body).toContain('filename="report.txt"');
  });
});
