/**
 * The collector over HTTP against the simulator holding a static cluster (incident A
 * mid-deadlock plus filler workloads): what it reads, how it degrades, and that the
 * request count does not grow with the cluster.
 */
import { asDeployment } from '../support/k8s-builders.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateCluster, TARGET } from '../../bench/collector.js';
import { statefulSetCluster } from '../../bench/workload-kinds.js';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { ClusterError, WorkloadNotFoundError } from '../../src/kube/errors.js';
import { resolveWorkloadForPod } from '../../src/kube/read/pod-owner.js';
import { collectFromCluster } from '../../src/kube/read/source.js';
import { claim, draSeed } from '../support/dra-builders.js';
import type { KubeEvent } from '../../src/diagnosis/k8s.js';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'collector-it-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function clientFor(sim: Simulator, name: string): Promise<{ client: KubeClient; file: string }> {
  const file = join(dir, name);
  writeFileSync(file, sim.kubeconfig);
  const client = createKubeClient({ kubeconfig: file, retry: { attempts: 3, baseMs: 5, maxMs: 20 } });
  return { client, file };
}

describe('collector on a 10-node cluster', () => {
  let sim: Simulator;
  let client: KubeClient;
  let file: string;

  beforeAll(async () => {
    sim = await startSimulator({ scenario: generateCluster({ nodes: 10, pods: 100 }), controllers: false });
    ({ client, file } = await clientFor(sim, 'small'));
  });

  afterAll(async () => {
    await sim.close();
  });

  it('reads only what the diagnosis needs and finds the surge deadlock', async () => {
    sim.clearRequests();
    const snapshot = await collectSnapshot(client, TARGET);
    const reads = sim.requests.map((r) => `${r.verb} ${r.resource}${r.namespace ? ` ${r.namespace}` : ''}`);
    expect(reads.sort()).toEqual(
      [
        'get deployments vision',
        'list replicasets vision',
        'list pods vision',
        'list events vision',
        'list resourcequotas vision',
        // What guards the workload (issue 52): its namespace's budgets and autoscalers.
        'list poddisruptionbudgets vision',
        'list horizontalpodautoscalers vision',
        'list nodes',
        'list pods',
        // Pods of any workload waiting for a node (forward/rivals.ts): one list, cluster-wide.
        'list pods',
        // nvidia.com/gpu might be backed by DRA: the DeviceClasses say it is not here.
        'list deviceclasses',
      ].sort(),
    );
    expect(snapshot.dra).toBeUndefined();
    expect(snapshot.pods.map((p) => p.status?.phase).sort()).toEqual(['Pending', 'Running']);
    expect(asDeployment(snapshot).replicaSets.map((rs) => rs.metadata.name)).toEqual([
      'vision-object-tracker-7bbc65dc8c',
      'vision-object-tracker-6d4f7b9c8',
    ]);
    expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['gpu-node-1']);
    expect(snapshot.nodesComplete).toBe(true);
    expect(snapshot.events.map((e) => e.reason)).toEqual(['FailedScheduling']);
    expect(snapshot.accessProblems).toEqual([]);
    expect(diagnose(snapshot).findings[0]?.code).toBe('RolloutSurgeDeadlock');
  });

  it('turns a 403 on events into an access problem and still diagnoses', async () => {
    sim.addFault({ match: { verb: 'list', resource: 'events' }, status: 403, times: 1 });
    const snapshot = await collectSnapshot(client, TARGET);
    expect(snapshot.events).toEqual([]);
    expect(snapshot.accessProblems).toEqual([
      {
        verb: 'list',
        resource: 'events',
        namespace: 'vision',
        status: 403,
        message: 'cannot list events in namespace vision: grant list on events',
      },
    ]);
    expect(diagnose(snapshot).findings.map((f) => f.code)).toContain('AccessDenied');
  });

  it('retries injected 500s on reads and gets the full snapshot', async () => {
    sim.addFault({ match: { verb: 'list', resource: 'pods', namespace: 'vision' }, status: 500, times: 2 });
    sim.clearRequests();
    const snapshot = await collectSnapshot(client, TARGET);
    expect(snapshot.pods).toHaveLength(2);
    expect(snapshot.accessProblems).toEqual([]);
    const podLists = sim.requests.filter(
      (r) => r.verb === 'list' && r.resource === 'pods' && r.namespace === 'vision',
    );
    expect(podLists.map((r) => r.status)).toEqual([500, 500, 200]);
  });

  it('fails with exit-3 errors when the Deployment itself is forbidden or the server keeps failing', async () => {
    sim.addFault({ match: { verb: 'get', resource: 'deployments' }, status: 403, times: 1 });
    const forbidden = await collectFromCluster({ kubeconfig: file, ref: TARGET }).catch((e: unknown) => e);
    expect(forbidden).toBeInstanceOf(ClusterError);
    expect((forbidden as Error).message).toBe(
      'cannot get deployments in namespace vision: grant get on deployments',
    );
    sim.addFault({ match: { verb: 'get', resource: 'deployments' }, status: 503, times: 3 });
    const failing = await collectSnapshot(client, TARGET).catch((e: unknown) => e);
    expect(failing).toBeInstanceOf(ClusterError);
    expect((failing as ClusterError).status).toBe(503);
  });

  it('reports a missing Deployment with the namespace searched', async () => {
    const error = await collectFromCluster({
      kubeconfig: file,
      ref: { kind: 'Deployment', namespace: 'vision', name: 'nope' },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WorkloadNotFoundError);
    expect((error as WorkloadNotFoundError).message).toBe(
      'deployment "nope" not found in namespace "vision"',
    );
    expect((error as WorkloadNotFoundError).namespacesSearched).toEqual(['vision']);
    expect((error as WorkloadNotFoundError).suggestions).toEqual([]);
  });

  it('names the closest Deployments of the namespace when the name has a typo', async () => {
    const error = await collectSnapshot(client, { ...TARGET, name: 'vison-object-tracker' }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(WorkloadNotFoundError);
    expect((error as WorkloadNotFoundError).suggestions).toEqual(['vision-object-tracker']);
  });
  it('resolves a pod named by an alert to its Deployment through owner references', async () => {
    await expect(
      resolveWorkloadForPod(client, 'vision', 'vision-object-tracker-7bbc65dc8c-x4xs7'),
    ).resolves.toEqual(TARGET);
    // Filler pods point at ReplicaSets that do not exist in this static cluster.
    await expect(resolveWorkloadForPod(client, 'team-0', 'svc-0-5c7d9-0')).rejects.toThrow(
      'replica set "svc-0-5c7d9" of pod team-0/svc-0-5c7d9-0 no longer exists',
    );
    await expect(resolveWorkloadForPod(client, 'vision', 'gone')).rejects.toBeInstanceOf(
      WorkloadNotFoundError,
    );
  });
});

describe('collector on nodes whose hostname label is not their name', () => {
  it('lists bound nodes by hostname label and fetches the odd one by name', async () => {
    const node = (name: string, hostname: string): object => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name, labels: { 'kubernetes.io/hostname': hostname } },
      status: { allocatable: { cpu: '4', memory: '8Gi', pods: '110' } },
    });
    const owner = (kind: string, name: string, uid: string): object[] => [
      { apiVersion: 'apps/v1', kind, name, uid, controller: true },
    ];
    const pod = (name: string, nodeName: string): object => ({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name,
        namespace: 'web',
        uid: `uid-${name}`,
        labels: { app: 'web' },
        ownerReferences: owner('ReplicaSet', 'web-1', 'uid-rs'),
      },
      spec: { nodeName, containers: [{ name: 'web', image: 'web:1' }] },
      status: { phase: 'Running' },
    });
    const s = await startSimulator({
      controllers: false,
      scenario: [
        node('ip-10-0-0-1.ec2.internal', 'ip-10-0-0-1'),
        node('node-x', 'node-x'),
        node('node-y', 'node-y'),
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'web', namespace: 'web', uid: 'uid-web' },
          spec: {
            replicas: 2,
            selector: { matchLabels: { app: 'web' } },
            template: {
              metadata: { labels: { app: 'web' } },
              spec: { containers: [{ name: 'web', image: 'web:1' }] },
            },
          },
        },
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          metadata: {
            name: 'web-1',
            namespace: 'web',
            uid: 'uid-rs',
            labels: { app: 'web' },
            ownerReferences: owner('Deployment', 'web', 'uid-web'),
          },
          spec: { replicas: 2, selector: { matchLabels: { app: 'web' } } },
        },
        pod('web-1-a', 'ip-10-0-0-1.ec2.internal'),
        pod('web-1-b', 'node-x'),
      ],
    });
    try {
      const { client } = await clientFor(s, 'hostnames');
      const snapshot = await collectSnapshot(client, { kind: 'Deployment', namespace: 'web', name: 'web' });
      expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['ip-10-0-0-1.ec2.internal', 'node-x']);
      // Nothing Pending and nothing scarce: the eligible set was not needed, so it is not claimed complete.
      expect(snapshot.nodesComplete).toBe(false);
      expect(
        s.requests.filter((r) => r.resource === 'nodes').map((r) => `${r.verb} ${r.name ?? ''}`),
      ).toEqual(['list ', 'get ip-10-0-0-1.ec2.internal']);
    } finally {
      await s.close();
    }
  });
});

