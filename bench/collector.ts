/**
 * Collector benchmark: API requests and wall time for one diagnosis of the stuck GPU
 * Deployment (seed incident A, mid-deadlock) in a small cluster and in a large one,
 * and at 20 ms per-request latency against the floor (dependent chain × latency).
 *
 * The clusters are static (no controllers): the same workload objects, plus filler
 * nodes, namespaces, Deployments' pods and events that a badly targeted collector
 * would drag in. Run: `npx tsx bench/collector.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startSimulator } from '../sim/index.js';
import { diagnose } from '../src/engine/diagnose.js';
import { createKubeClient } from '../src/kube/client.js';
import { collectSnapshot } from '../src/kube/read/collector.js';

export const TARGET = { kind: 'Deployment' as const, namespace: 'vision', name: 'vision-object-tracker' };
/** Rounds of dependent requests in the collector: Deployment → pods & co → nodes/neighbours/logs. */
export const CHAIN_LENGTH = 3;

const T0 = '2026-11-22T02:00:00Z';

function node(name: string, gpu: boolean): object {
  const resources = { cpu: '8', memory: '32Gi', pods: '110', ...(gpu ? { 'nvidia.com/gpu': '1' } : {}) };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      labels: { 'kubernetes.io/hostname': name, 'kubernetes.io/os': 'linux', 'kubernetes.io/arch': 'amd64' },
    },
    status: {
      capacity: resources,
      allocatable: resources,
      conditions: [{ type: 'Ready', status: 'True', reason: 'KubeletReady' }],
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kubeletVersion: 'v1.31.4',
      },
    },
  };
}

function trackerTemplate(image: string, hash: string): object {
  return {
    metadata: { labels: { app: 'vision-object-tracker', 'pod-template-hash': hash } },
    spec: {
      nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
      containers: [
        {
          name: 'tracker',
          image,
          resources: {
            requests: { cpu: '2', memory: '4Gi' },
            limits: { 'nvidia.com/gpu': 1, memory: '8Gi' },
          },
        },
      ],
    },
  };
}

function pod(
  name: string,
  namespace: string,
  owner: { name: string; uid: string },
  labels: Record<string, string>,
  spec: object,
  status: object,
): object {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace,
      uid: `uid-pod-${namespace}-${name}`,
      labels,
      creationTimestamp: T0,
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: owner.name, uid: owner.uid, controller: true },
      ],
    },
    spec,
    status,
  };
}

/** The GPU tracker mid-deadlock: old pod Running on gpu-node-1, surge pod Pending with its FailedScheduling event. */
function incidentA(totalNodes: number): object[] {
  const dep = { name: 'vision-object-tracker', uid: 'uid-deploy-tracker' };
  const oldRs = { name: 'vision-object-tracker-6d4f7b9c8', uid: 'uid-rs-old' };
  const newRs = { name: 'vision-object-tracker-7bbc65dc8c', uid: 'uid-rs-new' };
  const rs = (
    r: { name: string; uid: string },
    revision: number,
    image: string,
    hash: string,
    replicas: number,
  ): object => ({
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name: r.name,
      namespace: 'vision',
      uid: r.uid,
      labels: { app: 'vision-object-tracker', 'pod-template-hash': hash },
      annotations: { 'deployment.kubernetes.io/revision': String(revision) },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'Deployment', name: dep.name, uid: dep.uid, controller: true },
      ],
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: 'vision-object-tracker', 'pod-template-hash': hash } },
      template: trackerTemplate(image, hash),
    },
    status: { replicas, readyReplicas: revision === 1 ? 1 : 0, availableReplicas: revision === 1 ? 1 : 0 },
  });
  const pending = pod(
    `${newRs.name}-x4xs7`,
    'vision',
    newRs,
    { app: 'vision-object-tracker', 'pod-template-hash': '7bbc65dc8c' },
    (trackerTemplate('vision/boost-track-app:1.1', '7bbc65dc8c') as { spec: object }).spec,
    {
      phase: 'Pending',
      conditions: [{ type: 'PodScheduled', status: 'False', reason: 'Unschedulable' }],
    },
  );
  const others = totalNodes - 1;
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: dep.name,
        namespace: 'vision',
        uid: dep.uid,
        generation: 2,
        labels: { app: dep.name },
        annotations: { 'deployment.kubernetes.io/revision': '2' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: dep.name } },
        template: {
          ...trackerTemplate('vision/boost-track-app:1.1', ''),
          metadata: { labels: { app: dep.name } },
        },
      },
      status: {
        observedGeneration: 2,
        replicas: 2,
        updatedReplicas: 1,
        readyReplicas: 1,
        availableReplicas: 1,
        unavailableReplicas: 1,
        conditions: [
          { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
          { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' },
        ],
      },
    },
    rs(oldRs, 1, 'vision/boost-track-app:1.0', '6d4f7b9c8', 1),
    rs(newRs, 2, 'vision/boost-track-app:1.1', '7bbc65dc8c', 1),
    pod(
      `${oldRs.name}-q2m8z`,
      'vision',
      oldRs,
      { app: 'vision-object-tracker', 'pod-template-hash': '6d4f7b9c8' },
      {
        ...(trackerTemplate('vision/boost-track-app:1.0', '6d4f7b9c8') as { spec: object }).spec,
        nodeName: 'gpu-node-1',
      },
      {
        phase: 'Running',
        conditions: [{ type: 'Ready', status: 'True' }],
        containerStatuses: [
          {
            name: 'tracker',
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: T0 } },
          },
        ],
      },
    ),
    pending,
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: `${newRs.name}-x4xs7.1`, namespace: 'vision' },
      involvedObject: {
        kind: 'Pod',
        name: `${newRs.name}-x4xs7`,
        namespace: 'vision',
        uid: `uid-pod-vision-${newRs.name}-x4xs7`,
      },
      reason: 'FailedScheduling',
      type: 'Warning',
      count: 12,
      firstTimestamp: T0,
      lastTimestamp: T0,
      source: { component: 'default-scheduler' },
      message: `0/${totalNodes} nodes are available: 1 Insufficient nvidia.com/gpu, ${others} node(s) didn't match Pod's node affinity/selector. preemption: 0/${totalNodes} nodes are available: 1 No preemption victims found for incoming pod, ${others} Preemption is not helpful for scheduling..`,
    },
  ];
}

