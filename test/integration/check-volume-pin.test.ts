/**
 * check places a new pod where its volume allows (issue 64.1): a pod bound to a
 * node-pinned volume (a local PersistentVolume) is placed with that pin. A StatefulSet
 * on local volumes given more cpu than one ordinal's node has left can never finish
 * (another node's room does not help that ordinal), and a Deployment mounting a
 * ReadWriteOnce claim bound to a pinned volume likewise; where the volumes cannot be read
 * it says not known. Each against the simulator with the real kubectl: what check says,
 * then `kubectl apply` of the same manifest, and the pod waiting with "volume node
 * affinity conflict" as check said.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSimClient, type SimClient } from '../support/sim-client.js';
import { fakeIo } from '../support/cli-io.js';
import { kubectlIn } from '../support/kubectl-run.js';
import { runCli } from '../../src/cli/run-cli.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test fixtures

let dir: string;
let sim: SimClient | undefined;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'check-pin-'));
});
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function node(name: string, cpu: string): Json {
  const resources = { cpu, memory: '16Gi', pods: '110' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: { name, labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux' } },
    status: { capacity: resources, allocatable: resources, conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

function neighbour(name: string, nodeName: string, cpu: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'other' },
    spec: { nodeName, containers: [{ name: 'a', image: 'other:1', resources: { requests: { cpu } } }] },
    status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  };
}

/** A local volume on `onNode`, bound to claim `claim` of namespace shop. */
function localPv(name: string, onNode: string, claim: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name },
    spec: {
      capacity: { storage: '10Gi' },
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      local: { path: '/mnt/disks/1' },
      claimRef: { namespace: 'shop', name: claim },
      nodeAffinity: {
        required: {
          nodeSelectorTerms: [
            { matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: [onNode] }] },
          ],
        },
      },
    },
    status: { phase: 'Bound' },
  };
}

function boundClaim(name: string, volume: string): Json {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace: 'shop' },
    spec: {
      accessModes: ['ReadWriteOnce'],
      storageClassName: 'local',
      volumeName: volume,
      resources: { requests: { storage: '5Gi' } },
    },
    status: { phase: 'Bound', accessModes: ['ReadWriteOnce'], capacity: { storage: '10Gi' } },
  };
}

const LOCAL_CLASS = {
  apiVersion: 'storage.k8s.io/v1',
  kind: 'StorageClass',
  metadata: { name: 'local' },
  provisioner: 'kubernetes.io/no-provisioner',
  volumeBindingMode: 'WaitForFirstConsumer',
};

/** `db`: 2 replicas, db-0's data on node-a, db-1's on node-b. */
function statefulSet(cpu: string, image: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name: 'db', namespace: 'shop' },
    spec: {
      replicas: 2,
      serviceName: 'db',
      selector: { matchLabels: { app: 'db' } },
      template: {
        metadata: { labels: { app: 'db' } },
        spec: { containers: [{ name: 'db', image, resources: { requests: { cpu } } }] },
      },
      volumeClaimTemplates: [
        {
          metadata: { name: 'data' },
          spec: {
            accessModes: ['ReadWriteOnce'],
            storageClassName: 'local',
            resources: { requests: { storage: '5Gi' } },
          },
        },
      ],
    },
  };
}

/** `cache`: 1 replica mounting claim cache-data, bound to a volume on node-a. */
function deployment(cpu: string, image: string): Json {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'cache', namespace: 'shop' },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: 'cache' } },
      template: {
        metadata: { labels: { app: 'cache' } },
        spec: {
          containers: [{ name: 'cache', image, resources: { requests: { cpu } } }],
          volumes: [{ name: 'data', persistentVolumeClaim: { claimName: 'cache-data' } }],
        },
      },
    },
  };
}

/** node-a: 4 cpu, 2 taken by a neighbour; node-b: 8 cpu, free. */
function cluster(workload: Json): Json[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'other' } },
    node('node-a', '4'),
    node('node-b', '8'),
    neighbour('batch', 'node-a', '2'),
    LOCAL_CLASS,
    localPv('pv-a', 'node-a', 'data-db-0'),
    localPv('pv-b', 'node-b', 'data-db-1'),
    boundClaim('data-db-0', 'pv-a'),
    boundClaim('data-db-1', 'pv-b'),
    localPv('pv-cache', 'node-a', 'cache-data'),
    boundClaim('cache-data', 'pv-cache'),
    workload,
  ];
}

function write(name: string, object: Json): string {
  const file = join(dir, name);
  writeFileSync(file, stringify(object));
  return file;
}

