import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createKubeClient, type KubeClientOptions } from '../../src/kube/client.js';
import { ClusterError, KubeApiError, KubeconfigError } from '../../src/kube/errors.js';
import { backoffDelay, parseRetryAfter, retryDelay } from '../../src/kube/retry-policy.js';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void;

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

let server: http.Server;
let url: string;
let dir: string;
let kubeconfig: string;
let handlers: Handler[] = [];
let seen: Seen[] = [];

function kubeconfigText(serverUrl: string): string {
  return [
    'apiVersion: v1',
    'kind: Config',
    'clusters:',
    '- name: local',
    `  cluster: { server: "${serverUrl}", insecure-skip-tls-verify: true }`,
    'users:',
    '- name: tester',
    '  user: { token: "secret-token" }',
    'contexts:',
    '- name: local',
    '  context: { cluster: local, user: tester }',
    '- name: other',
    '  context: { cluster: local, user: tester }',
    'current-context: local',
    '',
  ].join('\n');
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const handler = handlers.shift() ?? ok({ kind: 'Status' });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(join(tmpdir(), 'kube-client-'));
  kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, kubeconfigText(url));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

afterEach(() => {
  handlers = [];
  seen = [];
});

function ok(body: unknown): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
}

function status(code: number, reason: string, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(code, { 'content-type': 'application/json', ...headers });
    res.end(
      JSON.stringify({ kind: 'Status', status: 'Failure', reason, message: `${reason} from test`, code }),
    );
  };
}

const reset: Handler = (req) => req.socket.destroy();
const hang: Handler = () => undefined;

function client(extra: Partial<KubeClientOptions> = {}): {
  sleeps: number[];
  c: ReturnType<typeof createKubeClient>;
} {
  const sleeps: number[] = [];
  const c = createKubeClient({
    kubeconfig,
    requestTimeoutMs: 200,
    retry: { attempts: 4, baseMs: 100, maxMs: 1000 },
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...extra,
  });
  return { sleeps, c };
}

const getDeployment = { verb: 'get', resource: 'deployments', namespace: 'shop', name: 'checkout' } as const;

