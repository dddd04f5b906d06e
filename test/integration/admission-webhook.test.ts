/**
 * The admission webhook over HTTPS against the simulator: the seed incident's image
 * bump is allowed with a warning naming the fix, a change that starts no rollout or one
 * that will finish gets none, a namespace labelled to refuse gets a refusal, and an
 * answer the cluster is too slow for is no warning (counted), within the budget.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { clientAuthority, startLocalAdmission } from '../support/serving-certificate.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
let server: Awaited<ReturnType<typeof startLocalAdmission>> | undefined;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'admission-'));
});
afterEach(async () => {
  await server?.close();
  await sim?.close();
  server = undefined;
  sim = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function start(budgetMs = 2000, beforeStart?: (s: SimClient) => void): Promise<SimClient> {
  sim = await startSimClient({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 }, 'admission');
  const s = sim.sim;
  await s.settle();
  await s.waitFor(
    () =>
      ((s.get('Deployment', 'vision', 'vision-object-tracker') as Json)['status']?.['availableReplicas'] ??
        0) === 1,
  );
  beforeStart?.(sim);
  server = await startLocalAdmission({ kubeconfig: sim.kubeconfig }, dir, {
    budgetMs,
    waitReady: beforeStart === undefined,
  });
  return sim;
}

function call(
  method: string,
  path: string,
  body?: unknown,
  who?: { cert: string; key: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const text = body === undefined ? '' : JSON.stringify(body);
    const req = request(
      {
        host: '127.0.0.1',
        port: server?.port,
        method,
        path,
        ca: server?.tls.ca,
        ...(who ? { cert: who.cert, key: who.key } : {}),
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(text);
  });
}

/** GET on the probe port (plain HTTP: health, readiness, metrics). */
function probe(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    httpGet({ host: '127.0.0.1', port: server?.probePort, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    }).on('error', reject);
  });
}

