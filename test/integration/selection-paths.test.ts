/**
 * The live collector, `scan` and a dump choose a Deployment's objects with one
 * function, so the same objects give the same diagnosis on all three paths (issue 13
 * item 8). The cluster holds incident A (a GPU surge deadlock, with another team's
 * GPU pod on a node) and a Deployment whose pods the kubelet kills for a failing
 * liveness probe: the Killing events are Normal, as the kubelet writes them, and
 * scan must see them too.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import type { KubeObject, Pod } from '../../src/diagnosis/k8s.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import { createKubeClient, type KubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { scanCluster } from '../../src/kube/read/scan.js';
import { makeDeployment, makeEvent, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const FIXTURE = new URL('../fixtures/dumps/incident-a-gpu-surge.yaml', import.meta.url).pathname;
const INCIDENT_A: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'vision-object-tracker' };
const PROBES: WorkloadRef = { kind: 'Deployment', namespace: 'vision', name: 'detector' };

function probeFailing(): KubeObject[] {
  const deployment = makeDeployment('detector', {
    namespace: 'vision',
    replicas: 1,
    container: {
      livenessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5, failureThreshold: 3 },
      readinessProbe: { httpGet: { path: '/ready', port: 8080 }, periodSeconds: 10, failureThreshold: 6 },
    },
    status: { observedGeneration: 2, replicas: 1, updatedReplicas: 1, unavailableReplicas: 1 },
  });
  const rs = makeReplicaSet(deployment, '7c9d8f5b6', { revision: 2 });
  const pod: Pod = makePod(rs, 'q4w8z', 'cpu-node-1', {
    phase: 'Running',
    ready: false,
    restarts: 6,
    lastExit: { exitCode: 137 },
  });
  const involved = { kind: 'Pod', name: pod.metadata.name, namespace: 'vision', uid: pod.metadata.uid };
  const kubelet = { component: 'kubelet', fieldPath: 'spec.containers{detector}', host: 'cpu-node-1' };
  return [
    deployment,
    rs,
    pod,
    makeEvent(
      involved,
      'Unhealthy',
      'Liveness probe failed: Get "http://10.0.1.5:8080/healthz": dial tcp 10.0.1.5:8080: connect: connection refused',
      { ...kubelet, count: 18 },
    ),
    makeEvent(involved, 'Killing', 'Container detector failed liveness probe, will be restarted', {
      ...kubelet,
      count: 6,
    }),
  ] as unknown as KubeObject[];
}

const objects: KubeObject[] = [...loadObjects(readFileSync(FIXTURE, 'utf8')), ...probeFailing()];
const capturedAt = '2026-11-22T03:00:00Z';

/** What a reader compares: code, severity and summary of each finding, in order. */
function verdicts(snapshot: Parameters<typeof diagnose>[0]): string[] {
  return diagnose({ ...snapshot, capturedAt })
    .findings.filter((f) => f.code !== 'AccessDenied')
    .map((f) => `${f.code} ${f.severity}: ${f.summary}`);
}

let dir: string;
let sim: Simulator;
let client: KubeClient;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'selection-paths-'));
  sim = await startSimulator({ scenario: objects, controllers: false });
  const file = join(dir, 'kubeconfig');
  writeFileSync(file, sim.kubeconfig);
  client = createKubeClient({ kubeconfig: file, retry: { attempts: 2, baseMs: 5, maxMs: 10 } });
});

afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('one selection for live, scan and dump', () => {
  for (const ref of [INCIDENT_A, PROBES]) {
    it(`${ref.name}: the live collector and the dump give the same findings`, async () => {
      const live = verdicts(await collectSnapshot(client, ref));
      const dump = verdicts(assembleSnapshot(ref, objects));
      expect(live.length).toBeGreaterThan(0);
      expect(dump).toEqual(live);
    });
  }

  it('scan lists both with the findings diagnose gives, Normal Killing events included', async () => {
    const report = await scanCluster(client, { namespace: 'vision' });
    for (const ref of [INCIDENT_A, PROBES]) {
      const entry = report.entries.find((e) => e.name === ref.name);
      const scanned = (entry?.findings ?? []).map((f) => `${f.code} ${f.severity}: ${f.summary}`);
      const live = verdicts(await collectSnapshot(client, ref));
      expect(scanned).toEqual(live);
    }
    const probes = report.entries.find((e) => e.name === 'detector');
    expect(probes?.findings[0]?.code).toBe('ProbeFailure');
    expect(probes?.findings[0]?.summary).toMatch(/killed 6 time\(s\) by its liveness probe/);
  });
});

describe('what the collector could not read', () => {
  it('nodes forbidden (a namespace-scoped user): coverage says so, the deadlock is proved from the counts', async () => {
    sim.addFault({ match: { verb: 'list', resource: 'nodes' }, status: 403, times: 2 });
    const snapshot = await collectSnapshot(client, INCIDENT_A);
    expect(snapshot.coverage.nodes).toBe('unread');
    expect(snapshot.coverage.gaps).toContainEqual(
      expect.objectContaining({
        about: 'nodes',
        reason: 'forbidden',
        settle: 'grant list on nodes (cluster-wide)',
      }),
    );
    const result = diagnose(snapshot);
    expect(result.findings[0]?.code).toBe('RolloutSurgeDeadlock');
    expect(new Set(result.findings.slice(1).map((f) => f.code))).toEqual(new Set(['AccessDenied']));
    expect(result.findings[0]?.explanation).toContain("the scheduler's message settles it");
    expect(result.remediations.map((p) => p.kind)).toEqual(
      expect.arrayContaining(['set-rolling-update', 'set-recreate']),
    );
  });

  it("other workloads' pods are read on every eligible node, and where that is refused occupancy is unknown", async () => {
    const full = await collectSnapshot(client, INCIDENT_A);
    expect(full.coverage.podsReadOn).toEqual(['gpu-node-1']);
    // Every cluster-wide read of pods refused: the pods waiting for a node (rivals) and those per node.
    sim.addFault({ match: { verb: 'list', resource: 'pods', namespace: '' }, status: 403, times: 2 });
    const refused = await collectSnapshot(client, INCIDENT_A);
    expect(refused.coverage.podsReadOn).toEqual([]);
    // The old pod holds every GPU the new pod asks for, so the proof does not need the neighbours.
    expect(diagnose(refused).findings[0]?.code).toBe('RolloutSurgeDeadlock');
  });
});
