/**
 * A rollout blocked only while other teams' Jobs run (forward/job-wait.ts): a Job's pods
 * end by themselves, so the verdict names the Jobs it waits for instead of "never", and
 * the run with their pods gone is the proof. Pods a controller keeps running (a
 * ReplicaSet's) stay: the words stay as they were. Only the Jobs the run needs are named.
 */
import { describe, expect, it } from 'vitest';
import type { Container, Pod } from '../../src/diagnosis/k8s.js';

type ContainerPort = NonNullable<Container['ports']>[number];
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { findingSummary } from '../../src/message/words/finding.js';
import { makeNode, makePod } from '../support/k8s-builders.js';
import { edgeIngress, pendingRolloutSnapshot, PORTS_MESSAGE, rollout } from '../support/rollout-scenarios.js';

/** A running pod of `owner` (a Job unless said) in namespace batch on `node`, holding `ports`. */
function neighbour(
  name: string,
  node: string,
  ports: ContainerPort[],
  owner: { kind: string; apiVersion: string; name: string } = { kind: 'Job', apiVersion: 'batch/v1', name },
): Pod {
  const pod = makePod(rollout('x', { oldNodes: [node] }).oldRs, 'zz', node, { phase: 'Running' });
  pod.metadata = {
    ...pod.metadata,
    name: `${name}-${node}`,
    namespace: 'batch',
    uid: `uid-${name}-${node}`,
    labels: { app: name },
    ownerReferences: [{ ...owner, uid: `uid-${owner.name}`, controller: true }],
  };
  const container = pod.spec.containers[0];
  if (container) container.ports = ports;
  return pod;
}

const PORT_8080: ContainerPort[] = [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }];

/** The edge ingress deadlock with a fourth edge node whose hostPort 8080 `holder` holds. */
function fourthNodeHeld(...others: Pod[]): DeploymentSnapshot {
  const snapshot = edgeIngress();
  return {
    ...snapshot,
    nodes: [...snapshot.nodes, makeNode('edge-4', { labels: { pool: 'edge' } })],
    otherPods: [...snapshot.otherPods, ...others],
  };
}

function verdict(snapshot: DeploymentSnapshot, code: string): { summary: string; notes: string[] } {
  const finding = diagnose(snapshot).findings.find((f) => f.code === code);
  return {
    summary: finding?.summary ?? '(none)',
    notes: (finding?.evidence ?? []).flatMap((e) => (e.type === 'note' ? [e.text] : [])),
  };
}

