/**
 * The simulator takes an install, driven with the real kubectl 1.35 and helm 4
 * (scripts/k8s-tools.ts): `kubectl create namespace|secret|deployment` (protobuf bodies),
 * `kubectl apply` with validation on (OpenAPI v3, fieldValidation=Strict), and `helm
 * install|upgrade|uninstall` of charts/rollout-doctor (server-side apply), whose
 * ValidatingAdmissionPolicies the simulator then enforces on the worker's service account.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHART } from '../../scripts/chart-render.js';
import { k8sTools } from '../../scripts/k8s-tools.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { ciValues } from '../support/helm.js';
import { runTool, type ToolRun } from '../support/tool-run.js';
import { excludeLabelValues } from '../../src/remediation/affinity-merge.js';
import { AFFINITY_PATH } from '../../src/remediation/builders/exclude-node.js';

const RELEASE = 'rollout-doctor';
const NS = 'rollout-doctor';
const WORKER = `system:serviceaccount:${NS}:${RELEASE}-worker`;
const WORKER_TOKEN = 'worker-token-sim-install';

type Run = ToolRun;

let sim: Simulator;
let dir: string;
let kubeconfig: string;

/** Runs the real tool asynchronously: the simulator answers from this same process. */
function run(
  tool: 'kubectl' | 'helm',
  args: readonly string[],
  config = kubeconfig,
  input?: string,
): Promise<Run> {
  return runTool(k8sTools()[tool], args, {
    kubeconfig: config,
    home: dir,
    ...(input !== undefined ? { input } : {}),
  });
}
const kubectl = (...args: string[]): Promise<Run> => run('kubectl', args);
const ok = async (pending: Promise<Run>): Promise<string> => {
  const r = await pending;
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  return r.stdout;
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rd-sim-install-'));
  sim = await startSimulator({
    scenario: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default' } },
      {
        apiVersion: 'v1',
        kind: 'Node',
        metadata: { name: 'node-a', labels: { 'kubernetes.io/hostname': 'node-a' } },
        status: {
          allocatable: { cpu: '8', memory: '32Gi', pods: '110' },
          capacity: { cpu: '8', memory: '32Gi', pods: '110' },
        },
      },
    ],
    timeScale: 20,
  });
  kubeconfig = join(dir, 'kubeconfig');
  await sim.writeKubeconfig(kubeconfig);
});
afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('kubectl 1.35 against the simulator', () => {
  it('creates a namespace, a secret and a deployment from the protobuf bodies kubectl sends', async () => {
    await ok(kubectl('create', 'namespace', 'shop'));
    await ok(kubectl('create', 'secret', 'generic', 'db', '-n', 'shop', '--from-literal=password=s3cret'));
    await ok(
      kubectl(
        'create',
        'deployment',
        'web',
        '-n',
        'shop',
        '--image=nginx:1.27',
        '--replicas=3',
        '--port=8080',
      ),
    );
    const creates = sim.requests.filter((r) => r.verb === 'create' && r.namespace !== 'kube-system');
    expect(creates.map((r) => [r.resource, r.status])).toEqual([
      ['namespaces', 201],
      ['secrets', 201],
      ['deployments', 201],
    ]);
    const secret = sim.get('Secret', 'shop', 'db') as { data: Record<string, string> };
    expect(Buffer.from(secret.data['password'] ?? '', 'base64').toString()).toBe('s3cret');
    const web = sim.get('Deployment', 'shop', 'web') as {
      spec: { replicas: number; selector: unknown; template: { spec: { containers: unknown[] } } };
    };
    expect(web.spec.replicas).toBe(3);
    expect(web.spec.selector).toEqual({ matchLabels: { app: 'web' } });
    expect(web.spec.template.spec.containers).toMatchObject([
      { name: 'nginx', image: 'nginx:1.27', ports: [{ containerPort: 8080, protocol: 'TCP' }] },
    ]);
  });

  it('applies with validation on: the server is asked to validate strictly, and a second apply patches', async () => {
    const file = join(dir, 'cm.yaml');
    const manifest = (value: string): string =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  mode: ${value}\n`;
    await writeFile(file, manifest('a'));
    expect(await ok(kubectl('apply', '-f', file))).toContain('configmap/settings created');
    await writeFile(file, manifest('b'));
    expect(await ok(kubectl('apply', '-f', file))).toContain('configmap/settings configured');
    expect((sim.get('ConfigMap', 'shop', 'settings') as { data: unknown }).data).toEqual({ mode: 'b' });
    const writes = sim.requests.filter(
      (r) => r.resource === 'configmaps' && ['create', 'patch'].includes(r.verb),
    );
    expect(writes.map((r) => new URLSearchParams(r.query).get('fieldValidation'))).toEqual([
      'Strict',
      'Strict',
    ]);
  });
});

describe('helm 4 installs, upgrades and uninstalls the chart', () => {
  const values = ['--values', ciValues('default-http')];

  it('installs every object of the chart, admission policies included', async () => {
    await ok(run('helm', ['install', RELEASE, CHART, '--namespace', NS, '--create-namespace', ...values]));
    const rendered = await ok(run('helm', ['get', 'manifest', RELEASE, '--namespace', NS]));
    const kinds = [...rendered.matchAll(/^kind: (\w+)$/gm)].map((m) => m[1] ?? '');
    expect(kinds).toContain('ValidatingAdmissionPolicy');
    const objects = [...rendered.matchAll(/^kind: (\w+)\nmetadata:\n {2}name: (\S+)$/gm)];
    expect(objects.length).toBeGreaterThan(20);
    for (const [, kind = '', name = ''] of objects) {
      const stored =
        sim.get(kind, undefined, name) ??
        sim.list(kind, NS).find((o) => (o as { metadata: { name: string } }).metadata.name === name);
      expect(stored, `${kind}/${name}`).toBeDefined();
    }
    expect(sim.list('ValidatingAdmissionPolicyBinding')).toHaveLength(
      sim.list('ValidatingAdmissionPolicy').length,
    );
  });

  it('upgrades: a changed value reaches the object; a second revision is recorded', async () => {
    await ok(
      run('helm', ['upgrade', RELEASE, CHART, '--namespace', NS, ...values, '--set', 'worker.replicas=1']),
    );
    const worker = sim.get('Deployment', NS, `${RELEASE}-worker`) as { spec: { replicas: number } };
    expect(worker.spec.replicas).toBe(1);
    expect(await ok(run('helm', ['history', RELEASE, '--namespace', NS]))).toMatch(/2\s+.*deployed/);
  });

  it("enforces the chart's policies on the worker's service account, and only on it", async () => {
    // The worker's token, as the token controller fills a legacy service-account token Secret.
    const tokenSecret = JSON.stringify({
      apiVersion: 'v1',
      kind: 'Secret',
      type: 'kubernetes.io/service-account-token',
      metadata: {
        name: 'worker-token',
        namespace: NS,
        annotations: { 'kubernetes.io/service-account.name': `${RELEASE}-worker` },
      },
      data: { token: Buffer.from(WORKER_TOKEN).toString('base64') },
    });
    await ok(run('kubectl', ['apply', '-f', '-'], kubeconfig, tokenSecret));
    // kubectl sends no bearer token over plain http: it acts as the worker by impersonation
    // (--as); the worker's own client (@kubernetes/client-node) sends its token (below).
    const asWorker = (...args: string[]): Promise<Run> => run('kubectl', ['--as', WORKER, ...args]);

    const label = await asWorker('label', 'deployment', 'web', '-n', 'shop', 'team=payments');
    expect(label.status).toBe(1);
    expect(label.stderr).toContain(
      `ValidatingAdmissionPolicy '${RELEASE}-worker-deployments' with binding '${RELEASE}-worker-deployments' denied request: the worker may not change the Deployment's labels, annotations (but its own node-exclusion record, rollout-doctor.io/exclusion.*), finalizers or owners`,
    );
    expect(sim.requests.filter((r) => r.verb === 'patch' && r.name === 'web').at(-1)).toMatchObject({
      user: WORKER,
      status: 422,
    });
    expect(
      (sim.get('Deployment', 'shop', 'web') as { metadata: { labels: object } }).metadata.labels,
    ).toEqual({
      app: 'web',
    });
    // What a fix changes is admitted: a restart (the pod template's restartedAt annotation).
    await ok(asWorker('rollout', 'restart', 'deployment/web', '-n', 'shop'));
    // A strategy only in the shape set-rolling-update writes (issue 41.2): every replica
    // unavailable at once is denied, maxSurge 0 with 2 of the 3 replicas is admitted.
    const strategy = (rollingUpdate: object): Promise<Run> =>
      asWorker(
        'patch',
        'deployment',
        'web',
        '-n',
        'shop',
        '--type=strategic',
        '-p',
        JSON.stringify({ spec: { strategy: { type: 'RollingUpdate', rollingUpdate } } }),
      );
    const allDown = await strategy({ maxSurge: 0, maxUnavailable: '100%' });
    expect(allDown.status).toBe(1);
    expect(allDown.stderr).toContain("denied request: a Deployment's strategy may change only to");
    await ok(strategy({ maxSurge: 0, maxUnavailable: 2 }));
    expect((sim.get('Deployment', 'shop', 'web') as { spec: { strategy: unknown } }).spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: 2 },
    });
    // A pod no ReplicaSet or StatefulSet controls may not be deleted by the worker.
    await ok(kubectl('run', 'debug', '-n', 'shop', '--image=busybox'));
    const del = await asWorker('delete', 'pod', 'debug', '-n', 'shop', '--wait=false');
    expect(del.stderr).toContain(
      'the worker may delete only pods that a ReplicaSet or a StatefulSet controls',
    );
    // The worker's token (what @kubernetes/client-node sends) names it too.
    const byToken = await fetch(`${sim.url}/apis/apps/v1/namespaces/shop/deployments/web`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${WORKER_TOKEN}`, 'content-type': 'application/merge-patch+json' },
      body: JSON.stringify({ metadata: { labels: { team: 'payments' } } }),
    });
    expect(byToken.status).toBe(422);
    expect(((await byToken.json()) as { message: string }).message).toContain('denied request');
    // Anyone else is not judged.
    await ok(kubectl('label', 'deployment', 'web', '-n', 'shop', 'team=payments'));
  });

  it("admits exclude-node's label exclusion on a Deployment as the builder writes it, and no swap of it", async () => {
    const asWorker = (...args: string[]): Promise<Run> => run('kubectl', ['--as', WORKER, ...args]);
    const jsonPatch = (kind: string, name: string, ops: object[]): Promise<Run> =>
      asWorker('patch', kind, name, '-n', 'shop', '--type=json', '-p', JSON.stringify(ops));
    const web = sim.get('Deployment', 'shop', 'web') as { metadata: { generation: number } };
    // exclude-node's own patch (builders/exclude-node.ts forwardPatch): several crashing
    // nodes sharing a node-group image, kept off by that label.
    const byImage = excludeLabelValues(undefined, 'eks.amazonaws.com/nodegroup-image', [
      'ami-0f3c9e1b27d45a861',
    ]);
    await ok(
      jsonPatch('deployment', 'web', [
        { op: 'test', path: '/metadata/generation', value: web.metadata.generation },
        { op: 'add', path: AFFINITY_PATH, value: byImage },
        // Its record on the Deployment (issue 65.5), times as the executor fills them.
        {
          op: 'add',
          path: '/metadata/annotations/rollout-doctor.io~1exclusion.set-at',
          value: '2026-11-27T10:00:00Z',
        },
        {
          op: 'add',
          path: '/metadata/annotations/rollout-doctor.io~1exclusion.expires-at',
          value: '2026-11-28T10:00:00Z',
        },
      ]),
    );
    expect(
      (sim.get('Deployment', 'shop', 'web') as { spec: { template: { spec: { affinity: unknown } } } }).spec
        .template.spec.affinity,
    ).toEqual(byImage);
    // The image swapped for another in one write: denied (a write only adds or only removes names).
    const swapped = excludeLabelValues(undefined, 'eks.amazonaws.com/nodegroup-image', [
      'ami-07b2d84c6e19f3a20',
    ]);
    const swap = await jsonPatch('deployment', 'web', [
      { op: 'replace', path: AFFINITY_PATH, value: swapped },
    ]);
    expect(swap.status).toBe(1);
    expect(swap.stderr).toContain(
      'denied request: the required node affinity may change only by adding or only by removing',
    );
    // On a DaemonSet (the API server bumps its template generation annotation on the
    // write): by name admitted, the label form on a label every node has denied.
    await ok(
      run(
        'kubectl',
        ['apply', '-f', '-'],
        kubeconfig,
        JSON.stringify({
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          metadata: { name: 'agent', namespace: 'shop', labels: { app: 'agent' } },
          spec: {
            selector: { matchLabels: { app: 'agent' } },
            template: {
              metadata: { labels: { app: 'agent' } },
              spec: { containers: [{ name: 'agent', image: 'busybox:1.36' }] },
            },
          },
        }),
      ),
    );
    const drain = await jsonPatch('daemonset', 'agent', [
      { op: 'add', path: AFFINITY_PATH, value: excludeLabelValues(undefined, 'kubernetes.io/os', ['linux']) },
    ]);
    expect(drain.status).toBe(1);
    expect(drain.stderr).toContain('denied request: the required node affinity may change only by');
    expect(drain.stderr).toContain('except on a DaemonSet');
    const byName = excludeLabelValues(undefined, 'kubernetes.io/hostname', ['node-a']);
    await ok(jsonPatch('daemonset', 'agent', [{ op: 'add', path: AFFINITY_PATH, value: byName }]));
    expect(
      (sim.get('DaemonSet', 'shop', 'agent') as { spec: { template: { spec: { affinity?: unknown } } } }).spec
        .template.spec.affinity,
    ).toEqual(byName);
  });

  it('uninstalls: the release objects, its policies and its record are gone', async () => {
    await ok(run('helm', ['uninstall', RELEASE, '--namespace', NS]));
    expect(sim.list('ValidatingAdmissionPolicy')).toEqual([]);
    expect(sim.list('Deployment', NS)).toEqual([]);
    expect(sim.list('Secret', NS).map((o) => (o as { metadata: { name: string } }).metadata.name)).toEqual([
      'worker-token',
    ]);
    // Without the policy the worker's label change goes through.
    await ok(run('kubectl', ['--as', WORKER, 'label', 'deployment', 'web', '-n', 'shop', 'tier=web']));
  });
});