describe('collector on a DRA GPU cluster (resource.k8s.io/v1)', () => {
  let sim: Simulator;
  let client: KubeClient;

  beforeAll(async () => {
    const { snapshot } = draSeed({
      claims: [claim('notebook-gpu', 'research', { device: 'gpu-1', node: 'gpu-node-1' })],
      gpus: [{ name: 'gpu-0' }, { name: 'gpu-1' }],
    });
    const dra = snapshot.dra;
    const objects = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'research' } },
      snapshot.deployment,
      ...snapshot.replicaSets,
      ...snapshot.pods,
      ...snapshot.events,
      ...snapshot.nodes,
      ...(dra ? [...dra.classes, ...dra.slices, ...dra.templates, ...dra.claims] : []),
    ];
    sim = await startSimulator({ scenario: objects, controllers: false });
    ({ client } = await clientFor(sim, 'dra'));
  });

  afterAll(async () => {
    await sim.close();
  });

  const REF = { kind: 'Deployment' as const, namespace: 'vision', name: 'tracker' };

  it('reads claims of every namespace, the slices, classes and templates, and finds the deadlock', async () => {
    sim.clearRequests();
    const snapshot = await collectSnapshot(client, REF);
    const reads = sim.requests.map((r) => `${r.verb} ${r.resource}${r.namespace ? ` ${r.namespace}` : ''}`);
    expect(reads).toEqual(
      expect.arrayContaining([
        'list resourceclaims',
        'list resourceslices',
        'list deviceclasses',
        'list resourceclaimtemplates vision',
      ]),
    );
    expect(
      reads.filter(
        (r) => (r.includes('resource') || r.includes('deviceclasses')) && !r.includes('resourcequotas'),
      ),
    ).toHaveLength(4);
    expect(snapshot.coverage.dra).toEqual({
      claims: 'all',
      slices: 'complete',
      classes: 'complete',
      templates: 'complete',
    });
    expect(snapshot.dra?.claims.map((c) => c.metadata.namespace).sort()).toEqual([
      'research',
      'vision',
      'vision',
    ]);
    const result = diagnose(snapshot);
    expect(result.findings[0]?.code).toBe('RolloutSurgeDeadlock');
  });

  it('refused the cluster-wide claim list: reads its own namespace, device occupancy unknown, not free', async () => {
    sim.addFault({ match: { verb: 'list', resource: 'resourceclaims' }, status: 403, times: 1 });
    sim.clearRequests();
    const snapshot = await collectSnapshot(client, REF);
    const claimReads = sim.requests
      .filter((r) => r.resource === 'resourceclaims')
      .map((r) => r.namespace ?? '(all)');
    expect(claimReads).toEqual(['(all)', 'vision']);
    expect(snapshot.coverage.dra?.claims).toBe('namespace');
    expect(snapshot.coverage.gaps).toEqual(
      expect.arrayContaining([expect.objectContaining({ about: 'dra', reason: 'forbidden' })]),
    );
    expect(snapshot.dra?.claims.every((c) => c.metadata.namespace === 'vision')).toBe(true);
    // gpu-1 looks free without research's claim: unknown, so never "room" or Unschedulable
    // (the scheduler's refusal in this static cluster is a day old: its counts prove nothing now).
    const codes = diagnose(snapshot).findings.map((f) => f.code);
    expect(codes).not.toContain('Unschedulable');
    expect(codes).toContain('IncompleteEvidence');
  });

  it("refused the cluster-wide claim list, the scheduler's refusal fresh: its counts prove gpu-1 taken", async () => {
    const stale = (sim.list('Event', 'vision') as KubeEvent[]).find((e) => e.reason === 'FailedScheduling');
    if (!stale) throw new Error('no FailedScheduling event in the scenario');
    // The scheduler refuses the pod again (a Pending pod is retried at least every 5 minutes).
    const now = new Date().toISOString();
    sim.apply({
      ...stale,
      metadata: { name: `${stale.metadata.name ?? ''}-again`, namespace: 'vision' },
      firstTimestamp: now,
      lastTimestamp: now,
    });
    sim.addFault({ match: { verb: 'list', resource: 'resourceclaims' }, status: 403, times: 1 });
    const snapshot = await collectSnapshot(client, REF);
    expect(snapshot.coverage.dra?.claims).toBe('namespace');
    const deadlock = diagnose(snapshot).findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(deadlock?.summary).toContain('can never finish');
    expect(deadlock?.explanation).toContain('ResourceClaims of other namespaces could not be read');
    expect(deadlock?.explanation).toContain("the scheduler's message settles it");
  });
});