function review(operation: 'CREATE' | 'UPDATE', object: Json, oldObject?: Json): Json {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    request: {
      uid: `uid-${Math.random().toString(36).slice(2)}`,
      kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
      resource: { group: 'apps', version: 'v1', resource: 'deployments' },
      name: object['metadata']['name'],
      namespace: 'vision',
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
  const res = await call('POST', '/validate', body);
  expect(res.status).toBe(200);
  const answer = JSON.parse(res.body) as Json;
  expect(answer['apiVersion']).toBe('admission.k8s.io/v1');
  expect(answer['response']['uid']).toBe(body['request']['uid']);
  return answer['response'] as Json;
}

describe('serve-admission', () => {
  it('allows the seed image bump with a bounded warning that names the fix', async () => {
    const s = await start();
    const old = seed(s);
    const response = await validate(review('UPDATE', bump(old), old));
    expect(response['allowed']).toBe(true);
    const warnings = response['warnings'] as string[];
    expect(warnings[0]).toBe(
      'rollout-doctor: rollout of deployment/vision-object-tracker can never finish; maxSurge 0, maxUnavailable 1 would let it',
    );
    expect(warnings[1]).toContain('1 nvidia.com/gpu, held by its old pods');
    for (const w of warnings) expect(w.length).toBeLessThanOrEqual(120);
    expect(await probe('/metrics').then((r) => r.body)).toMatch(
      /rollout_doctor_admission_reviews_total\{outcome="warned"\} 1/,
    );
  });

  it('says nothing for a change that starts no rollout, one that will finish, or a kind it does not judge', async () => {
    const s = await start();
    const old = seed(s);
    const scaled = structuredClone(old);
    scaled['metadata']['labels'] = { ...scaled['metadata']['labels'], team: 'vision' };
    expect((await validate(review('UPDATE', scaled, old)))['warnings']).toBeUndefined();
    const fixed = bump(old);
    fixed['spec']['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    const finishing = await validate(review('UPDATE', fixed, old));
    expect(finishing['allowed']).toBe(true);
    expect(finishing['warnings']).toBeUndefined();
    const small = structuredClone(old);
    small['metadata'] = { name: 'small', namespace: 'vision' };
    small['spec']['template']['spec'] = {
      containers: [{ name: 'a', image: 'a:1', resources: { requests: { cpu: '10m' } } }],
    };
    expect((await validate(review('CREATE', small)))['warnings']).toBeUndefined();
    const configMap = review('CREATE', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } });
    expect((await validate(configMap))['allowed']).toBe(true);
  });

  it('refuses in a namespace labelled rollout-doctor.io/admission=refuse', async () => {
    const s = await start();
    const ns = structuredClone(
      s.sim.get('Namespace', undefined, 'vision') ?? {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name: 'vision' },
      },
    ) as Json;
    ns['metadata']['labels'] = { ...ns['metadata']['labels'], 'rollout-doctor.io/admission': 'refuse' };
    s.sim.apply(ns);
    const old = seed(s);
    const response = await validate(review('UPDATE', bump(old), old));
    expect(response['allowed']).toBe(false);
    expect(response['status']['code']).toBe(403);
    expect(response['status']['message']).toContain('can never finish');
  });

  it('answers with no warning when the cluster is slower than the budget, and counts it', async () => {
    const s = await start(300);
    // A namespace the first read did not hold (no workload runs there yet): read on its first review.
    s.sim.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'newcomers' } });
    s.sim.addFault({ match: { resource: 'pods' }, delayMs: 1500 });
    const fresh = bump(seed(s));
    fresh['metadata'] = { name: 'tracker', namespace: 'newcomers' };
    const asked = review('CREATE', fresh);
    asked['request']['namespace'] = 'newcomers';
    const started = performance.now();
    const response = await validate(asked);
    expect(performance.now() - started).toBeLessThan(1400);
    expect(response['allowed']).toBe(true);
    expect(response['warnings']).toBeUndefined();
    expect(await probe('/metrics').then((r) => r.body)).toMatch(
      /rollout_doctor_admission_reviews_total\{outcome="budget"\} 1/,
    );
  });

  it('before its first read is done, answers at once with no warning (counted) and is not Ready', async () => {
    const s = await start(2000, (sc) => sc.sim.addFault({ match: { resource: 'nodes' }, delayMs: 3000 }));
    const old = seed(s);
    const started = performance.now();
    const response = await validate(review('UPDATE', bump(old), old));
    expect(performance.now() - started).toBeLessThan(1000);
    expect(response['allowed']).toBe(true);
    expect(response['warnings']).toBeUndefined();
    expect((await probe('/readyz')).status).toBe(503);
    expect(await probe('/metrics').then((r) => r.body)).toMatch(
      /rollout_doctor_admission_reviews_total\{outcome="cold"\} 1/,
    );
    await server?.ready;
    expect((await probe('/readyz')).status).toBe(200);
    expect((await validate(review('UPDATE', bump(old), old)))['warnings']).toHaveLength(3);
  });

  it('reads the namespaces where workloads run before it is Ready: their first review reads nothing', async () => {
    const s = await start();
    s.sim.clearRequests();
    const old = seed(s);
    expect((await validate(review('UPDATE', bump(old), old)))['warnings']).toHaveLength(3);
    expect(s.sim.requests.filter((r) => r.namespace === 'vision' || r.resource === 'nodes')).toEqual([]);
  });

  it('refuses what is not an AdmissionReview; health and metrics only on the probe port', async () => {
    await start();
    expect((await call('POST', '/validate', { kind: 'Nope' })).status).toBe(400);
    expect((await call('GET', '/validate')).status).toBe(405);
    expect(await probe('/healthz')).toEqual({ status: 200, body: 'ok\n' });
    // issue 67.7: the webhook's port serves no metrics to whoever reaches it.
    expect((await call('GET', '/metrics')).status).toBe(404);
    expect((await call('GET', '/healthz')).status).toBe(404);
    expect((await probe('/validate')).status).toBe(404);
  });

  it('with allowed names, a certificate its CA signed for another name is refused (403), the named one answered', async () => {
    const s = await start();
    await server?.close();
    const clients = clientAuthority(dir, 'kube-apiserver');
    server = await startLocalAdmission({ kubeconfig: s.kubeconfig }, dir, {
      clientCa: clients.caFile,
      clientNames: ['apiserver-webhook'],
    });
    const as = (who: { cert: string; key: string }) => call('POST', '/validate', { kind: 'Nope' }, who);
    expect((await as({ cert: clients.cert, key: clients.key })).status).toBe(403);
    await server.close();
    server = await startLocalAdmission({ kubeconfig: s.kubeconfig }, dir, {
      clientCa: clients.caFile,
      clientNames: ['kube-apiserver'],
    });
    expect((await as({ cert: clients.cert, key: clients.key })).status).toBe(400);
  });

  // issue 64.2: with --budget-ms 50 a review whose reads do not finish in time is budget
  // (or, where a read failed fast, not known, counted by why), never clear.
  it('reads slower than a 50 ms budget (and a client that gives up at 50 ms): budget or not known, never clear', async () => {
    const s = await start();
    await server?.close();
    const kube = {
      kubeconfig: s.kubeconfig,
      requestTimeoutMs: 50,
      retry: { attempts: 1, baseMs: 50, maxMs: 50 },
    };
    server = await startLocalAdmission(kube, dir, { budgetMs: 50 });
    const old = seed(s);
    for (const delayMs of [0, 80, 200]) {
      s.sim.clearFaults();
      if (delayMs > 0) s.sim.addFault({ match: {}, delayMs });
      for (let i = 0; i < 2; i += 1) {
        const next = bump(old);
        next['spec']['template']['spec']['containers'][0]['image'] = `vision/boost-track-app:${delayMs}.${i}`;
        await validate(review('UPDATE', next, old));
        const fresh = structuredClone(next);
        fresh['metadata'] = { name: `fresh-${delayMs}-${i}`, namespace: 'vision' };
        await validate(review('CREATE', fresh));
      }
    }
    const metrics = await probe('/metrics').then((r) => r.body);
    expect(metrics).not.toMatch(/rollout_doctor_admission_reviews_total\{outcome="clear"\}/);
    expect(metrics).toMatch(/rollout_doctor_admission_reviews_total\{outcome="budget"\} [1-9]/);
    for (const line of metrics
      .split('\n')
      .filter((l) => l.startsWith('rollout_doctor_admission_unknown_total{')))
      expect(line).toMatch(/reason="(unread|live-object|other)"/);
  });

  // issue 64.2: a workload already mid-rollout (here stuck) is judged with the cluster as it is.
  it('judges a change to a workload already stuck mid-rollout: another bump is warned, the fix clears', async () => {
    const s = await start();
    const stuck = bump(seed(s));
    stuck['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:stuck';
    s.sim.apply(stuck);
    await s.sim.waitFor(() =>
      s.sim.list('Event', 'vision').some((e) => (e as Json)['reason'] === 'FailedScheduling'),
    );
    const old = seed(s);
    const again = structuredClone(old);
    again['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:again';
    expect((await validate(review('UPDATE', again, old)))['warnings']?.[0]).toContain('can never finish');
    const fixed = structuredClone(again);
    fixed['spec']['strategy'] = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };
    expect((await validate(review('UPDATE', fixed, old)))['warnings']).toBeUndefined();
  });
});
