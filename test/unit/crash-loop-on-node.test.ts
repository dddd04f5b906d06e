import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { assembleSnapshot } from '../../src/diagnosis/snapshot/dump/assemble.js';
import { loadObjects } from '../../src/diagnosis/snapshot/dump/dump.js';
import { crashLoopOnNode } from '../../src/diagnosis/analyzers/crash-loop-on-node.js';
import { crashLoop } from '../../src/diagnosis/analyzers/crash-loop.js';
import type { Evidence } from '../../src/diagnosis/finding.js';
import { diagnose } from '../../src/engine/diagnose.js';
import { CRASH_LOG, crashScenario } from '../support/crash-fixtures.js';
import { NOW, makePod } from '../support/k8s-builders.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';

function evidenceOf<T extends Evidence['type']>(
  evidence: Evidence[],
  type: T,
): Extract<Evidence, { type: T }> {
  const found = evidence.find((e) => e.type === type);
  if (!found) throw new Error(`no ${type} evidence`);
  return found as Extract<Evidence, { type: T }>;
}

describe('CrashLoopOnNode (seed incident B)', () => {
  it('blames node-b when only its pod crash-loops and the same template is Ready on node-a and node-c', () => {
    const { snapshot } = crashScenario();
    const findings = crashLoopOnNode.analyze(new AnalysisContext(snapshot));
    expect(findings).toHaveLength(1);
    const [finding] = findings;
    expect(finding?.code).toBe('CrashLoopOnNode');
    expect(finding?.severity).toBe('critical');
    expect(finding?.summary).toContain('only on node node-b');
    expect(finding?.summary).toContain('node-a, node-c');
    expect(finding?.summary).toContain('last exit code 1 (Error)');
    expect(finding?.summary).toContain(
      'only on node node-b, with kernelVersion 6.8.0-1009-aws: container detector fails in 1 of 3 pods',
    );

    const table = evidenceOf(finding?.evidence ?? [], 'crash-table');
    const b = table.rows.find((r) => r.node === 'node-b');
    expect(b).toMatchObject({
      pods: 1,
      ready: 0,
      restarts: 14,
      crashing: 1,
      lastExitCode: 1,
      lastReason: 'Error',
    });
    expect(b?.logTail).toBe(CRASH_LOG);
    expect(table.rows.find((r) => r.node === 'node-a')).toMatchObject({
      pods: 1,
      ready: 1,
      restarts: 0,
      crashing: 0,
    });
    expect(table.rows[0]?.node).toBe('node-b');

    const diff = evidenceOf(finding?.evidence ?? [], 'node-diff');
    expect(diff.badNodes).toEqual(['node-b']);
    expect(diff.goodNodes).toEqual(['node-a', 'node-c']);
    expect(diff.differences.map((d) => d.field)).toEqual(['kernelVersion', 'osImage']);
    expect(diff.differences[0]).toEqual({
      field: 'kernelVersion',
      bad: '6.8.0-1009-aws',
      good: '5.15.0-105-generic',
      category: 'kernel',
    });
    expect(diff.separator).toEqual({
      fields: ['kernelVersion'],
      bad: '6.8.0-1009-aws',
      good: '5.15.0-105-generic',
    });
    // The io_uring failure in the log tail is a syscall the kernel refuses: it points at the kernel.
    expect(diff.clue).toMatchObject({
      text: 'level=fatal msg="io_uring_setup failed" error="operation not permitted"',
      source: 'log',
      pod: snapshot.pods[1]?.metadata.name,
      container: 'detector',
      pointsAt: 'kernelVersion',
      kind: 'syscall',
    });

    const log = evidenceOf(finding?.evidence ?? [], 'log');
    expect(log).toMatchObject({ container: 'detector', tail: CRASH_LOG });
  });

  it('is not also reported as a plain CrashLoop', () => {
    expect(crashLoop.analyze(new AnalysisContext(crashScenario().snapshot))).toEqual([]);
  });

  it('names both bad nodes when two of five crash-loop', () => {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c', 'node-d', 'node-e'],
      crashing: [1, 3],
    });
    const [finding] = crashLoopOnNode.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('only on nodes node-b, node-d');
    expect(evidenceOf(finding?.evidence ?? [], 'node-diff')).toMatchObject({
      badNodes: ['node-b', 'node-d'],
      goodNodes: ['node-a', 'node-c', 'node-e'],
    });
  });

  it('counts a container running again after a recent crash as crashing (back-off not reset yet)', () => {
    const scenario = crashScenario();
    const b = scenario.pods[1];
    if (!b?.status?.containerStatuses?.[0]) throw new Error('fixture');
    // Restarted 2 minutes before the snapshot: the kubelet resets back-off only after 10 minutes.
    b.status.containerStatuses[0].state = { running: { startedAt: '2026-11-22T02:58:00Z' } };
    expect(crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot))).toHaveLength(1);
    // Running cleanly for more than 10 minutes: recovered, nothing to report. Snapshots
    // are immutable by contract (analysis is cached per snapshot object), so the
    // changed pod goes into a new snapshot.
    b.status.containerStatuses[0].state = { running: { startedAt: '2026-11-22T02:40:00Z' } };
    expect(crashLoopOnNode.analyze(new AnalysisContext({ ...scenario.snapshot }))).toEqual([]);
  });
});