/** The DRA seed serving nvidia.com/gpu through a DeviceClass, on a simulator without controllers. */
function extendedDraSim(): Promise<Simulator> {
  const { snapshot } = draSeed({ mode: 'extended' });
  const dra = snapshot.dra;
  return startSimulator({
    scenario: [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
      snapshot.deployment,
      ...snapshot.replicaSets,
      ...snapshot.pods,
      ...snapshot.events,
      ...snapshot.nodes,
      ...(dra ? [...dra.classes, ...dra.slices, ...dra.claims] : []),
    ],
    controllers: false,
  });
}

describe('collector on a DRA cluster serving nvidia.com/gpu through a DeviceClass', () => {
  it('lists the DeviceClasses with the pods, then claims, slices and templates only because a class backs the GPU', async () => {
    const sim = await extendedDraSim();
    try {
      const { client } = await clientFor(sim, 'dra-extended');
      sim.clearRequests();
      const collected = await collectSnapshot(client, {
        kind: 'Deployment',
        namespace: 'vision',
        name: 'tracker',
      });
      const draReads = sim.requests
        .filter((r) =>
          ['resourceclaims', 'resourceslices', 'deviceclasses', 'resourceclaimtemplates'].includes(
            r.resource,
          ),
        )
        .map((r) => `${r.verb} ${r.resource}`);
      expect(draReads.sort()).toEqual(
        [
          'list deviceclasses',
          'list resourceclaims',
          'list resourceclaimtemplates',
          'list resourceslices',
        ].sort(),
      );
      expect(collected.coverage.dra?.claims).toBe('all');
      expect(diagnose(collected).findings[0]?.code).toBe('RolloutSurgeDeadlock');
    } finally {
      await sim.close();
    }
  });

  it('a refused ResourceClaimTemplate list is no gap when the template makes no claim from one', async () => {
    const sim = await extendedDraSim();
    try {
      const { client } = await clientFor(sim, 'dra-extended-templates');
      sim.addFault({ match: { verb: 'list', resource: 'resourceclaimtemplates' }, status: 403 });
      const collected = await collectSnapshot(client, {
        kind: 'Deployment',
        namespace: 'vision',
        name: 'tracker',
      });
      expect(collected.coverage.dra?.templates).toBe('unread');
      expect(collected.coverage.gaps.filter((g) => g.what.includes('ResourceClaimTemplates'))).toEqual([]);
      expect(diagnose(collected).findings[0]?.code).toBe('RolloutSurgeDeadlock');
    } finally {
      await sim.close();
    }
  });
});