describe('createKubeClient', () => {
  it('sends the bearer token and returns the JSON body', async () => {
    handlers.push(ok({ metadata: { name: 'checkout' } }));
    const { c } = client();
    await expect(c.call(getDeployment)).resolves.toEqual({ metadata: { name: 'checkout' } });
    expect(seen[0]?.url).toBe('/apis/apps/v1/namespaces/shop/deployments/checkout');
    expect(seen[0]?.headers.authorization).toBe('Bearer secret-token');
  });

  it('encodes label and field selectors in the query', async () => {
    handlers.push(ok({ items: [] }));
    const { c } = client();
    await c.call({
      verb: 'list',
      resource: 'pods',
      namespace: 'shop',
      query: { labelSelector: 'app=checkout,tier in (a,b)', fieldSelector: 'spec.nodeName=node-b' },
    });
    const target = new URL(seen[0]?.url ?? '', url);
    expect(target.pathname).toBe('/api/v1/namespaces/shop/pods');
    expect(target.searchParams.get('labelSelector')).toBe('app=checkout,tier in (a,b)');
    expect(target.searchParams.get('fieldSelector')).toBe('spec.nodeName=node-b');
  });

  it('retries a read on 500 with growing, jittered waits, then succeeds', async () => {
    handlers.push(status(500, 'InternalError'), status(503, 'ServiceUnavailable'), ok({ metadata: {} }));
    const { c, sleeps } = client();
    await expect(c.call(getDeployment)).resolves.toEqual({ metadata: {} });
    expect(seen).toHaveLength(3);
    // full jitter with random 0.5: half of min(1000, 100 * 2^n)
    expect(sleeps).toEqual([50, 100]);
  });

  it('honours Retry-After on 429', async () => {
    handlers.push(status(429, 'TooManyRequests', { 'retry-after': '2' }), ok({ metadata: {} }));
    const { c, sleeps } = client();
    await c.call(getDeployment);
    expect(sleeps).toEqual([2000]);
  });

  it('retries a reset connection', async () => {
    handlers.push(reset, ok({ metadata: {} }));
    const { c } = client();
    await expect(c.call(getDeployment)).resolves.toEqual({ metadata: {} });
    expect(seen).toHaveLength(2);
  });

  it('times out a slow response and gives up after the attempts with status 0', async () => {
    handlers.push(hang, hang, hang, hang);
    const { c, sleeps } = client({ requestTimeoutMs: 50 });
    const error = await c.call(getDeployment).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect(error).toBeInstanceOf(ClusterError);
    expect((error as KubeApiError).status).toBe(0);
    expect((error as KubeApiError).message).toContain('ETIMEDOUT');
    expect(seen).toHaveLength(4);
    expect(sleeps).toHaveLength(3);
  });

  it('turns 403 into a message naming the verb and resource, without retrying', async () => {
    handlers.push(status(403, 'Forbidden'));
    const { c } = client();
    const error = await c
      .call({ verb: 'list', resource: 'events', namespace: 'vision' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeApiError);
    expect((error as KubeApiError).isAccessDenied).toBe(true);
    expect((error as KubeApiError).message).toBe(
      'cannot list events in namespace vision: grant list on events',
    );
    expect(seen).toHaveLength(1);
  });

  it('names the subresource of a refused log read', async () => {
    handlers.push(status(403, 'Forbidden'));
    const { c } = client();
    const error = await c
      .text({ verb: 'get', resource: 'pods', subresource: 'log', namespace: 'shop', name: 'p' })
      .catch((e: unknown) => e);
    expect((error as KubeApiError).message).toBe(
      'cannot get pods/log in namespace shop: grant get on pods/log',
    );
  });

  it('never retries a write, even on 500', async () => {
    handlers.push(status(500, 'InternalError'));
    const { c } = client();
    const error = await c
      .call({
        ...getDeployment,
        verb: 'patch',
        body: { spec: { paused: false } },
        contentType: 'application/strategic-merge-patch+json',
      })
      .catch((e: unknown) => e);
    expect((error as KubeApiError).status).toBe(500);
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('PATCH');
    expect(seen[0]?.headers['content-type']).toBe('application/strategic-merge-patch+json');
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ spec: { paused: false } });
  });

  it('sends a write again after the Retry-After of a 429 or 503, and only then', async () => {
    handlers.push(
      status(429, 'TooManyRequests', { 'retry-after': '3' }),
      status(503, 'ServiceUnavailable', { 'retry-after': '1' }),
      ok({ metadata: { name: 'checkout' } }),
    );
    const { c, sleeps } = client();
    const patch = {
      ...getDeployment,
      verb: 'patch',
      body: { spec: { paused: false } },
      contentType: 'application/strategic-merge-patch+json',
    } as const;
    await expect(c.call(patch)).resolves.toEqual({ metadata: { name: 'checkout' } });
    expect(seen.map((r) => r.method)).toEqual(['PATCH', 'PATCH', 'PATCH']);
    // The server's waits, not the backoff's (which would be 50 and 100 here).
    expect(sleeps).toEqual([3000, 1000]);
    // A Retry-After beyond what is honoured: the write fails at once, naming the throttle.
    handlers = [status(429, 'TooManyRequests', { 'retry-after': '3600' })];
    seen = [];
    const error = await c.call(patch).catch((e: unknown) => e);
    expect((error as KubeApiError).status).toBe(429);
    expect(seen).toHaveLength(1);
  });

  it('does not retry 404 and keeps the server reason', async () => {
    handlers.push(status(404, 'NotFound'));
    const { c } = client();
    const error = await c.call(getDeployment).catch((e: unknown) => e);
    expect((error as KubeApiError).status).toBe(404);
    expect((error as KubeApiError).reason).toBe('NotFound');
    expect(seen).toHaveLength(1);
  });

  it('reports an unreachable server as status 0 naming the server', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const file = join(dir, 'closed');
    writeFileSync(file, kubeconfigText(`http://127.0.0.1:${port}`));
    const { c, sleeps } = client({ kubeconfig: file });
    const error = await c.call(getDeployment).catch((e: unknown) => e);
    expect((error as KubeApiError).status).toBe(0);
    expect((error as KubeApiError).message).toContain('ECONNREFUSED');
    expect((error as KubeApiError).message).toContain(`127.0.0.1:${port}`);
    expect(sleeps).toHaveLength(3);
  });

  it('selects a context and refuses an unknown one', () => {
    expect(createKubeClient({ kubeconfig, context: 'other' }).context).toBe('other');
    expect(() => createKubeClient({ kubeconfig, context: 'missing' })).toThrow(KubeconfigError);
    expect(() => createKubeClient({ kubeconfig: join(dir, 'nope') })).toThrow(KubeconfigError);
  });

  it("reads the files the given environment's KUBECONFIG lists, merged, not process.env's", () => {
    const second = join(dir, 'second');
    writeFileSync(
      second,
      [
        'apiVersion: v1',
        'kind: Config',
        'clusters:',
        '- name: far',
        '  cluster: { server: "http://127.0.0.1:9" }',
        'users:',
        '- name: far-user',
        '  user: { token: "t" }',
        'contexts:',
        '- name: far',
        '  context: { cluster: far, user: far-user }',
        'current-context: far',
        '',
      ].join('\n'),
    );
    const environment = { KUBECONFIG: [kubeconfig, second].join(delimiter) };
    expect(process.env['KUBECONFIG']).toBeUndefined();
    expect(createKubeClient({ environment }).server).toBe(url);
    expect(createKubeClient({ environment, context: 'far' }).server).toBe('http://127.0.0.1:9');
    expect(() => createKubeClient({ environment: { KUBECONFIG: join(dir, 'gone') } })).toThrow(
      /cannot load the kubeconfig KUBECONFIG names \(".*gone"\)/,
    );
  });
});

describe('retry policy', () => {
  it('caps the backoff and keeps it within [0, cap)', () => {
    const options = { attempts: 10, baseMs: 100, maxMs: 1000 };
    expect(backoffDelay(0, options, () => 0.999)).toBe(99);
    expect(backoffDelay(8, options, () => 0.999)).toBe(999);
    expect(backoffDelay(3, options, () => 0)).toBe(0);
  });

  it('parses Retry-After seconds and dates, and caps what it honours', () => {
    expect(parseRetryAfter('3')).toBe(3000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', Date.parse('2026-01-01T00:00:00Z'))).toBe(10_000);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(retryDelay(0, { attempts: 2, baseMs: 1, maxMs: 1 }, 3_600_000)).toBe(60_000);
  });
});