/** Filler workloads: `pods` pods over `nodes` nodes in 50 namespaces, one Warning event per 100 pods. */
export function generateCluster(options: { nodes: number; pods: number }): object[] {
  const objects: object[] = [node('gpu-node-1', true)];
  for (let i = 1; i < options.nodes; i += 1) objects.push(node(`worker-${i}`, false));
  objects.push(...incidentA(options.nodes));
  const namespaces = 50;
  for (let n = 0; n < namespaces; n += 1)
    objects.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${n}` } });
  for (let i = 0; i < options.pods; i += 1) {
    const ns = `team-${i % namespaces}`;
    const app = `svc-${Math.floor(i / namespaces) % 200}`;
    const owner = { name: `${app}-5c7d9`, uid: `uid-rs-${ns}-${app}` };
    const nodeName = options.nodes > 1 ? `worker-${1 + (i % (options.nodes - 1))}` : 'gpu-node-1';
    objects.push(
      pod(
        `${app}-5c7d9-${i}`,
        ns,
        owner,
        { app },
        {
          nodeName,
          containers: [{ name: 'app', image: `${app}:1`, resources: { requests: { cpu: '100m' } } }],
        },
        {
          phase: 'Running',
          conditions: [{ type: 'Ready', status: 'True' }],
          containerStatuses: [
            {
              name: 'app',
              ready: true,
              started: true,
              restartCount: 0,
              state: { running: { startedAt: T0 } },
            },
          ],
        },
      ),
    );
    if (i % 100 === 0) {
      objects.push({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `${app}-${i}.ev`, namespace: ns },
        involvedObject: {
          kind: 'Pod',
          name: `${app}-5c7d9-${i}`,
          namespace: ns,
          uid: `uid-pod-${ns}-${app}-5c7d9-${i}`,
        },
        reason: 'Unhealthy',
        type: 'Warning',
        message: 'Readiness probe failed: HTTP probe failed with statuscode: 503',
        firstTimestamp: T0,
        lastTimestamp: T0,
      });
    }
  }
  return objects;
}

export interface BenchFigures {
  nodes: number;
  pods: number;
  latencyMs: number;
  requests: number;
  wallMs: number;
  /** CHAIN_LENGTH × latency: no collector can beat it. */
  floorMs: number;
  findings: string[];
}

/** One diagnosis against a static simulator holding the given cluster. */
export async function measure(options: {
  nodes: number;
  pods: number;
  latencyMs?: number;
  runs?: number;
}): Promise<BenchFigures> {
  const latencyMs = options.latencyMs ?? 0;
  const sim = await startSimulator({ scenario: generateCluster(options), controllers: false, latencyMs });
  const dir = mkdtempSync(join(tmpdir(), 'collector-bench-'));
  try {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const client = createKubeClient({ kubeconfig: file });
    await collectSnapshot(client, TARGET); // warm-up: connection setup and JIT
    let best = Number.POSITIVE_INFINITY;
    let requests = 0;
    let findings: string[] = [];
    for (let run = 0; run < (options.runs ?? 3); run += 1) {
      sim.clearRequests();
      const start = performance.now();
      const snapshot = await collectSnapshot(client, TARGET);
      const elapsed = performance.now() - start;
      requests = sim.requests.length;
      findings = diagnose(snapshot).findings.map((f) => f.code);
      best = Math.min(best, elapsed);
    }
    return {
      nodes: options.nodes,
      pods: options.pods,
      latencyMs,
      requests,
      wallMs: Math.round(best),
      floorMs: CHAIN_LENGTH * latencyMs,
      findings,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await sim.close();
  }
}

/** The figures: small vs large cluster, and at 20 ms latency. */
export async function runCollectorBench(): Promise<{
  small: BenchFigures;
  large: BenchFigures;
  latency: BenchFigures;
  growth: number;
}> {
  const small = await measure({ nodes: 10, pods: 100 });
  const large = await measure({ nodes: 5000, pods: 100_000, runs: 2 });
  const latency = await measure({ nodes: 10, pods: 100, latencyMs: 20 });
  return { small, large, latency, growth: large.requests / small.requests };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const result = await runCollectorBench();
  const row = (f: BenchFigures): string =>
    `${String(f.nodes).padStart(5)} nodes ${String(f.pods).padStart(6)} pods  latency ${String(f.latencyMs).padStart(2)} ms: ${f.requests} requests, ${f.wallMs} ms (floor ${f.floorMs} ms) findings ${f.findings.join(',')}`;
  console.log(row(result.small));
  console.log(row(result.large));
  console.log(row(result.latency));
  console.log(
    `request growth ${result.growth.toFixed(2)}x; latency run ${result.latency.wallMs - result.latency.floorMs} ms above the floor`,
  );
}