describe('look-alikes that are not node-local', () => {
  it('crashing on every node is CrashLoop, not CrashLoopOnNode, and gets no exclude-node plan', () => {
    const { snapshot } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [0, 1, 2] });
    expect(crashLoopOnNode.analyze(new AnalysisContext(snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('CrashLoop');
    expect(finding?.summary).toContain('on every node it runs on (node-a, node-b, node-c)');
    expect(finding?.summary).toContain('3 of 3 pods');
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toContain('CrashLoop');
    expect(result.findings.map((f) => f.code)).not.toContain('CrashLoopOnNode');
    expect(result.remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });

  it('one node alone is not "every node": the finding says it is the only node, and that one node cannot tell (issue 55)', () => {
    // One sample: a single replica, crashing on the only node it ever ran on.
    const { snapshot } = crashScenario({ placement: ['node-a'], crashing: [0] });
    const [finding] = crashLoop.analyze(new AnalysisContext(snapshot));
    expect(finding?.code).toBe('CrashLoop');
    expect(finding?.summary).not.toContain('every node');
    expect(finding?.summary).toContain('crash-loops on node-a, the only node it runs on');
    expect(finding?.explanation).toContain(
      'one node cannot tell a fault of the node from one of the container',
    );
    expect(finding?.explanation).not.toContain('not in one node');
  });

  it('one crashing pod next to a healthy pod of the same template on the same node is not node-local', () => {
    const scenario = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [1] });
    const sibling = makePod(scenario.replicaSet, 'z1z1z', 'node-b', { phase: 'Running' });
    scenario.snapshot.pods.push(sibling);
    expect(crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(scenario.snapshot));
    expect(finding?.evidence.some((e) => e.type === 'note' && e.text.includes('node-b'))).toBe(true);
    expect(diagnose(scenario.snapshot).remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });

  it('a healthy pod of an OLD template elsewhere does not make the new template node-local', () => {
    const scenario = crashScenario({ placement: ['node-a', 'node-b'], crashing: [0, 1] });
    const oldRs = { ...scenario.replicaSet, metadata: { ...scenario.replicaSet.metadata } };
    oldRs.metadata.name = 'detector-5f6b7c8d9';
    oldRs.metadata.labels = { app: 'detector', 'pod-template-hash': '5f6b7c8d9' };
    oldRs.metadata.annotations = { 'deployment.kubernetes.io/revision': '1' };
    const template = structuredClone(scenario.replicaSet.spec.template);
    if (template?.metadata?.labels) template.metadata.labels['pod-template-hash'] = '5f6b7c8d9';
    oldRs.spec = { ...oldRs.spec, ...(template ? { template } : {}) };
    scenario.snapshot.replicaSets.push(oldRs);
    scenario.snapshot.pods.push(makePod(oldRs, 'o1o1o', 'node-c', { phase: 'Running' }));
    expect(crashLoopOnNode.analyze(new AnalysisContext(scenario.snapshot))).toEqual([]);
    expect(crashLoop.analyze(new AnalysisContext(scenario.snapshot))).toHaveLength(1);
  });

  it('more bad nodes than good ones with nothing but the node itself to tell them apart is CrashLoop', () => {
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b', 'node-c'],
      crashing: [0, 1],
      oddNodes: [],
    });
    expect(crashLoopOnNode.analyze(new AnalysisContext(snapshot))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(snapshot));
    expect(finding?.summary).toContain('on node-a, node-b');
    expect(finding?.evidence).toContainEqual({
      type: 'note',
      text: expect.stringContaining(
        'no node attribute that could cause a crash (conditions, CPU, kernel, runtime, OS image, kubelet, taints) separates',
      ),
    });
    expect(diagnose(snapshot).remediations.filter((r) => r.kind === 'exclude-node')).toEqual([]);
  });

  it('more bad nodes than good ones whose Node objects were not read is CrashLoop that says what to read', () => {
    const { snapshot } = crashScenario({ placement: ['node-a', 'node-b', 'node-c'], crashing: [0, 1] });
    const unread = { ...snapshot, nodes: [] };
    expect(crashLoopOnNode.analyze(new AnalysisContext(unread))).toEqual([]);
    const [finding] = crashLoop.analyze(new AnalysisContext(unread));
    expect(JSON.stringify(finding?.evidence)).toContain('kubectl get nodes -o yaml');
  });
});