describe('a rollout that waits for Jobs to end', () => {
  it('a surge deadlock whose only other room a Job holds goes on once that Job ends', () => {
    const { summary, notes } = verdict(
      fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080)),
      'RolloutSurgeDeadlock',
    );
    // The headline (the summary's first clause) names the Job, not "never".
    expect(summary.split(':')[0]).toBe(
      'Rollout of ingress cannot finish while Job batch/nightly-report runs',
    );
    expect(summary).toMatch(/It goes on by itself once that Job ends\.$/);
    const proof = notes.find((n) => n.startsWith('Pods of Job batch/nightly-report'));
    expect(proof).toContain('nightly-report-edge-4 on edge-4');
    // The run's steps leave out the Job's own going: the note says that once, above.
    expect(proof).not.toContain('terminating pod nightly-report-edge-4');
    expect(proof).toMatch(
      /Run forward with them gone, the controllers finish the rollout, whichever pending pod the scheduler takes first: .*becomes Ready/,
    );
    // A Korean reader gets the headline that names the Job, in Korean, with the wait.
    const lead = diagnose(fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080))).findings[0];
    expect(lead && findingSummary(lead, 'ko')).toContain(
      'batch/nightly-report Job이 실행되는 동안에는 끝나지 않습니다',
    );
    expect(lead && findingSummary(lead, 'ko')).toContain('Job이 끝나면 스스로 이어집니다.');
  });

  it('the same room held by a ReplicaSet pod: it stays, and no Job is named', () => {
    const keeper = neighbour('cache', 'edge-4', PORT_8080, {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      name: 'cache-5d9c',
    });
    const { summary, notes } = verdict(fourthNodeHeld(keeper), 'RolloutSurgeDeadlock');
    expect(summary).not.toContain('Job');
    expect(notes.join(' ')).not.toContain('A Job');
  });

  it('a Job whose pods hold nothing the rollout needs is not named beside the one that does', () => {
    const { summary } = verdict(
      fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080), neighbour('etl', 'edge-1', [])),
      'RolloutSurgeDeadlock',
    );
    expect(summary).toContain('while Job batch/nightly-report runs');
    expect(summary).not.toContain('etl');
  });

  it('a pod no node takes while a Job holds its port: it goes on once the Job ends', () => {
    // The new template asks for hostPort 9090, which the Job's pods hold on every edge node.
    const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
    const parts = rollout('ingress', {
      oldNodes: ['edge-1', 'edge-2', 'edge-3'],
      ports: [{ containerPort: 9090, hostPort: 9090, protocol: 'TCP' }],
      podSpec: { nodeSelector: { pool: 'edge' } },
      oldTemplate: (t) => {
        const container = t.spec.containers[0];
        if (container) container.ports = [];
      },
    });
    const jobs = ['edge-1', 'edge-2', 'edge-3'].map((n) =>
      neighbour('reindex', n, [{ containerPort: 9090, hostPort: 9090, protocol: 'TCP' }]),
    );
    const snapshot = pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE, { otherPods: jobs });
    const { summary, notes } = verdict(snapshot, 'Unschedulable');
    expect(summary).toMatch(
      /already bound by reindex-edge-1 .* It goes on by itself once Job batch\/reindex ends\.$/,
    );
    expect(summary).not.toContain('never');
    expect(notes.some((n) => n.includes('reindex-edge-1 on edge-1, reindex-edge-2 on edge-2'))).toBe(true);
  });

  it('"can never finish" becomes "cannot finish while" the Job runs', () => {
    // Three replicas move from one GPU to two: with the old pods gone 2 of 3 fit, as the
    // Job holds both of gpu-2's; once it ends the rollout finishes.
    const gpu = (name: string, n: string) => makeNode(name, { allocatable: { 'nvidia.com/gpu': n } });
    const parts = rollout('ranker', {
      oldNodes: ['gpu-1', 'gpu-1', 'gpu-1'],
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 1 } },
      resources: { limits: { 'nvidia.com/gpu': '2' }, requests: { 'nvidia.com/gpu': '2' } },
      oldTemplate: (t) => {
        const container = t.spec.containers[0];
        if (container)
          container.resources = { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } };
      },
    });
    const job = neighbour('embed', 'gpu-2', []);
    const container = job.spec.containers[0];
    if (container)
      container.resources = { requests: { 'nvidia.com/gpu': '2' }, limits: { 'nvidia.com/gpu': '2' } };
    const snapshot = pendingRolloutSnapshot(
      parts,
      [gpu('gpu-1', '4'), gpu('gpu-2', '2')],
      '0/2 nodes are available: 2 Insufficient nvidia.com/gpu.',
      { otherPods: [job] },
    );
    const { summary } = verdict(snapshot, 'Unschedulable');
    expect(summary).toMatch(
      /^The rollout cannot finish while Job batch\/embed runs: even with this workload's old pods gone/,
    );
    expect(summary).toMatch(/It goes on by itself once that Job ends\.$/);
  });

  it('many Jobs: the headline names five and counts the rest', () => {
    // More Jobs than are tried one by one: each is named, five of them, and the rest counted.
    // A Job on a node the new pods may not use (no pool=edge label) is not one of them.
    const idle = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((j) => neighbour(`etl-${j}`, 'edge-1', []));
    const snapshot = fourthNodeHeld(
      neighbour('nightly-report', 'edge-4', PORT_8080),
      neighbour('offsite', 'batch-1', PORT_8080),
      ...idle,
    );
    snapshot.nodes.push(makeNode('batch-1'));
    const { summary } = verdict(snapshot, 'RolloutSurgeDeadlock');
    expect(summary).toContain(
      'while Jobs batch/etl-a, batch/etl-b, batch/etl-c, batch/etl-d, batch/etl-e and 3 more hold the room',
    );
  });

  it('a pending pod of another workload that may take the freed room first: no claim', () => {
    // A ReplicaSet's Pending pod of the same priority waits for hostPort 8080 too: if the
    // scheduler takes it first, it gets edge-4 once the Job ends, and ours still waits.
    const rival = neighbour('proxy', 'edge-4', PORT_8080, {
      kind: 'ReplicaSet',
      apiVersion: 'apps/v1',
      name: 'proxy-7c',
    });
    const { nodeName: _bound, ...unbound } = rival.spec;
    const pending: Pod = { ...rival, spec: unbound, status: { phase: 'Pending' } };
    const snapshot = {
      ...fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080)),
      pendingPods: [pending],
    };
    const { summary, notes } = verdict(snapshot, 'RolloutSurgeDeadlock');
    expect(summary).not.toContain('Job');
    expect(notes.join(' ')).not.toContain('A Job');
  });

  it('a Job on a node whose kubelet does not report: its pod stays, no claim', () => {
    const snapshot = fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080));
    const edge4 = snapshot.nodes.find((n) => n.metadata.name === 'edge-4');
    if (edge4) edge4.status = { ...edge4.status, conditions: [{ type: 'Ready', status: 'Unknown' }] };
    expect(verdict(snapshot, 'RolloutSurgeDeadlock').summary).not.toContain('Job');
  });

  it("a Job named like a CronJob's run: the note says the next run may take the room again", () => {
    const { notes } = verdict(
      fourthNodeHeld(neighbour('report-29412345', 'edge-4', PORT_8080)),
      'RolloutSurgeDeadlock',
    );
    expect(notes.find((n) => n.startsWith('Pods of Job batch/report-29412345'))).toContain(
      "A Job named like a CronJob's run may be followed by the next run",
    );
    const { notes: plain } = verdict(
      fourthNodeHeld(neighbour('nightly-report', 'edge-4', PORT_8080)),
      'RolloutSurgeDeadlock',
    );
    expect(plain.join(' ')).not.toContain('CronJob');
  });

  it('two Jobs each holding room enough: "once enough of them end", not both', () => {
    const snapshot = fourthNodeHeld(
      neighbour('backup', 'edge-4', PORT_8080),
      neighbour('scrub', 'edge-5', PORT_8080),
    );
    snapshot.nodes.push(makeNode('edge-5', { labels: { pool: 'edge' } }));
    const { summary, notes } = verdict(snapshot, 'RolloutSurgeDeadlock');
    expect(summary.split(':')[0]).toBe(
      'Rollout of ingress cannot finish while Jobs batch/backup, batch/scrub hold the room',
    );
    expect(summary).toMatch(/It goes on by itself once enough of them end\.$/);
    expect(notes.join(' ')).toContain('Not each of them must end');
    // Each plan says first that waiting may be enough; with a ReplicaSet's pod there, none does.
    const result = diagnose(snapshot);
    const lead = result.findings.find((f) => f.code === 'RolloutSurgeDeadlock');
    expect(lead?.waitsFor).toEqual({ holders: 'jobs', names: ['batch/backup', 'batch/scrub'], some: true });
    const plans = result.remediations.filter((p) => lead?.remediations.includes(p.id));
    expect(plans.length).toBeGreaterThan(0);
    for (const plan of plans)
      expect(plan.warnings[0]).toBe(
        'Waiting may be enough: the rollout goes on by itself once enough of Jobs batch/backup, batch/scrub end (run forward with their pods gone). This plan acts now, at the cost its impact says.',
      );
    const kept = diagnose(
      fourthNodeHeld(
        neighbour('cache', 'edge-4', PORT_8080, {
          kind: 'ReplicaSet',
          apiVersion: 'apps/v1',
          name: 'cache-5d9c',
        }),
      ),
    );
    expect(kept.remediations.length).toBeGreaterThan(0);
    for (const plan of kept.remediations)
      expect(plan.warnings.join(' ')).not.toContain('Waiting may be enough');
  });
});
