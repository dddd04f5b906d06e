/**
 * The admission webhook end to end, as a cluster runs it: `rollout-doctor serve-admission`
 * as its own process over TLS, taking only callers whose client certificate its
 * --client-ca signed (the simulated API server presents one, as an AdmissionConfiguration's
 * kubeConfigFile makes kube-apiserver do), its probes on a port of their own, registered in
 * the simulator by a ValidatingWebhookConfiguration (failurePolicy Ignore, the caBundle of
 * its serving certificate), and the real kubectl 1.35 and helm 4 applying. The seed incident's image bump prints the warning and is applied;
 * a safe apply prints none; helm shows the warning on install; with the webhook process
 * gone, the apply succeeds with no warning.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import {
  clientAuthority,
  servingCertificate,
  type ClientAuthority,
  type ServingCertificate,
} from '../support/serving-certificate.js';
import { deploymentWebhook, webhookConfiguration } from '../support/stub-webhook.js';
import { runTool, type ToolRun } from '../support/tool-run.js';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';
import { freePort } from '../support/redis.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests

const WARNING =
  'Warning: rollout-doctor: rollout of deployment/vision-object-tracker can never finish; maxSurge 0, maxUnavailable 1 would let it';

let dir: string;
let sim: Simulator;
let kubeconfig: string;
let tls: ServingCertificate;
let clients: ClientAuthority;
let webhook: ChildProcess | undefined;
let port: number;
let probePort: number;

const tool = (binary: string, args: readonly string[]): Promise<ToolRun> =>
  runTool(binary, args, { kubeconfig, home: dir });
const kubectl = (...args: string[]): Promise<ToolRun> => tool(k8sTools().kubectl, args);

async function apply(manifest: Json): Promise<ToolRun> {
  const file = join(dir, `m-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, stringify(manifest));
  return kubectl('apply', '-f', file);
}

/** GET on the probe port (plain HTTP). */
function get(path: string): Promise<number> {
  return new Promise((resolve) => {
    const req = httpGet({ host: '127.0.0.1', port: probePort, path, timeout: 2000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });
}

/** POST a review to the webhook's port as `who` (a client certificate, or none): the status, or the error's words. */
function postAs(who: { cert: string; key: string } | undefined): Promise<string> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/validate',
        method: 'POST',
        ca: tls.ca,
        timeout: 2000,
        ...(who ? { cert: who.cert, key: who.key } : {}),
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        resolve(String(res.statusCode));
      },
    );
    req.on('error', (error) => resolve(`error: ${error.message}`));
    req.end(JSON.stringify({ kind: 'Nope' }));
  });
}

async function seedManifest(): Promise<Json> {
  const docs = parseAllDocuments(await readFile('sim/scenarios/gpu-deadlock.yaml', 'utf8')).map(
    (d) => d.toJS() as Json,
  );
  const found = docs.find((d) => d?.['kind'] === 'Deployment');
  if (!found) throw new Error('no Deployment in the seed');
  return found;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-admission-e2e-'));
  await mkdir(join(dir, 'chart/templates'), { recursive: true });
  tls = servingCertificate(dir);
  clients = clientAuthority(dir);
  sim = await startSimulator({
    scenario: 'sim/scenarios/gpu-deadlock.yaml',
    timeScale: 50,
    webhookClient: { cert: clients.cert, key: clients.key },
  });
  kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  await sim.settle();
  await sim.waitFor(
    () =>
      ((sim.get('Deployment', 'vision', 'vision-object-tracker') as Json)['status']?.['availableReplicas'] ??
        0) === 1,
  );
  // Ports the system just handed out: a random one may be an ephemeral port another test holds.
  port = await freePort();
  probePort = await freePort();
  webhook = spawn(
    process.execPath,
    [
      transpiledEntry('src/cli/main.ts'),
      'serve-admission',
      `--port=${port}`,
      `--tls-cert=${tls.cert}`,
      `--tls-key=${tls.key}`,
      `--client-ca=${clients.caFile}`,
      '--client-name=kube-apiserver',
      `--probe-port=${probePort}`,
      `--kubeconfig=${kubeconfig}`,
      '--cache-seconds=1',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } },
  );
  for (let i = 0; i < 240 && (await get('/readyz')) !== 200; i += 1)
    await new Promise((r) => setTimeout(r, 250));
  expect(await get('/readyz')).toBe(200);
  const configuration = webhookConfiguration(
    'rollout-doctor-admission',
    deploymentWebhook(
      { url: `https://127.0.0.1:${port}/validate`, caBundle: Buffer.from(tls.ca).toString('base64') },
      { failurePolicy: 'Ignore', timeoutSeconds: 5 },
    ),
  );
  const created = await apply(configuration);
  expect([created.status, created.stderr]).toEqual([0, '']);
});

