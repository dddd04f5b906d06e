/**
 * Issue 56's apply-time warning, end to end on seed incident A (sim/scenarios/
 * gpu-deadlock.yaml): helm 4 installs charts/rollout-doctor with admission.enabled (its
 * ValidatingWebhookConfiguration, Service and serving certificate), the real
 * `rollout-doctor serve-admission` runs as its own process with that certificate where the
 * Service's targetPort leads, and the simulator calls it as the API server would. With
 * kubectl 1.35: a safe apply (the manifest unchanged, the bump with the strategy that lets
 * it finish) prints none; the seed's image bump on its own strategy prints rollout-doctor's
 * warning and is applied; with the webhook process gone, the apply succeeds
 * (failurePolicy Ignore).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { CHART } from '../../scripts/chart-render.js';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { ciValues } from '../support/helm.js';
import { freePort } from '../support/redis.js';
import { runTool, type ToolRun } from '../support/tool-run.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests

const NS = 'rollout-doctor';
const SEED = 'vision-object-tracker';
const WARNED = new RegExp(`^Warning: rollout-doctor: rollout of deployment/${SEED} can never finish`);
let sim: Simulator;
let dir: string;
let kubeconfig: string;
let port: number;
let webhook: ChildProcess | undefined;

const tool = (binary: string, ...args: string[]): Promise<ToolRun> =>
  runTool(binary, args, { kubeconfig, home: dir });

/** The seed Deployment as its manifest was written, with `change` made to it. */
function seedManifest(change: (d: Json) => void = () => undefined): string {
  const docs = parseAllDocuments(readFileSync('sim/scenarios/gpu-deadlock.yaml', 'utf8')).map(
    (d) => d.toJS() as Json,
  );
  const manifest = structuredClone(docs.find((d) => d?.['kind'] === 'Deployment'));
  if (!manifest) throw new Error('no Deployment in the seed scenario');
  change(manifest);
  return stringify(manifest);
}
const bump = (image: string) => (d: Json) => {
  d['spec']['template']['spec']['containers'][0]['image'] = image;
};

async function apply(manifest: string, ...extra: string[]): Promise<ToolRun> {
  const file = join(dir, `seed-${Math.random().toString(36).slice(2)}.yaml`);
  await writeFile(file, manifest);
  return tool(k8sTools().kubectl, 'apply', '-f', file, ...extra);
}

const liveImage = (): string =>
  (sim.get('Deployment', 'vision', SEED) as Json)['spec']['template']['spec']['containers'][0][
    'image'
  ] as string;

/** GET /readyz on the webhook's probe port: its status, 0 when nothing answers. */
function readyz(probePort: number): Promise<number> {
  return fetch(`http://127.0.0.1:${probePort}/readyz`).then(
    (r) => r.status,
    () => 0,
  );
}

/**
 * `rollout-doctor serve-admission` as its own process, resolved once it is Ready (its
 * judging thread has read the cluster; a review before that gets no warning): the API
 * server sends reviews to a pod once its readiness probe passes.
 */
