/**
 * The webhook judges in a thread of its own (issue 64.3, judge-thread-host.ts): while a
 * heavy judgment runs there, the loop that answers still answers a cheap review at once;
 * a judging thread that dies answers the review it held with no warning (outcome error),
 * never a hang, and the next review is judged by the thread started in its place.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateCluster } from '../../bench/collector.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { startLocalAdmission } from '../support/serving-certificate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: Simulator | undefined;
let server: Awaited<ReturnType<typeof startLocalAdmission>> | undefined;
let agent: Agent | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'admission-thread-'));
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

/**
 * The webhook over `scenario` (a generated static cluster; or a seed file, its controllers
 * run until the tracker serves), Ready, with a long window (nothing is read again meanwhile).
 */
async function start(scenario: object[] | string, budgetMs: number): Promise<Simulator> {
  const seed = typeof scenario === 'string';
  const s = await startSimulator(seed ? { scenario, timeScale: 50 } : { scenario, controllers: false });
  sim = s;
  if (seed) {
    await s.settle();
    await s.waitFor(
      () =>
        ((s.get('Deployment', 'vision', 'vision-object-tracker') as Json)['status']?.['availableReplicas'] ??
          0) === 1,
    );
  }
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, s.kubeconfig);
  server = await startLocalAdmission({ kubeconfig }, dir, { budgetMs, cacheSeconds: 300 });
  agent = new Agent({ keepAlive: true, maxSockets: 2, ca: server.tls.ca });
  return s;
}

/** POSTs a review; `sent` is told once the body is written. */
function validate(body: Json, sent?: () => void): Promise<Json> {
  return new Promise((resolve, reject) => {
    const text = JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: server?.port,
        method: 'POST',
        path: '/validate',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve((JSON.parse(Buffer.concat(chunks).toString()) as Json)['response']));
      },
    );
    req.on('error', reject);
    req.on('finish', () => sent?.());
    req.end(text);
  });
}

function review(operation: 'CREATE' | 'UPDATE' | 'DELETE', object: Json, oldObject?: Json): Json {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${Math.random().toString(36).slice(2)}`,
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      namespace: object['metadata']['namespace'],
      operation,
      object: operation === 'DELETE' ? null : object,
      oldObject: oldObject ?? null,
    },
  };
}

/** The seed tracker with its image set to `tag`: a bump that can never finish. */
function tracker(s: Simulator, tag?: string): Json {
  const copy = structuredClone(s.get('Deployment', 'vision', 'vision-object-tracker')) as Json;
  if (tag) copy['spec']['template']['spec']['containers'][0]['image'] = `vision/boost-track-app:${tag}`;
  return copy;
}

async function outcomes(): Promise<string> {
  return (
    (await server?.metrics.registry.getSingleMetricAsString('rollout_doctor_admission_reviews_total')) ?? ''
  );
}

describe('serve-admission judges off the answering loop', () => {
  it('answers a cheap review while a heavy judgment runs, and its loop never stalls for the judgment', async () => {
    const budgetMs = 30_000;
    // No filler pods: the tracker's namespace is among those read before Ready, so the
    // bump's first judgment (every node, once per window) is nearly all computation.
    const s = await start(generateCluster({ nodes: 4000, pods: 0 }), budgetMs);
    const old = tracker(s);
    const cheap = review('DELETE', old, old);
    await Promise.all([validate(cheap), validate(cheap)]); // both connections open
    // The answering loop's longest stall while the heavy review is in flight.
    let stall = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      stall = Math.max(stall, now - last);
      last = now;
    }, 1);
    let heavySent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => {
      heavySent = resolve;
    });
    const began = performance.now();
    const heavy = validate(review('UPDATE', tracker(s, 'b'), old), heavySent).then((answer) => {
      clearInterval(ticker);
      return { answer, ms: performance.now() - began };
    });
    await sent;
    const asked = performance.now();
    expect(await validate(cheap)).toMatchObject({ allowed: true });
    const cheapMs = performance.now() - asked;
    const judged = await heavy;
    expect(judged.answer['warnings']).toHaveLength(3);
    console.log(
      `heavy review ${Math.round(judged.ms)} ms; meanwhile a cheap one answered in ${Math.round(cheapMs)} ms, the loop's longest stall ${Math.round(stall)} ms`,
    );
    expect(cheapMs).toBeLessThan(budgetMs);
    // Judged on the answering loop, the judgment stalls it for most of its time.
    expect(stall).toBeLessThan(judged.ms / 2);
  });

  it('a thread that dies: the review it held gets no warning (error), the next is judged', async () => {
    const s = await start('sim/scenarios/gpu-deadlock.yaml', 20_000);
    s.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'late' } });
    // The lookup of a namespace the view has not read hangs: the review waits in the thread.
    s.addFault({ match: { resource: 'namespaces', name: 'late' }, delayMs: 15_000, times: 1 });
    const fresh = tracker(s, 'late');
    fresh['metadata'] = { name: 'tracker', namespace: 'late' };
    const held = validate(review('CREATE', fresh));
    while (!s.requests.some((r) => r.resource === 'namespaces' && r.name === 'late'))
      await new Promise((r) => setImmediate(r));
    const thread = server?.judging.current();
    expect(thread).toBeDefined();
    await thread?.terminate();
    const answer = await held;
    expect(answer).toMatchObject({ allowed: true });
    expect(answer['warnings']).toBeUndefined();
    expect(await outcomes()).toMatch(/outcome="error"\} 1/);
    const next = await validate(review('UPDATE', tracker(s, 'next'), tracker(s)));
    expect(next['warnings']).toHaveLength(3);
    expect(server?.judging.current()).not.toBe(thread);
    expect(await outcomes()).toMatch(/outcome="warned"\} 1/);
  });
});
