/**
 * The admission webhook installs alone (issue 64.3): the chart with admission.enabled and
 * the app, the worker and Redis off (charts/rollout-doctor/ci/admission-only-values.yaml),
 * installed by the real helm 4 into the simulator, renders no app, worker or Redis; the
 * webhook process run as its Deployment says (its own command and arguments, the chart's
 * serving certificate, reached through the Service as the API server reaches it) warns the
 * real kubectl at the seed incident's image bump.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { CHART } from '../../scripts/chart-render.js';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { transpiledEntry } from '../../scripts/transpiled-tree.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { ciValues } from '../support/helm.js';
import { runTool, type ToolRun } from '../support/tool-run.js';
import { waitUntil } from '../support/wait.js';
import { freePort } from '../support/redis.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- manifests

const RELEASE = 'gate';
const NS = 'rollout-doctor';
const NAME = `${RELEASE}-rollout-doctor-admission`;

let sim: Simulator;
let dir: string;
let kubeconfig: string;
let webhook: ChildProcess | undefined;
// Ports the system just handed out: a random one may be an ephemeral port another
// test's connection holds, and the webhook then exits on EADDRINUSE.
let port: number;
let probePort: number;

const tool = (name: 'helm' | 'kubectl', args: readonly string[]): Promise<ToolRun> =>
  runTool(k8sTools()[name], args, { kubeconfig, home: dir });

function probe(path: string): Promise<number> {
  return new Promise((resolve) => {
    httpGet({ host: '127.0.0.1', port: probePort, path, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', () => resolve(0));
  });
}

beforeAll(async () => {
  port = await freePort();
  probePort = await freePort();
  dir = await mkdtemp(join(tmpdir(), 'rd-admission-only-'));
  sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
  await sim.settle();
});
afterAll(async () => {
  webhook?.kill('SIGKILL');
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the admission webhook installed alone', () => {
  it('installs with no app, worker or Redis, and its process warns kubectl', async () => {
    const install = await tool('helm', [
      'install',
      RELEASE,
      CHART,
      '--namespace',
      NS,
      '--create-namespace',
      '--values',
      ciValues('admission-only'),
      '--set',
      `admission.port=${port}`,
      '--set',
      `admission.probePort=${probePort}`,
    ]);
    expect([install.status, install.stderr]).toEqual([0, '']);
    expect(install.stdout).toContain('Admission webhook only: no app, no worker, no Redis');
    const deployments = (sim.list('Deployment', NS) as Json[]).map((d) => d['metadata']['name']);
    expect(deployments).toEqual([NAME]);
    expect(sim.list('StatefulSet', NS)).toEqual([]);
    expect(sim.list('ValidatingWebhookConfiguration')).toHaveLength(1);

    // The process as its Deployment runs it, with the chart's certificate.
    const deployment = sim.get('Deployment', NS, NAME) as Json;
    const container = deployment['spec']['template']['spec']['containers'][0] as Json;
    const secret = sim.get('Secret', NS, `${NAME}-tls`) as Json;
    for (const file of ['tls.crt', 'tls.key'])
      await writeFile(join(dir, file), Buffer.from(secret['data'][file] as string, 'base64'));
    const args = (container['command'] as string[])
      .slice(3)
      .map((a) => a.replace('/etc/rollout-doctor/tls/', `${dir}/`));
    expect(args).toContain(`--probe-port=${probePort}`);
    expect(JSON.stringify(container['env'] ?? [])).not.toMatch(/REDIS|SIGNING/);
    webhook = spawn(
      process.execPath,
      [transpiledEntry('src/cli/main.ts'), 'serve-admission', ...args, `--kubeconfig=${kubeconfig}`],
      { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LOG_LEVEL: 'warn' } },
    );
    const said: Buffer[] = [];
    webhook.stderr?.on('data', (chunk: Buffer) => said.push(chunk));
    await waitUntil(
      'the webhook Ready',
      async () => {
        // A webhook that exited is never Ready: fail now, with what it said.
        if (webhook?.exitCode !== null)
          throw new Error(`the webhook exited: ${Buffer.concat(said).toString()}`);
        return (await probe('/readyz')) === 200;
      },
      60_000,
    );

    const bump = structuredClone(sim.get('Deployment', 'vision', 'vision-object-tracker')) as Json;
    delete bump['status'];
    delete bump['metadata']['resourceVersion'];
    bump['spec']['template']['spec']['containers'][0]['image'] = 'vision/boost-track-app:1.1';
    const file = join(dir, 'bump.yaml');
    await writeFile(file, stringify(bump));
    const applied = await tool('kubectl', ['apply', '-f', file]);
    expect(applied.status).toBe(0);
    expect(applied.stderr).toContain(
      'Warning: rollout-doctor: rollout of deployment/vision-object-tracker can never finish',
    );
  });
});