async function startWebhook(cert: string, key: string): Promise<ChildProcess> {
  const probePort = await freePort();
  const child = spawn(
    process.execPath,
    [
      'bin/rollout-doctor.js',
      'serve-admission',
      `--port=${port}`,
      `--tls-cert=${cert}`,
      `--tls-key=${key}`,
      `--kubeconfig=${kubeconfig}`,
      '--cache-seconds=1',
      `--probe-port=${probePort}`,
    ],
    {
      env: { PATH: process.env['PATH'] ?? '', HOME: dir, LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve-admission did not start: ${output}`)), 60_000);
    const seen = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('admission webhook listening')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', seen);
    child.stderr?.on('data', seen);
    child.once('exit', (code) => reject(new Error(`serve-admission exited ${String(code)}: ${output}`)));
  });
  while ((await readyz(probePort)) !== 200) await new Promise((r) => setTimeout(r, 50));
  return child;
}

async function stopWebhook(): Promise<void> {
  const child = webhook;
  webhook = undefined;
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-seed-admission-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  await sim.settle();
  await sim.waitFor(
    () => ((sim.get('Deployment', 'vision', SEED) as Json)['status']?.['availableReplicas'] ?? 0) === 1,
    SIGNAL_WAIT_MS,
  );
  // The seed was applied with kubectl before anyone installed the webhook (this apply
  // only adds kubectl's last-applied annotation).
  expect((await apply(seedManifest())).status).toBe(0);
  port = await freePort();
  const install = await tool(
    k8sTools().helm,
    'install',
    NS,
    CHART,
    '--namespace',
    NS,
    '--create-namespace',
    '--values',
    ciValues('default-http'),
    '--set',
    'admission.enabled=true',
    '--set',
    `admission.port=${port}`,
  );
  expect(install.status, install.stderr).toBe(0);
  const secret = sim.get('Secret', NS, `${NS}-admission-tls`) as { data: Record<string, string> };
  const cert = join(dir, 'tls.crt');
  const key = join(dir, 'tls.key');
  await writeFile(cert, Buffer.from(secret.data['tls.crt'] ?? '', 'base64'));
  await writeFile(key, Buffer.from(secret.data['tls.key'] ?? '', 'base64'), { mode: 0o600 });
  webhook = await startWebhook(cert, key);
});
afterAll(async () => {
  await stopWebhook();
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const FIXED = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 1 } };

/** The live Deployment has rolled out `image`: its one replica updated and available. */
function rolledOut(image: string): boolean {
  const d = sim.get('Deployment', 'vision', SEED) as Json;
  const status = d['status'] ?? {};
  return (
    liveImage() === image &&
    status['observedGeneration'] === d['metadata']['generation'] &&
    status['updatedReplicas'] === 1 &&
    status['availableReplicas'] === 1 &&
    (status['replicas'] ?? 0) === 1
  );
}

describe('seed incident A applied through the chart’s admission webhook', () => {
  it('a safe apply prints nothing: the manifest unchanged, then the bump with the strategy that lets it finish', async () => {
    const unchanged = await apply(seedManifest());
    expect([unchanged.status, unchanged.stderr]).toEqual([0, '']);
    const fixed = await apply(
      seedManifest((d) => {
        bump('vision/boost-track-app:1.1')(d);
        d['spec']['strategy'] = FIXED;
      }),
    );
    expect([fixed.status, fixed.stderr]).toEqual([0, '']);
    await sim.waitFor(() => rolledOut('vision/boost-track-app:1.1'), SIGNAL_WAIT_MS);
  });

  it('the image bump on the seed’s own strategy prints rollout-doctor’s warning and is not refused', async () => {
    const bumped = await apply(seedManifest(bump('vision/boost-track-app:1.2')));
    expect(bumped.status).toBe(0);
    const lines = bumped.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(WARNED);
    expect(lines.every((l) => l.startsWith('Warning: rollout-doctor: '))).toBe(true);
    expect(bumped.stdout).toContain(`deployment.apps/${SEED} configured`);
    expect(liveImage()).toBe('vision/boost-track-app:1.2');
  });

  it('where the namespace asks for refusals, the bump is refused with the webhook’s message', async () => {
    const label = await tool(
      k8sTools().kubectl,
      'label',
      'namespace',
      'vision',
      'rollout-doctor.io/admission=refuse',
    );
    expect(label.status).toBe(0);
    // The webhook reads the namespace through its cache (--cache-seconds=1 here): server-side
    // dry runs, which the webhook judges too (sideEffects None), show when it has the label.
    const deadline = Date.now() + 30_000;
    while ((await apply(seedManifest(bump('vision/boost-track-app:1.9')), '--dry-run=server')).status === 0)
      if (Date.now() > deadline) throw new Error('the webhook never saw the namespace label');
    const refused = await apply(seedManifest(bump('vision/boost-track-app:1.9')));
    expect(refused.status).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(
        `^Error from server \\(Forbidden\\): error when applying patch:[\\s\\S]*admission webhook "rollouts\\.admission\\.rollout-doctor\\.io" denied the request: rollout-doctor: rollout of deployment/${SEED} can never finish`,
      ),
    );
    expect(liveImage()).toBe('vision/boost-track-app:1.2');
    await tool(k8sTools().kubectl, 'label', 'namespace', 'vision', 'rollout-doctor.io/admission-');
  });

  it('with the webhook process gone, the apply succeeds', async () => {
    await stopWebhook();
    const gone = await apply(seedManifest(bump('vision/boost-track-app:1.3')));
    expect([gone.status, gone.stderr]).toEqual([0, '']);
    expect(liveImage()).toBe('vision/boost-track-app:1.3');
  });
});
