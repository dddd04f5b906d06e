/**
 * The admission webhook under a flood from whoever reaches its port (issue 67.4):
 * reviews in made-up namespaces cost one lookup each and are never renewed, a genuine
 * review keeps its warning; large bodies past the cap are answered 429 at once and the
 * heap stays bounded.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { startLocalAdmission } from '../support/serving-certificate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
let server: Awaited<ReturnType<typeof startLocalAdmission>> | undefined;
let agent: Agent | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'admission-flood-'));
});
afterEach(async () => {
  agent?.destroy();
  await server?.close();
  await sim?.close();
  server = undefined;
  sim = undefined;
  agent = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(options: Parameters<typeof startLocalAdmission>[2] = {}): Promise<SimClient> {
  sim = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'admission');
  const s = sim.sim;
  await s.settle();
  await s.waitFor(
    () =>
      ((s.get('Deployment', 'vision', 'vision-object-tracker') as Json)['status']?.['availableReplicas'] ??
        0) === 1,
  );
  server = await startLocalAdmission({ kubeconfig: sim.kubeconfig }, dir, options);
  agent = new Agent({ keepAlive: true, maxSockets: 50, ca: server.tls.ca });
  return sim;
}

/** POSTs `body` to /validate in 64 KiB pieces, each written once the last has gone (the test holds no copies). */
function post(body: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: server?.port,
        method: 'POST',
        path: '/validate',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': body.length },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    let at = 0;
    const write = (): void => {
      while (at < body.length) {
        const piece = body.subarray(at, at + 65_536);
        at += piece.length;
        if (!req.write(piece)) {
          req.once('drain', write);
          return;
        }
      }
      req.end();
    };
    write();
  });
}

function probe(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port: server?.probePort, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve(Buffer.concat(chunks).toString()));
    }).on('error', reject);
  });
}

const metric = (text: string, series: string): number =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(`${series} `))
      ?.split(' ')[1] ?? 0,
  );

function review(operation: 'CREATE' | 'UPDATE', object: Json, oldObject?: Json): Json {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${Math.random().toString(36).slice(2)}`,
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      name: object['metadata']['name'],
      namespace: object['metadata']['namespace'],
      operation,
      userInfo: { username: 'alice@example.com' },
      object,
      oldObject: oldObject ?? null,
    },
  };
}

function seed(s: SimClient): Json {
  return structuredClone(s.sim.get('Deployment', 'vision', 'vision-object-tracker')) as Json;
}

function bump(d: Json): Json {
  const copy = structuredClone(d);
  copy['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
  return copy;
}

async function validate(body: Json): Promise<Json> {
  const res = await post(Buffer.from(JSON.stringify(body)));
  expect(res.status).toBe(200);
  return (JSON.parse(res.body) as Json)['response'] as Json;
}

/** Until the view has renewed `count` windows (the renewal's reads done, the new window taken over). */
async function renewals(count: number): Promise<void> {
  const counted = async () => (await server!.metrics.renewals.get()).values[0]?.value ?? 0; // eslint-disable-line @typescript-eslint/no-non-null-assertion -- started
  while ((await counted()) < count) await new Promise((r) => setImmediate(r));
}

const madeUp = (s: SimClient) =>
  s.sim.requests.filter((r) => (r.namespace ?? r.name ?? '').startsWith('made-up-'));

describe('serve-admission under a flood', () => {
  it('300 reviews in made-up namespaces: one lookup each, never renewed; the genuine review keeps its warning', async () => {
    let now = 0;
    const s = await start({ cacheSeconds: 10, now: () => now });
    s.sim.clearRequests();
    const old = seed(s);
    const flood = Array.from({ length: 300 }, (_, i) => {
      const d = bump(old);
      d['metadata'] = { name: 'tracker', namespace: `made-up-${i}` };
      return review('CREATE', d);
    });
    for (let i = 0; i < flood.length; i += 50) {
      const answers = await Promise.all(flood.slice(i, i + 50).map((r) => validate(r)));
      for (const a of answers) expect(a).toMatchObject({ allowed: true });
      for (const a of answers) expect(a['warnings']).toBeUndefined();
    }
    // At most the lookup of each namespace (GET namespace, 404): none of check's lists.
    const reads = madeUp(s);
    console.log(`made-up namespaces: ${reads.length} reads for 300 reviews`);
    expect(reads.length).toBeLessThanOrEqual(300);
    expect(reads.filter((r) => r.resource !== 'namespaces')).toEqual([]);
    const metrics = await probe('/metrics');
    expect(
      metric(metrics, 'rollout_doctor_admission_reviews_total{outcome="absent"}') +
        metric(metrics, 'rollout_doctor_admission_reviews_total{outcome="busy"}'),
    ).toBe(300);
    // After the flood, in the same window: the genuine review is warned.
    expect((await validate(review('UPDATE', bump(old), old)))['warnings']).toHaveLength(3);
    for (let w = 1; w <= 3; w += 1) {
      now = w * 10_000;
      s.sim.clearRequests();
      // The first review of a window that has ended: judged on the last reads while the next window reads.
      expect((await validate(review('UPDATE', bump(old), old)))['warnings']).toHaveLength(3);
      await renewals(w);
      // The renewal looked the genuine namespace up again and read it; none of the made-up ones.
      expect(s.sim.requests.some((r) => r.resource === 'namespaces' && r.name === 'vision')).toBe(true);
      expect(s.sim.requests.some((r) => r.resource === 'pods' && r.namespace === 'vision')).toBe(true);
      expect(metric(await probe('/metrics'), 'rollout_doctor_admission_renewed_namespaces')).toBe(1);
      expect(madeUp(s)).toEqual([]);
      expect((await validate(review('UPDATE', bump(old), old)))['warnings']).toHaveLength(3);
    }
  });

  it('many concurrent large bodies: 429 past the cap at once, the heap bounded, a genuine review answered', async () => {
    const s = await start();
    const old = seed(s);
    const big = bump(old);
    big['spec']['template']['spec']['containers'][0]['env'] = Array.from({ length: 30_000 }, (_, i) => ({
      name: `SETTING_${i}`,
      value: 'v'.repeat(40),
    }));
    const body = Buffer.from(JSON.stringify(review('UPDATE', big, old)));
    expect(body.length).toBeGreaterThan(2_000_000);
    const used = (): number => {
      const m = process.memoryUsage();
      return m.heapUsed + m.arrayBuffers;
    };
    const base = used();
    let peak = base;
    const sampler = setInterval(() => {
      peak = Math.max(peak, used());
    }, 5);
    const flood = Array.from({ length: 20 }, () => post(body));
    const genuine = validate(review('UPDATE', bump(old), old));
    const answers = await Promise.all(flood);
    const warned = await genuine;
    clearInterval(sampler);
    peak = Math.max(peak, used());
    const statuses = answers.map((a) => a.status);
    const busy = statuses.filter((c) => c === 429).length;
    console.log(
      `large bodies: ${statuses.filter((c) => c === 200).length} answered, ${busy} 429, peak +${Math.round((peak - base) / 2 ** 20)} MiB`,
    );
    expect(statuses.every((c) => c === 200 || c === 429)).toBe(true);
    expect(busy).toBeGreaterThanOrEqual(10);
    expect(statuses.filter((c) => c === 200).length).toBeGreaterThanOrEqual(1);
    expect(warned['warnings']).toHaveLength(3);
    expect(peak - base).toBeLessThan(64 * 2 ** 20); // 20 held at once: over 100 MiB
    expect(
      metric(await probe('/metrics'), 'rollout_doctor_admission_busy_total{reason="large-bodies"}'),
    ).toBe(busy);
  });
});