describe('relief run forward (issue 52)', () => {
  it('deleting the crashing pod is not offered where its replacement can only land on the same node (a host port each node holds once)', () => {
    const ports = [{ containerPort: 8080, hostPort: 8080 }];
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b'],
      crashing: [1],
      deployment: { ports },
    });
    const result = diagnose(snapshot);
    expect(result.findings.map((f) => f.code)).toContain('CrashLoopOnNode');
    // No other node takes the port: neither the exclusion nor the deletion moves the crash.
    expect(result.remediations.map((r) => r.kind)).not.toContain('delete-pods');
    expect(result.notOffered?.find((n) => n.kind === 'delete-pods')?.reason).toContain(
      'their replacements crash-loop again on node-b and no more pods serve, so it relieves nothing',
    );
  });

  it('beside an exclusion that moves the crash (a spare node), deleting it is offered, warning the scheduler may put it back', () => {
    const ports = [{ containerPort: 8080, hostPort: 8080 }];
    const { snapshot } = crashScenario({
      placement: ['node-a', 'node-b'],
      crashing: [1],
      spareNodes: ['node-c'],
      deployment: { ports },
    });
    const result = diagnose(snapshot);
    expect(result.remediations.map((r) => r.kind)).toEqual(['exclude-node', 'delete-pods']);
    expect(result.remediations[1]?.warnings[0]).toBe(
      'The scheduler may place the replacements on node-b again, where they crash: the fix above keeps them off it.',
    );
  });
});

describe('seed B from a kubectl List dump', () => {
  it('gives the node verdict with exclude-node and delete-pods plans', () => {
    const { snapshot, deployment, replicaSet, pods, nodes } = crashScenario();
    const dump = stringify({
      apiVersion: 'v1',
      kind: 'List',
      metadata: { resourceVersion: '' },
      items: [deployment, replicaSet, ...pods, ...nodes],
    });
    const assembled = assembleSnapshot(snapshot.target, loadObjects(dump), {
      capturedAt: NOW,
      logs: snapshot.logs,
    });
    const result = diagnose(assembled);
    expect(result.findings.map((f) => f.code)).toEqual(['CrashLoopOnNode']);
    expect(result.remediations.map((r) => r.kind)).toEqual(['exclude-node', 'delete-pods']);
    expect(result.remediations[1]?.pods?.map((p) => p.name)).toEqual([pods[1]?.metadata.name]);
  });
});
