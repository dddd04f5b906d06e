/**
 * The real kubectl from this image against the simulator: the check that the
 * simulator speaks real Kubernetes (discovery, tables, describe's event lookups,
 * the three patch types, rollout restart and rollout status over a watch).
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { Deployment, Pod } from '../../src/diagnosis/k8s.js';
import { onCI } from '../support/tools.js';

const run = promisify(execFile);

function whichKubectl(): string {
  for (const dir of (process.env['PATH'] ?? '').split(':')) {
    const candidate = join(dir, 'kubectl');
    if (existsSync(candidate)) return candidate;
  }
  throw new Error('kubectl not found on PATH');
}

const KUBECTL = whichKubectl();
/**
 * The oldest and newest kubectl the machine image ships beside the default one (the
 * Google Cloud SDK's bin folder, where /usr/bin/kubectl points). Each version is its
 * own test: a missing binary fails under CI and is a visible skip locally, never a
 * silently empty list.
 */
const VERSIONED = ['1.27', '1.33'].map((version) => ({
  version,
  binary: join(dirname(realpathSync(KUBECTL)), `kubectl.${version}`),
}));

let dir: string;
let crash: Simulator;
let gpu: Simulator;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sim-kubectl-'));
  crash = await startSimulator({ scenario: 'sim/scenarios/crashloop-node.yaml', timeScale: 50 });
  gpu = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock.yaml', timeScale: 50 });
  await crash.writeKubeconfig(join(dir, 'crash'));
  await gpu.writeKubeconfig(join(dir, 'gpu'));
  await crash.waitFor(
    () => (crash.list('Pod', 'shop') as Pod[]).filter((p) => p.status?.phase === 'Running').length === 3,
  );
  await gpu.waitFor(
    () =>
      (gpu.get('Deployment', 'vision', 'vision-object-tracker') as Deployment).status?.availableReplicas ===
      1,
  );
});

afterAll(async () => {
  await crash.close();
  await gpu.close();
  await rm(dir, { recursive: true, force: true });
});

async function kubectl(
  config: string,
  args: string[],
  binary = KUBECTL,
): Promise<{ stdout: string; stderr: string; code: number }> {
  try {
    const { stdout, stderr } = await run(
      binary,
      [
        '--kubeconfig',
        join(dir, config),
        '--cache-dir',
        join(dir, `cache-${config}-${binary.slice(-4)}`),
        ...args,
      ],
      {
        timeout: 30_000,
      },
    );
    return { stdout, stderr, code: 0 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; code?: number };
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? '', code: typeof e.code === 'number' ? e.code : 1 };
  }
}

