import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseAlertmanagerPayload, type AlertmanagerPayload } from '../../src/app/alerts/payload.js';
import { createAlertmanagerRoute } from '../../src/app/routes/alertmanager.js';
import { crashLooping, notification, rolloutStuck } from '../support/alert-payloads.js';

const TOKEN = 's3cret-token';
const LIMIT = 64 * 1024;

let server: Server;
let base: string;
let received: AlertmanagerPayload[] = [];
let failIntake = false;
/** The intake hangs, as on a Redis that stalls. */
let stallIntake = false;
const logs: { level: string; obj: object }[] = [];

const logger = {
  info: (obj: object) => void logs.push({ level: 'info', obj }),
  warn: (obj: object) => void logs.push({ level: 'warn', obj }),
  error: (obj: object) => void logs.push({ level: 'error', obj }),
};

beforeAll(async () => {
  const route = createAlertmanagerRoute({
    token: TOKEN,
    maxBodyBytes: LIMIT,
    logger,
    deadlineMs: 200,
    intake: async (payload) => {
      if (stallIntake) await new Promise(() => undefined);
      if (failIntake) throw new Error("OOM command not allowed when used memory > 'maxmemory'.");
      received.push(payload);
      return {
        targets: payload.alerts.length,
        firing: 0,
        resolved: 0,
        ignored: 0,
        overflow: 0,
        notAllowed: 0,
      };
    },
  });
  server = createServer((req, res) => route.handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(() => {
  received = [];
  failIntake = false;
  stallIntake = false;
  logs.length = 0;
});

async function post(
  body: string | Buffer,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
) {
  const res = await fetch(`${base}/alerts/alertmanager`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
  });
  const text = await res.text();
  return { status: res.status, body: text.length > 0 ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

describe('POST /alerts/alertmanager', () => {
  it('accepts a firing notification and hands every alert to intake', async () => {
    const payload = notification([crashLooping('web-6d4cf56db6-x7k2p'), rolloutStuck('web')]);
    const res = await post(JSON.stringify(payload));
    expect(res.status).toBe(200);
    expect(res.body['status']).toBe('accepted');
    expect(received).toHaveLength(1);
    expect(received[0]?.alerts).toHaveLength(2);
  });

  it.each([
    ['no header', {}],
    ['wrong token', { authorization: 'Bearer nope' }],
    ['token prefix', { authorization: `Bearer ${TOKEN.slice(0, -1)}` }],
    ['basic scheme', { authorization: `Basic ${Buffer.from(`x:${TOKEN}`).toString('base64')}` }],
    ['token without scheme', { authorization: TOKEN }],
  ])('answers 401 for %s and queues nothing', async (_, headers) => {
    const res = await post(JSON.stringify(notification([rolloutStuck('web')])), headers);
    expect(res.status).toBe(401);
    expect(received).toEqual([]);
  });

  it('accepts the scheme in any case', async () => {
    const res = await post(JSON.stringify(notification([rolloutStuck('web')])), {
      authorization: `bearer ${TOKEN}`,
    });
    expect(res.status).toBe(200);
  });

  it('answers 413 for a declared or streamed body over the limit and queues nothing', async () => {
    const big = JSON.stringify(notification([rolloutStuck('web', 'shop', { pad: 'x'.repeat(LIMIT) })]));
    expect((await post(big)).status).toBe(413);
    // Chunked, no content-length: the limit is enforced while reading.
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      for (let i = 0; i < 8; i += 1) req.write('x'.repeat(16 * 1024));
      req.end();
    });
    expect(status).toBe(413);
    expect(received).toEqual([]);
  });

  it('answers 400 with the reason for bad JSON and for schema violations', async () => {
    const bad = await post('{"version": "4",');
    expect(bad.status).toBe(400);
    expect(bad.body['error']).toBe('body is not valid JSON');

    const { groupKey: _drop, ...noGroupKey } = notification([rolloutStuck('web')]);
    const missing = await post(JSON.stringify(noGroupKey));
    expect(missing.status).toBe(400);
    expect(String(missing.body['error'])).toContain('groupKey');

    const mistyped = await post(
      JSON.stringify({ ...notification([rolloutStuck('web')]), alerts: [{ status: 'on fire' }] }),
    );
    expect(mistyped.status).toBe(400);
    expect(String(mistyped.body['error'])).toMatch(/alerts\.0\.status/);

    const v3 = await post(JSON.stringify({ ...notification([rolloutStuck('web')]), version: '3' }));
    expect(v3.status).toBe(400);
    expect(String(v3.body['error'])).toContain('version');
    expect(received).toEqual([]);
  });

  it('answers 503 when the work cannot be queued, so Alertmanager retries', async () => {
    failIntake = true;
    const res = await post(JSON.stringify(notification([rolloutStuck('web')])));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ redis: 'full' });
    expect(logs.some((l) => l.level === 'error')).toBe(true);
  });

  it('answers 503 at its deadline when Redis stalls, instead of holding the request (issue 53.1)', async () => {
    stallIntake = true;
    const started = Date.now();
    const res = await post(JSON.stringify(notification([rolloutStuck('web')])));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ redis: 'stalled' });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('never logs the token', async () => {
    await post(JSON.stringify(notification([rolloutStuck('web')])));
    await post('nope', { authorization: `Bearer ${TOKEN}` });
    expect(JSON.stringify(logs)).not.toContain(TOKEN);
  });

  it('fuzz: any mutation of a payload gets a 2xx or a 4xx with a reason; 4xx queues nothing', async () => {
    const valid = notification([crashLooping('web-6d4cf56db6-x7k2p')]) as unknown as Record<string, unknown>;
    const keys = Object.keys(valid);
    const mutation = fc.oneof(
      fc.record({ drop: fc.constantFrom(...keys) }),
      fc.record({ key: fc.constantFrom(...keys), value: fc.jsonValue() }),
      fc.record({ raw: fc.string() }),
      fc.record({ alerts: fc.array(fc.jsonValue(), { maxLength: 3 }) }),
    );
    await fc.assert(
      fc.asyncProperty(mutation, async (m) => {
        let body: string;
        if ('raw' in m) body = m.raw;
        else if ('drop' in m)
          body = JSON.stringify(Object.fromEntries(Object.entries(valid).filter(([k]) => k !== m.drop)));
        else if ('key' in m) body = JSON.stringify({ ...valid, [m.key]: m.value });
        else body = JSON.stringify({ ...valid, alerts: m.alerts });
        const before = received.length;
        const res = await post(body);
        const parsedLocally = parseAlertmanagerPayload(body);
        if (res.status === 200) {
          expect(parsedLocally.ok).toBe(true);
          expect(received.length).toBe(before + 1);
        } else {
          expect(res.status).toBe(400);
          expect(typeof res.body['error']).toBe('string');
          expect(received.length).toBe(before);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('parseAlertmanagerPayload', () => {
  it('parses firing, resolved, grouped and truncated notifications', () => {
    const grouped = notification(
      [crashLooping('web-6d4cf56db6-x7k2p'), crashLooping('api-7f8b9c6d5-qwrtz')],
      {
        truncatedAlerts: 12,
      },
    );
    const result = parseAlertmanagerPayload(JSON.stringify(grouped));
    expect(result.ok && result.payload.alerts.length).toBe(2);
    expect(result.ok && result.payload.truncatedAlerts).toBe(12);

    const resolved = notification([
      { ...rolloutStuck('web'), status: 'resolved', endsAt: '2026-11-20T11:00:00Z' },
    ]);
    const parsedResolved = parseAlertmanagerPayload(JSON.stringify(resolved));
    expect(parsedResolved.ok && parsedResolved.payload.status).toBe('resolved');
  });

  it('fills defaults for optional fields an older sender leaves out', () => {
    const minimal = {
      version: '4',
      groupKey: '{}:{}',
      status: 'firing',
      receiver: 'x',
      alerts: [{ status: 'firing', labels: { alertname: 'A' }, startsAt: '2026-11-20T10:00:00Z' }],
    };
    const result = parseAlertmanagerPayload(JSON.stringify(minimal));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.payload.truncatedAlerts).toBe(0);
      expect(result.payload.alerts[0]?.annotations).toEqual({});
    }
  });

  it('fuzz: never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.json()), (text) => {
        const result = parseAlertmanagerPayload(text);
        expect(result.ok || result.reason.length > 0).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