async function check(s: SimClient, file: string): Promise<{ code: number; result: Json }> {
  const io = fakeIo();
  const code = await runCli(['check', '-f', file, '--kubeconfig', s.kubeconfig, '-o', 'json'], io.io);
  const report = JSON.parse(io.stdout()) as Json;
  expect(report['results']).toHaveLength(1);
  return { code, result: report['results'][0] as Json };
}

async function apply(s: SimClient, file: string): Promise<void> {
  const run = await kubectlIn(s.kubeconfig, 'shop', ['apply', '-f', file]);
  if (run.code !== 0) throw new Error(`kubectl apply: ${run.stderr}`);
}

async function started(workload: Json, ready: (s: SimClient) => boolean): Promise<SimClient> {
  sim = await startSimClient({ scenario: cluster(workload), timeScale: 50 }, 'check-pin');
  const s = sim;
  await s.sim.settle();
  await s.sim.waitFor(() => ready(s));
  return s;
}

const stsReady = (s: SimClient): boolean =>
  ((s.sim.get('StatefulSet', 'shop', 'db') as Json)['status']?.['readyReplicas'] ?? 0) === 2;
const cacheReady = (s: SimClient): boolean =>
  ((s.sim.get('Deployment', 'shop', 'cache') as Json)['status']?.['availableReplicas'] ?? 0) === 1;

/** A Pending pod of the namespace whose scheduling failure names the volume's node affinity. */
function pendingOnVolume(s: SimClient, prefix: string): boolean {
  return (s.sim.list('Pod', 'shop') as Json[]).some((p) => {
    if (!(p['metadata']['name'] as string).startsWith(prefix) || p['spec']['nodeName']) return false;
    const scheduled = (p['status']?.['conditions'] ?? []).find((c: Json) => c['type'] === 'PodScheduled');
    return /volume node affinity conflict/.test(scheduled?.['message'] ?? '');
  });
}

describe('check: new pods placed where their volumes are', () => {
  it('a StatefulSet on local volumes given more cpu than db-0’s node has left: can never finish, and the apply leaves db-0 Pending', async () => {
    const s = await started(statefulSet('1', 'db:1'), stsReady);
    expect((s.sim.get('Pod', 'shop', 'db-0') as Json)['spec']['nodeName']).toBe('node-a');
    // 2.5 cpu: node-b holds db-1's (and would hold db-0's too), node-a has 2 left.
    const file = write('db-bigger.yaml', statefulSet('2500m', 'db:2'));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('Unschedulable');
    expect(result['findings'][0]['summary']).toMatch(
      /new pod db-0 mounts claim data-db-0, bound to volume pv-a, which only node-a may use/,
    );
    expect(result['fix']).toBeUndefined();

    await apply(s, file);
    await s.sim.waitFor(() => pendingOnVolume(s, 'db-0'), SIGNAL_WAIT_MS);
    await new Promise((resolve) => setTimeout(resolve, 1000)); // 50 s of the simulator's time
    expect((s.sim.get('Pod', 'shop', 'db-0') as Json)['spec']['nodeName']).toBeUndefined();
  });

  it('the same StatefulSet given cpu its nodes have: finishes', async () => {
    const s = await started(statefulSet('1', 'db:1'), stsReady);
    const { code, result } = await check(s, write('db-image.yaml', statefulSet('1500m', 'db:2')));
    expect(result['verdict']).toBe('finishes');
    expect(code).toBe(0);
  });

  it('a Deployment mounting a claim bound to a volume on node-a, given more cpu than node-a has: can never finish', async () => {
    const s = await started(deployment('1', 'cache:1'), cacheReady);
    const file = write('cache-bigger.yaml', deployment('3', 'cache:2'));
    const { code, result } = await check(s, file);
    expect(result['verdict']).toBe('never-finishes');
    expect(code).toBe(1);
    expect(result['findings'][0]['code']).toBe('Unschedulable');

    await apply(s, file);
    await s.sim.waitFor(() => pendingOnVolume(s, 'cache-'), SIGNAL_WAIT_MS);
  });

  it('the volumes cannot be read: not known, never "will finish"', async () => {
    const s = await started(statefulSet('1', 'db:1'), stsReady);
    s.sim.addFault({ match: { verb: 'list', resource: 'persistentvolumes' }, status: 403 });
    const { code, result } = await check(s, write('db-unread.yaml', statefulSet('2500m', 'db:2')));
    expect(result['verdict']).toBe('unknown');
    expect(JSON.stringify(result['findings'])).toContain('pv-a');
    expect(code).not.toBe(0);
  });
});