describe('collector at scale', () => {
  it('makes the same requests at 5,000 nodes and 100,000 pods as at 10 nodes', async () => {
    const small = await startSimulator({
      scenario: generateCluster({ nodes: 10, pods: 100 }),
      controllers: false,
    });
    const smallClient = (await clientFor(small, 'small-2')).client;
    await collectSnapshot(smallClient, TARGET);
    const smallReads = small.requests.map((r) => `${r.verb} ${r.resource} ${r.query ?? ''}`).sort();
    await small.close();

    const large = await startSimulator({
      scenario: generateCluster({ nodes: 5000, pods: 100_000 }),
      controllers: false,
    });
    try {
      const largeClient = (await clientFor(large, 'large')).client;
      const snapshot = await collectSnapshot(largeClient, TARGET);
      const largeReads = large.requests.map((r) => `${r.verb} ${r.resource} ${r.query ?? ''}`).sort();
      expect(largeReads).toEqual(smallReads);
      // 8 before issue 52, plus the namespace's disruption budgets and autoscalers, and
      // the pods waiting for a node (issue 63.3).
      expect(largeReads.length).toBeLessThanOrEqual(11);
      expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['gpu-node-1']);
      expect(diagnose(snapshot).findings[0]?.code).toBe('RolloutSurgeDeadlock');
    } finally {
      await large.close();
    }
  });
});

