/**
 * The real kubectl from this image against the simulator: the check that the
 * simulator speaks real Kubernetes (discovery, tables, describe's event lookups,
 * the three patch types, rollout restart and rollout status over a watch, and for
 * StatefulSets and DaemonSets set image, scale, rollout status/history/undo/restart,
 * which read ControllerRevisions).
 */
import { execFile } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import type { DaemonSet, StatefulSet } from '../../sim/controllers/workload-types.js';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
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
    // Rolled out counts the pods the controller keeps; the last old one may still be
    // terminating (its grace period) and is gone once its kubelet has stopped it.
    await crash.waitFor(() => crash.list('Pod', 'shop').length === 3);
    const pods = crash.list('Pod', 'shop') as Pod[];
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

describe('kubectl drives StatefulSets and DaemonSets on the simulator', () => {
  let sts: Simulator;
  let ds: Simulator;

  beforeAll(async () => {
    sts = await startSimulator({ scenario: 'sim/scenarios/statefulset-bad-release.yaml', timeScale: 50 });
    ds = await startSimulator({ scenario: 'sim/scenarios/node-agent-surge.yaml', timeScale: 50 });
    await sts.writeKubeconfig(join(dir, 'sts'));
    await ds.writeKubeconfig(join(dir, 'ds'));
    await sts.waitFor(
      () => (sts.get('StatefulSet', 'payments', 'ledger') as StatefulSet).status?.readyReplicas === 3,
    );
    await ds.waitFor(
      () => (ds.get('DaemonSet', 'telemetry', 'node-agent') as DaemonSet).status?.numberAvailable === 3,
    );
  });

  afterAll(async () => {
    await sts.close();
    await ds.close();
  });

  const inLedger = (args: string[], binary?: string) => kubectl('sts', ['-n', 'payments', ...args], binary);
  const inAgent = (args: string[], binary?: string) => kubectl('ds', ['-n', 'telemetry', ...args], binary);

  it('gets statefulsets, daemonsets and controllerrevisions as server-side tables, and describes them', async () => {
    const ledger = await inLedger(['get', 'sts,controllerrevisions', '-o', 'wide']);
    expect(ledger.stderr).toBe('');
    expect(ledger.stdout).toMatch(
      /statefulset\.apps\/ledger\s+3\/3\s+\S+\s+ledger\s+registry\.example\.com\/payments\/ledger:3\.4\.1/,
    );
    expect(ledger.stdout).toMatch(/controllerrevision\.apps\/ledger-\w+\s+statefulset\.apps\/ledger\s+1\s/);
    const agent = await inAgent(['get', 'ds', '-o', 'wide']);
    expect(agent.stdout).toMatch(
      /node-agent\s+3\s+3\s+3\s+3\s+3\s+<none>\s+\S+\s+agent\s+\S+node-agent:1\.8\.2\s+app\.kubernetes\.io\/name=node-agent/,
    );
    const described = await inLedger(['describe', 'sts', 'ledger']);
    expect(described.code).toBe(0);
    expect(described.stdout).toContain('Pods Status:        3 Running / 0 Waiting / 0 Succeeded / 0 Failed');
    expect(described.stdout).toMatch(
      /SuccessfulCreate\s+.*statefulset-controller\s+create Pod ledger-2 in StatefulSet ledger successful/,
    );
    const describedDs = await inAgent(['describe', 'ds', 'node-agent']);
    expect(describedDs.stdout).toContain('Number of Nodes Scheduled with Up-to-date Pods: 3');
  });

  it('DaemonSet: set image deadlocks on the hostPort with maxSurge; the strategy fix completes it; history, undo and restart', async () => {
    const image = 'registry.example.com/telemetry/node-agent:1.9.0';
    expect((await inAgent(['set', 'image', 'ds/node-agent', `agent=${image}`])).stdout).toContain(
      'daemonset.apps/node-agent image updated',
    );
    const stuck = await inAgent(['rollout', 'status', 'ds/node-agent', '--timeout', '2s']);
    expect(stuck.code).not.toBe(0);
    expect(stuck.stdout).toContain(
      'Waiting for daemon set "node-agent" rollout to finish: 0 out of 3 new pods have been updated...',
    );
    const events = await inAgent(['get', 'events', '--field-selector', 'reason=FailedScheduling']);
    expect(events.stdout).toContain(
      "0/3 nodes are available: 1 node(s) didn't have free ports for the requested pod ports, 2 node(s) didn't satisfy plugin(s) [NodeAffinity].",
    );
    const fix = '{"spec":{"updateStrategy":{"rollingUpdate":{"maxSurge":0,"maxUnavailable":1}}}}';
    expect((await inAgent(['patch', 'ds', 'node-agent', '-p', fix])).code).toBe(0);
    const done = await inAgent(['rollout', 'status', 'ds/node-agent', '--timeout', '20s']);
    expect(done.stdout).toContain('daemon set "node-agent" successfully rolled out');
    const history = await inAgent(['rollout', 'history', 'ds/node-agent']);
    expect(history.stdout).toMatch(/REVISION\s+CHANGE-CAUSE\n1\s+<none>\n2\s+<none>/);
    const undo = await inAgent(['rollout', 'undo', 'ds/node-agent']);
    expect(undo.stdout).toContain('daemonset.apps/node-agent rolled back');
    expect((await inAgent(['rollout', 'status', 'ds/node-agent', '--timeout', '20s'])).stdout).toContain(
      'successfully rolled out',
    );
    const pods = ds.list('Pod', 'telemetry') as Pod[];
    expect(pods.map((p) => p.spec.containers[0]?.image)).toEqual(
      Array(3).fill('registry.example.com/telemetry/node-agent:1.8.2'),
    );
    expect((await inAgent(['rollout', 'history', 'ds/node-agent'])).stdout).toMatch(
      /\n2\s+<none>\n3\s+<none>/,
    );
    expect((await inAgent(['rollout', 'restart', 'ds/node-agent'])).stdout).toContain(
      'daemonset.apps/node-agent restarted',
    );
    expect((await inAgent(['rollout', 'status', 'ds/node-agent', '--timeout', '20s'])).stdout).toContain(
      'successfully rolled out',
    );
  });

  it('StatefulSet: a bad release blocks, rollout undo does not unblock it, deleting the stuck pod does; scale and restart', async () => {
    const bad = 'registry.example.com/payments/ledger:3.5.0';
    expect((await inLedger(['set', 'image', 'sts/ledger', `ledger=${bad}`])).stdout).toContain(
      'statefulset.apps/ledger image updated',
    );
    await sts.waitFor(
      () =>
        (sts.get('Pod', 'payments', 'ledger-2') as Pod | undefined)?.status?.containerStatuses?.[0]?.state
          ?.waiting?.reason === 'CrashLoopBackOff',
    );
    const blocked = await inLedger(['rollout', 'status', 'sts/ledger', '--timeout', '2s']);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stdout).toContain('Waiting for 1 pods to be ready...');
    expect((await inLedger(['get', 'sts', 'ledger'])).stdout).toMatch(/ledger\s+2\/3\s/);
    expect((await inLedger(['rollout', 'undo', 'sts/ledger'])).stdout).toContain(
      'statefulset.apps/ledger rolled back',
    );
    const still = await inLedger(['rollout', 'status', 'sts/ledger', '--timeout', '2s']);
    expect(still.code).not.toBe(0);
    expect(still.stdout).toContain('Waiting for 1 pods to be ready...');
    expect(
      (await inLedger(['get', 'pod', 'ledger-2', '-o', 'jsonpath={.spec.containers[0].image}'])).stdout,
    ).toBe(bad);
    expect((await inLedger(['delete', 'pod', 'ledger-2'])).stdout).toContain('pod "ledger-2" deleted');
    const done = await inLedger(['rollout', 'status', 'sts/ledger', '--timeout', '20s']);
    expect(done.stdout).toContain('partitioned roll out complete: 3 new pods have been updated...');
    expect((await inLedger(['rollout', 'history', 'sts/ledger'])).stdout).toMatch(/\n2\s+<none>\n3\s+<none>/);
    expect((await inLedger(['scale', 'sts/ledger', '--replicas', '2'])).stdout).toContain(
      'statefulset.apps/ledger scaled',
    );
    await sts.waitFor(() => (sts.list('Pod', 'payments') as Pod[]).length === 2);
    // With --current-replicas kubectl GETs the Scale and PUTs it back.
    const guarded = await inLedger(['scale', 'sts/ledger', '--current-replicas=2', '--replicas=1']);
    expect(guarded.stdout).toContain('statefulset.apps/ledger scaled');
    await sts.waitFor(() => (sts.list('Pod', 'payments') as Pod[]).length === 1);
    expect((await inLedger(['rollout', 'restart', 'sts/ledger'])).stdout).toContain(
      'statefulset.apps/ledger restarted',
    );
    expect((await inLedger(['rollout', 'status', 'sts/ledger', '--timeout', '20s'])).stdout).toContain(
      'partitioned roll out complete: 1 new pods have been updated...',
    );
  });

  for (const { version, binary } of VERSIONED) {
    it.skipIf(!onCI && !existsSync(binary))(
      `works with kubectl ${version} for statefulsets and daemonsets`,
      async () => {
        expect(existsSync(binary), `${binary} is missing (Google Cloud SDK kubectl ${version})`).toBe(true);
        const get = await inLedger(['get', 'sts,controllerrevisions'], binary);
        expect(get.code).toBe(0);
        expect(get.stdout).toContain('statefulset.apps/ledger');
        expect(
          (await inAgent(['rollout', 'status', 'ds/node-agent', '--timeout', '20s'], binary)).stdout,
        ).toContain('daemon set "node-agent" successfully rolled out');
        expect((await inAgent(['rollout', 'history', 'ds/node-agent'], binary)).stdout).toContain('REVISION');
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