afterAll(async () => {
  webhook?.kill('SIGKILL');
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kubectl and helm against serve-admission in the simulator', () => {
  it('answers only the API server: no certificate, or one another CA signed, is refused in the handshake', async () => {
    expect(await postAs(undefined)).toMatch(/^error: /);
    expect(await postAs({ cert: clients.strangerCert, key: clients.strangerKey })).toMatch(/^error: /);
    // The API server's own certificate reaches it (a body that is no review: 400, but answered).
    expect(await postAs({ cert: clients.cert, key: clients.key })).toBe('400');
  });

  it('a server-side dry run of the bump prints the warning, and no undo (nothing was stored)', async () => {
    const manifest = await seedManifest();
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    const file = join(dir, 'dry.yaml');
    await writeFile(file, stringify(manifest));
    const run = await kubectl('apply', '--dry-run=server', '-f', file);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`${WARNING}\n`);
    expect(run.stderr).not.toContain('to take it back');
  });

  it('a safe apply prints no warning', async () => {
    const manifest = await seedManifest();
    manifest['metadata']['labels'] = { ...manifest['metadata']['labels'], team: 'vision' };
    const run = await apply(manifest);
    expect(run.status).toBe(0);
    // kubectl's own note about the seed object, created without kubectl apply, is all it says.
    expect(run.stderr).not.toContain('rollout-doctor');
    expect(run.stdout).toContain('deployment.apps/vision-object-tracker configured');
  });

  it("the seed incident's image bump prints the warning and is applied", async () => {
    const manifest = await seedManifest();
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    const run = await apply(manifest);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(`${WARNING}\n`);
    expect(run.stderr).toContain(
      'Warning: rollout-doctor: its new pod needs 1 nvidia.com/gpu, held by its old pods',
    );
    // Stored, its rollout started: how to take it back (issue 64.2).
    expect(run.stderr).toContain(
      'Warning: rollout-doctor: applied; to take it back: kubectl rollout undo deployment/vision-object-tracker -n vision',
    );
    expect(run.stdout).toContain('deployment.apps/vision-object-tracker configured');
    const stored = sim.get('Deployment', 'vision', 'vision-object-tracker') as Json;
    expect(stored['spec']['template']['spec']['containers'][0]['image']).toBe('vision/boost-track-app:1.1');
  });

  it('helm shows the warning when a release installs a Deployment that can never roll out', async () => {
    await writeFile(join(dir, 'chart/Chart.yaml'), 'apiVersion: v2\nname: gpu-job\nversion: 0.1.0\n');
    const gpu = await seedManifest();
    gpu['metadata'] = { name: 'gpu-second', namespace: 'vision' };
    gpu['spec']['selector'] = { matchLabels: { app: 'gpu-second' } };
    gpu['spec']['template']['metadata'] = { labels: { app: 'gpu-second' } };
    await writeFile(join(dir, 'chart/templates/deployment.yaml'), stringify(gpu));
    const run = await tool(k8sTools().helm, ['install', 'gpu-job', join(dir, 'chart'), '-n', 'vision']);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/Warning: rollout-doctor: rollout of deployment\/gpu-second can never finish/);
  });

  it('with the webhook process gone, the apply succeeds with no warning', async () => {
    webhook?.kill('SIGTERM');
    await new Promise<void>((resolve) => webhook?.once('exit', () => resolve()));
    webhook = undefined;
    const manifest = await seedManifest();
    manifest['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.2';
    const run = await apply(manifest);
    expect(run.status).toBe(0);
    expect(run.stderr).not.toContain('rollout-doctor');
    expect(run.stdout).toContain('deployment.apps/vision-object-tracker configured');
  });
});