describe('kubectl against the simulator', () => {
  it('gets deployments, replicasets and pods as server-side tables', async () => {
    const out = await kubectl('crash', ['-n', 'shop', 'get', 'deploy,rs,pods', '-o', 'wide']);
    expect(out.stderr).toBe('');
    expect(out.stdout).toMatch(/deployment\.apps\/checkout\s+\d\/3/);
    expect(out.stdout).toMatch(/replicaset\.apps\/checkout-\w+\s+3\s+3/);
    expect(out.stdout).toMatch(/pod\/checkout-\S+\s+0\/1\s+(CrashLoopBackOff|Error|Running)\s+\d+.*node-b/);
    expect(out.stdout).toMatch(/pod\/checkout-\S+\s+1\/1\s+Running\s+0 .*node-a/);
  });

  it('sorts events by lastTimestamp: the server-side table carries the whole objects when asked (includeObject=Object)', async () => {
    const out = await kubectl('crash', ['-n', 'shop', 'get', 'events', '--sort-by=.lastTimestamp']);
    expect(out.code).toBe(0);
    expect(out.stderr).not.toContain('No resources found');
    expect(out.stdout).toMatch(/Normal\s+Scheduled\s+pod\/checkout-\S+\s+Successfully assigned shop\//);
  });

  it('reports a server version consistent with what it serves (1.34: resource.k8s.io/v1)', async () => {
    const out = await kubectl('crash', ['version', '-o', 'json']);
    const server = (
      JSON.parse(out.stdout) as { serverVersion: { major: string; minor: string; gitVersion: string } }
    ).serverVersion;
    expect([server.major, server.minor]).toEqual(['1', '34']);
    expect(server.gitVersion).toMatch(/^v1\.34\./);
  });

  it('describes a deployment and a pod with their events', async () => {
    const d = await kubectl('gpu', ['-n', 'vision', 'describe', 'deployment', 'vision-object-tracker']);
    expect(d.code).toBe(0);
    expect(d.stdout).toContain('RollingUpdateStrategy:  25% max unavailable, 25% max surge');
    expect(d.stdout).toMatch(
      /ScalingReplicaSet\s+.*deployment-controller\s+Scaled up replica set vision-object-tracker-\w+ from 0 to 1/,
    );
    const podName =
      (crash.list('Pod', 'shop') as Pod[]).find((p) => p.spec.nodeName === 'node-b')?.metadata.name ?? '';
    const p = await kubectl('crash', ['-n', 'shop', 'describe', 'pod', podName]);
    expect(p.code).toBe(0);
    expect(p.stdout).toMatch(/Last State:\s+Terminated/);
    expect(p.stdout).toMatch(/Exit Code:\s+132/);
    expect(p.stdout).toMatch(/Warning\s+BackOff\s+.*kubelet\s+Back-off restarting failed container checkout/);
  });

  it('patches with strategic, merge and json patch types', async () => {
    const strategic = await kubectl('crash', [
      '-n',
      'shop',
      'patch',
      'deploy',
      'checkout',
      '-p',
      '{"metadata":{"annotations":{"team":"payments"}}}',
    ]);
    expect(strategic.stdout).toContain('deployment.apps/checkout patched');
    const merge = await kubectl('crash', [
      '-n',
      'shop',
      'patch',
      'deploy',
      'checkout',
      '--type',
      'merge',
      '-p',
      '{"metadata":{"labels":{"tier":"web"}}}',
    ]);
    expect(merge.code).toBe(0);
    const failing = await kubectl('crash', [
      '-n',
      'shop',
      'patch',
      'deploy',
      'checkout',
      '--type',
      'json',
      '-p',
      '[{"op":"test","path":"/spec/replicas","value":9}]',
    ]);
    expect(failing.code).not.toBe(0);
    expect(failing.stderr).toContain('test failed');
    const json = await kubectl('crash', [
      '-n',
      'shop',
      'patch',
      'deploy',
      'checkout',
      '--type',
      'json',
      '-p',
      '[{"op":"test","path":"/spec/replicas","value":3},{"op":"add","path":"/metadata/labels/owner","value":"shop"}]',
    ]);
    expect(json.code).toBe(0);
    const d = crash.get('Deployment', 'shop', 'checkout') as Deployment;
    expect(d.metadata.annotations?.['team']).toBe('payments');
    expect(d.metadata.labels).toMatchObject({ tier: 'web', owner: 'shop' });
    expect(d.metadata.generation).toBe(1);
  });

  it('excludes the bad node, restarts the rollout and waits for it with rollout status', async () => {
    const affinity = {
      spec: {
        template: {
          spec: {
            affinity: {
              nodeAffinity: {
                requiredDuringSchedulingIgnoredDuringExecution: {
                  nodeSelectorTerms: [
                    {
                      matchExpressions: [
                        { key: 'kubernetes.io/hostname', operator: 'NotIn', values: ['node-b'] },
                      ],
                    },
                  ],
                },
              },
            },
          },
        },
      },
    };
    expect(
      (await kubectl('crash', ['-n', 'shop', 'patch', 'deploy', 'checkout', '-p', JSON.stringify(affinity)]))
        .code,
    ).toBe(0);
    const restart = await kubectl('crash', ['-n', 'shop', 'rollout', 'restart', 'deployment/checkout']);
    expect(restart.stdout).toContain('deployment.apps/checkout restarted');
    const d = crash.get('Deployment', 'shop', 'checkout') as Deployment;
    expect(
      Date.parse(d.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt'] ?? ''),
    ).not.toBeNaN();
    const status = await kubectl('crash', [
      '-n',
      'shop',
      'rollout',
      'status',
      'deployment/checkout',
      '--timeout',
      '20s',
    ]);
    expect(status.stdout).toContain('deployment "checkout" successfully rolled out');
    const pods = crash.list('Pod', 'shop') as Pod[];
    expect(pods).toHaveLength(3);
    expect(pods.every((p) => p.spec.nodeName !== 'node-b')).toBe(true);
  });

  it('rolls back with rollout undo: the Deployment carries its revision as the real controller sets it', async () => {
    const before = crash.get('Deployment', 'shop', 'checkout') as Deployment;
    expect(Number(before.metadata.annotations?.['deployment.kubernetes.io/revision'])).toBeGreaterThan(1);
    const undo = await kubectl('crash', ['-n', 'shop', 'rollout', 'undo', 'deployment/checkout']);
    expect(undo.stderr).toBe('');
    expect(undo.stdout).toContain('deployment.apps/checkout rolled back');
    const after = crash.get('Deployment', 'shop', 'checkout') as Deployment;
    // Back to the template before the restart: the node exclusion, no restartedAt.
    expect(after.spec.template.metadata?.annotations?.['kubectl.kubernetes.io/restartedAt']).toBeUndefined();
    expect(JSON.stringify(after.spec.template.spec.affinity)).toContain('node-b');
  });

  it('rollout status times out on the GPU surge deadlock', async () => {
    expect(
      (await kubectl('gpu', ['-n', 'vision', 'rollout', 'restart', 'deployment/vision-object-tracker'])).code,
    ).toBe(0);
    const status = await kubectl('gpu', [
      '-n',
      'vision',
      'rollout',
      'status',
      'deployment/vision-object-tracker',
      '--timeout',
      '2s',
    ]);
    expect(status.code).not.toBe(0);
    expect(status.stdout).toContain(
      'Waiting for deployment "vision-object-tracker" rollout to finish: 1 old replicas are pending termination...',
    );
    expect(status.stderr).toContain('timed out');
    const events = await kubectl('gpu', [
      '-n',
      'vision',
      'get',
      'events',
      '--field-selector',
      'reason=FailedScheduling',
    ]);
    expect(events.stdout).toContain('0/10 nodes are available: 1 Insufficient nvidia.com/gpu');
  });

  for (const { version, binary } of VERSIONED) {
    it.skipIf(!onCI && !existsSync(binary))(
      `works with kubectl ${version} for get and describe`,
      async () => {
        expect(existsSync(binary), `${binary} is missing (Google Cloud SDK kubectl ${version})`).toBe(true);
        const get = await kubectl('gpu', ['-n', 'vision', 'get', 'deploy,rs,pods'], binary);
        expect(get.code).toBe(0);
        expect(get.stdout).toContain('deployment.apps/vision-object-tracker');
        const describe = await kubectl(
          'gpu',
          ['-n', 'vision', 'describe', 'deploy', 'vision-object-tracker'],
          binary,
        );
        expect(describe.stdout).toMatch(/Progressing\s+True/);
      },
    );
  }
});

// After the tests above: the GPU Deployment's rollout they start keeps its condition
// only until its progress deadline, so nothing slow runs between them.
describe('kubectl against the simulator: Argo Rollouts', () => {
  it('serves Argo Rollouts (short name, CRD columns), refuses a strategic merge patch of one as kubectl reports it, aborts through --subresource=status', async () => {
    const sim = await startSimulator({ scenario: 'sim/scenarios/gpu-deadlock-rollout.yaml', timeScale: 50 });
    try {
      await sim.writeKubeconfig(join(dir, 'rollout'));
      const name = 'vision-object-tracker';
      const phase = (): string | undefined =>
        (sim.get('Rollout', 'vision', name) as { status?: { phase?: string; message?: string } }).status
          ?.phase;
      await sim.waitFor(() => phase() === 'Healthy');
      sim.apply({
        apiVersion: 'v1',
        kind: 'ResourceQuota',
        metadata: { name: 'gpu', namespace: 'vision' },
        spec: { hard: { 'requests.nvidia.com/gpu': '1', 'limits.memory': '16Gi' } },
      });
      const get = await kubectl('rollout', ['-n', 'vision', 'get', 'ro']);
      expect(get.stderr).toBe('');
      expect(get.stdout).toMatch(/^NAME\s+DESIRED\s+CURRENT\s+UP-TO-DATE\s+AVAILABLE\s+AGE\n/);
      expect(get.stdout).toMatch(/vision-object-tracker\s+1\s+1\s+1\s+1\s+\d+s/);
      await sim.waitFor(
        () => (sim.get('ResourceQuota', 'vision', 'gpu') as { status?: object }).status !== undefined,
      );
      const quota = await kubectl('rollout', ['-n', 'vision', 'get', 'quota']);
      expect(quota.stdout).toMatch(
        /gpu\s+\d+s\s+requests\.nvidia\.com\/gpu: 1\/1\s+limits\.memory: 8Gi\/16Gi/,
      );
      const smp = await kubectl('rollout', [
        '-n',
        'vision',
        'patch',
        'ro',
        name,
        '-p',
        '{"spec":{"replicas":2}}',
      ]);
      expect(smp.code).not.toBe(0);
      expect(smp.stderr).toContain(
        'application/strategic-merge-patch+json is not supported by argoproj.io/v1alpha1, Kind=Rollout: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
      );
      const image =
        '[{"op":"replace","path":"/spec/template/spec/containers/0/image","value":"vision/boost-track-app:1.1"}]';
      expect(
        (await kubectl('rollout', ['-n', 'vision', 'patch', 'ro', name, '--type', 'json', '-p', image])).code,
      ).toBe(0);
      await sim.waitFor(
        () => (sim.list('ReplicaSet', 'vision') as { spec: { replicas?: number } }[]).length === 2,
      );
      const abort = await kubectl('rollout', [
        '-n',
        'vision',
        'patch',
        'ro',
        name,
        '--subresource=status',
        '--type',
        'merge',
        '-p',
        '{"status":{"abort":true}}',
      ]);
      expect(abort.stderr).toBe('');
      expect(abort.code).toBe(0);
      await sim.waitFor(() => phase() === 'Degraded');
      const yaml = await kubectl('rollout', [
        '-n',
        'vision',
        'get',
        'ro',
        name,
        '-o',
        'jsonpath={.status.message}',
      ]);
      expect(yaml.stdout).toBe('RolloutAborted: Rollout aborted update to revision 2');
    } finally {
      await sim.close();
    }
  });
});
