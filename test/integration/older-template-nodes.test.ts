/**
 * A Pending pod of an older template (its ReplicaSet recreated it after an eviction)
 * may select other nodes than the current template: the collector lists nodes by the
 * template's selector, and every path kept only the nodes that selector (or a bound pod)
 * names. The old pod was then judged against nodes it can never use: "none of the 2
 * nodes matches its nodeSelector pool=a" with the advice to relabel a node, while pool a
 * exists and is full. Its own selection is read and kept now.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { createKubeClient } from '../../src/kube/client.js';
import { collectSnapshot } from '../../src/kube/read/collector.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { WorkloadRef } from '../../src/diagnosis/snapshot/types.js';
import type { KubeObject } from '../../src/diagnosis/k8s.js';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { makeDeployment, makeEvent, makeNode, makePod, makeReplicaSet } from '../support/k8s-builders.js';

const TARGET: WorkloadRef = { kind: 'Deployment', namespace: 'shop', name: 'web' };
const MESSAGE =
  "0/4 nodes are available: 2 Insufficient cpu, 2 node(s) didn't match Pod's node affinity/selector. preemption: 0/4 nodes are available: 2 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.";

/** web moved from pool a to pool b; its old pod, evicted and recreated, waits for cpu in pool a. */
function cluster(): object[] {
  const deployment = makeDeployment('web', {
    namespace: 'shop',
    generation: 3,
    podSpec: { nodeSelector: { pool: 'b' } },
    status: {
      observedGeneration: 3,
      replicas: 2,
      updatedReplicas: 1,
      availableReplicas: 0,
      unavailableReplicas: 1,
    },
  });
  const oldTemplate = structuredClone(deployment.spec.template);
  oldTemplate.spec.nodeSelector = { pool: 'a' };
  const container = oldTemplate.spec.containers[0];
  if (container) container.resources = { requests: { cpu: '6' } };
  const oldRs = makeReplicaSet(deployment, 'aaaa1111', { revision: 1, template: oldTemplate });
  const newRs = makeReplicaSet(deployment, 'bbbb2222', { revision: 2 });
  const old = makePod(oldRs, 'x1', undefined, { phase: 'Pending' });
  const condition = old.status?.conditions?.[0];
  if (condition) condition.message = MESSAGE;
  const fresh = makePod(newRs, 'y2', 'b-1', {
    phase: 'Running',
    ready: false,
    startedAt: '2026-11-22T02:59:00Z',
  });
  const event = makeEvent(
    { kind: 'Pod', name: old.metadata.name, namespace: 'shop', uid: old.metadata.uid },
    'FailedScheduling',
    MESSAGE,
  );
  const batch = makeReplicaSet(
    makeDeployment('batch', { namespace: 'jobs', container: { resources: { requests: { cpu: '4' } } } }),
    'cccc3333',
  );
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } },
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'jobs' } },
    makeNode('a-1', { labels: { pool: 'a' } }),
    makeNode('a-2', { labels: { pool: 'a' } }),
    makeNode('b-1', { labels: { pool: 'b' } }),
    makeNode('b-2', { labels: { pool: 'b' } }),
    deployment,
    oldRs,
    newRs,
    old,
    fresh,
    event,
    makePod(batch, 'h0', 'a-1', { phase: 'Running' }),
    makePod(batch, 'h1', 'a-2', { phase: 'Running' }),
  ];
}

let dir: string;
let sim: Simulator;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'older-template-'));
  sim = await startSimulator({ scenario: cluster(), controllers: false });
});

afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a Pending pod of an older template selecting other nodes', () => {
  it('reads the nodes it selects and never says none matches', async () => {
    const file = join(dir, 'kubeconfig');
    writeFileSync(file, sim.kubeconfig);
    const snapshot = await collectSnapshot(createKubeClient({ kubeconfig: file }), TARGET);
    expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['a-1', 'a-2', 'b-1', 'b-2']);
    expect(sim.requests.filter((r) => r.verb === 'list' && r.resource === 'nodes')).toHaveLength(2);

    // Pool a's other pods were not read: the old pod's verdict says so instead of guessing.
    const findings = diagnose(snapshot).findings;
    expect(findings.map((f) => f.code)).toEqual(['IncompleteEvidence']);
    expect(findings[0]?.summary).toContain('Pod web-aaaa1111-x1 is Pending');
    expect(findings[0]?.summary).toContain('pods of other workloads on a-1, a-2');
    expect(findings.map((f) => f.summary).join('\n')).not.toMatch(/matches its nodeSelector/);
  });

  it('names the older selection among the reads that settle it when node lists are refused', async () => {
    const file = join(dir, 'kubeconfig-refused');
    writeFileSync(file, sim.kubeconfig);
    sim.addFault({ match: { verb: 'list', resource: 'nodes' }, status: 403 });
    try {
      const snapshot = await collectSnapshot(createKubeClient({ kubeconfig: file }), TARGET);
      expect(snapshot.coverage.nodes).toBe('unread');
      expect(snapshot.coverage.gaps).toContainEqual({
        about: 'nodes',
        what: 'nodes pool=a (selected by Pending pods of an older template)',
        reason: 'forbidden',
        settle: "kubectl get nodes -l 'pool=a' -o yaml",
      });
      expect(
        diagnose(snapshot)
          .findings.map((f) => f.summary)
          .join('\n'),
      ).not.toMatch(/matches its nodeSelector/);
    } finally {
      sim.clearFaults();
    }
  });

  it('from a dump of the same cluster: pool a is full, so Unschedulable for cpu, not for selection', () => {
    const snapshot = assembleSnapshot(TARGET, cluster() as KubeObject[]);
    expect(snapshot.nodes.map((n) => n.metadata.name)).toEqual(['a-1', 'a-2', 'b-1', 'b-2']);
    const findings = diagnose(snapshot).findings;
    expect(findings.map((f) => f.code)).toEqual(['Unschedulable']);
    expect(findings[0]?.summary).toBe(
      'Pod web-aaaa1111-x1 is Pending: it needs 6 cpu (8 allocatable, 4 in use) and none of the 2 nodes it may use has room for it even with the old pods gone.',
    );
  });
});