describe('a StatefulSet at its forced rollback, on 10 and on 5,000 nodes', () => {
  const LEDGER = { kind: 'StatefulSet' as const, namespace: 'payments', name: 'ledger' };

  /** The requests of one collection, and what the diagnosis makes of it. */
  async function readLedger(
    nodes: number,
  ): Promise<{ reads: string[]; nodeNames: string[]; verdict: string }> {
    const sim = await startSimulator({ scenario: statefulSetCluster(nodes), controllers: false });
    try {
      const { client } = await clientFor(sim, `ledger-${nodes}`);
      const snapshot = await collectSnapshot(client, LEDGER);
      const diagnosis = diagnose(snapshot);
      return {
        reads: sim.requests.map((r) => `${r.verb} ${r.resource}${r.name ? ` ${r.name}` : ''}`).sort(),
        nodeNames: snapshot.nodes.map((n) => n.metadata.name ?? '').sort(),
        verdict: `${diagnosis.findings.map((f) => f.code).join(',')} → ${diagnosis.remediations.map((p) => p.kind).join(',')}`,
      };
    } finally {
      await sim.close();
    }
  }

  it('reads the same 10 requests at both sizes: the update revision crashes wherever it runs, so no exclusion is read for', async () => {
    // ledger-2 crash-loops at the update revision and no pod of that revision is healthy
    // anywhere: the crash follows the revision (crash-distribution.ts), no node exclusion
    // can be offered, so neither the nodes the template may use nor the pods beside ours
    // are read; the pods' own nodes come in one hostname list.
    const small = await readLedger(10);
    const large = await readLedger(5000);
    expect(small.reads).toEqual([
      'get pods ledger-2',
      'get statefulsets ledger',
      'list controllerrevisions',
      'list events',
      'list horizontalpodautoscalers',
      'list nodes',
      'list poddisruptionbudgets',
      'list pods',
      'list pods',
      'list resourcequotas',
    ]);
    expect(large.reads).toEqual(small.reads);
    expect(large.nodeNames).toEqual(['node-0', 'node-1', 'node-2']);
    expect(small.nodeNames).toEqual(large.nodeNames);
    expect(large.verdict).toBe('RolloutStuck,CrashLoop → delete-pods');
    expect(small.verdict).toBe(large.verdict);
  });
});
