/**
 * Topology spread in the placement model (issue 29.3, DESIGN.md §4b): a surge pod that
 * a DoNotSchedule constraint keeps off every node while the old pods count, and that
 * fits once an old pod goes, is the surge deadlock (not Unschedulable "the snapshot
 * shows room"); the tainted node the pod cannot use still counts as an empty domain
 * (nodeTaintsPolicy defaults to Ignore), which names the lasting fix; the selector's
 * matchLabelKeys, minDomains and terminating pods are counted as the plugin counts them.
 */
import { describe, expect, it } from 'vitest';
import { diagnose } from '../../src/engine/diagnose.js';
import type { Pod, TopologySpreadConstraint } from '../../src/diagnosis/k8s.js';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import { placementContext } from '../../src/diagnosis/placement/placement.js';
import { spreadBlockers } from '../../src/diagnosis/placement/topology-spread.js';
import { makeNode } from '../support/k8s-builders.js';
import { pendingRolloutSnapshot, rollout } from '../support/rollout-scenarios.js';

const MESSAGE =
  "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: batch}, 2 node(s) didn't match pod topology spread constraints. preemption: 0/3 nodes are available: 1 Preemption is not helpful for scheduling, 2 No preemption victims found for incoming pod.";

function spreadRollout(constraint: Partial<TopologySpreadConstraint> = {}) {
  const parts = rollout('web', {
    oldNodes: ['node-a', 'node-b'],
    podSpec: {
      topologySpreadConstraints: [
        {
          maxSkew: 1,
          topologyKey: 'kubernetes.io/hostname',
          whenUnsatisfiable: 'DoNotSchedule',
          labelSelector: { matchLabels: { app: 'web' } },
          ...constraint,
        },
      ],
    },
  });
  const nodes = [
    makeNode('node-a'),
    makeNode('node-b'),
    makeNode('node-c', { taints: [{ key: 'dedicated', value: 'batch', effect: 'NoSchedule' }] }),
  ];
  return { parts, snapshot: pendingRolloutSnapshot(parts, nodes, MESSAGE) };
}

describe('topology spread', () => {
  it('old pods filling the spread: the surge deadlock, with nodeTaintsPolicy: Honor as the lasting fix', () => {
    const diagnosis = diagnose(spreadRollout().snapshot);
    const [first] = diagnosis.findings;
    expect(first?.code).toBe('RolloutSurgeDeadlock');
    expect(first?.summary).toContain('topology spread');
    expect(first?.explanation).toContain('nodeTaintsPolicy: Honor');
    expect(diagnosis.remediations.map((p) => p.kind)).toContain('set-rolling-update');
  });

  it('counts as the plugin does: matchLabelKeys narrows to the revision, minDomains lowers the minimum, terminating pods do not count', () => {
    const { snapshot, parts } = spreadRollout();
    const ctx = new AnalysisContext(snapshot);
    const pending = parts.newPods[0] as Pod;
    const nodeA = snapshot.nodes.find((n) => n.metadata.name === 'node-a');
    if (!nodeA) throw new Error('node-a');
    const none = new Set<Pod>();
    // Default: node-c (tainted, Ignore) is an empty domain: 1 + 1 − 0 = 2 > 1.
    expect(spreadBlockers(placementContext(ctx), pending, nodeA, none)).toMatchObject([
      { kind: 'topology-spread', domain: 'node-a', skew: 2, lastingFix: 'nodeTaintsPolicy' },
    ]);
    // Honor: node-c is no domain, the minimum is 1: 1 + 1 − 1 = 1, it fits.
    const honor = structuredClone(pending);
    const c = honor.spec.topologySpreadConstraints?.[0];
    if (!c) throw new Error('constraint');
    c.nodeTaintsPolicy = 'Honor';
    expect(spreadBlockers(placementContext(ctx), honor, nodeA, none)).toEqual([]);
    // minDomains 4 with 2 domains (Honor): the minimum counts as 0 again.
    c.minDomains = 4;
    expect(spreadBlockers(placementContext(ctx), honor, nodeA, none)).toMatchObject([{ skew: 2 }]);
    // matchLabelKeys [pod-template-hash]: only this revision counts, 0 + 1 − 0.
    const ownRevision = structuredClone(pending);
    const own = ownRevision.spec.topologySpreadConstraints?.[0];
    if (!own) throw new Error('constraint');
    own.matchLabelKeys = ['pod-template-hash'];
    expect(spreadBlockers(placementContext(ctx), ownRevision, nodeA, none)).toEqual([]);
    // The old pod on node-a terminating: not counted.
    const terminating = structuredClone(snapshot);
    const old = terminating.pods.find((p) => p.spec.nodeName === 'node-a');
    if (old) old.metadata.deletionTimestamp = '2026-11-22T02:59:50Z';
    const tctx = new AnalysisContext(terminating);
    const tNodeA = terminating.nodes.find((n) => n.metadata.name === 'node-a');
    const tPending = terminating.pods.find((p) => !p.spec.nodeName);
    if (!tNodeA || !tPending) throw new Error('fixture');
    expect(spreadBlockers(placementContext(tctx), tPending, tNodeA, none)).toEqual([]);
  });

  it("counts only pods of the incoming pod's namespace: a matching pod of another namespace is no holder", () => {
    const { snapshot, parts } = spreadRollout({ nodeTaintsPolicy: 'Honor' });
    const pending = parts.newPods[0] as Pod;
    const old = parts.oldPods.find((p) => p.spec.nodeName === 'node-a');
    if (!old) throw new Error('fixture');
    // Same labels, same node, another namespace: PodTopologySpread counts pods of the pod's own namespace only.
    const foreign = structuredClone(old);
    foreign.metadata = {
      ...foreign.metadata,
      namespace: 'staging',
      name: 'web-staging-0',
      uid: 'web-staging-0',
    };
    const withForeign = { ...snapshot, otherPods: [...snapshot.otherPods, foreign] };
    const ctx = new AnalysisContext(withForeign);
    const nodeA = withForeign.nodes.find((n) => n.metadata.name === 'node-a');
    if (!nodeA) throw new Error('node-a');
    // Honor: domains node-a and node-b with one pod each: 1 + 1 − 1 = 1, it fits; the foreign pod would make it 2.
    expect(spreadBlockers(placementContext(ctx), pending, nodeA, new Set())).toEqual([]);
    const same = structuredClone(foreign);
    same.metadata.namespace = pending.metadata.namespace;
    const withSame = { ...snapshot, otherPods: [...snapshot.otherPods, same] };
    const sameA = withSame.nodes.find((n) => n.metadata.name === 'node-a');
    if (!sameA) throw new Error('node-a');
    expect(
      spreadBlockers(placementContext(new AnalysisContext(withSame)), pending, sameA, new Set()),
    ).toMatchObject([{ kind: 'topology-spread', domain: 'node-a', skew: 2 }]);
  });

  it('a node without the topology key fails the filter', () => {
    const { snapshot, parts } = spreadRollout({ topologyKey: 'topology.kubernetes.io/zone' });
    const ctx = new AnalysisContext(snapshot);
    const nodeA = snapshot.nodes.find((n) => n.metadata.name === 'node-a');
    if (!nodeA) throw new Error('node-a');
    const unlabelled = {
      ...nodeA,
      metadata: { ...nodeA.metadata, labels: { 'kubernetes.io/hostname': 'node-a' } },
    };
    expect(
      spreadBlockers(placementContext(ctx), parts.newPods[0] as Pod, unlabelled, new Set()),
    ).toMatchObject([{ kind: 'topology-spread', missingLabel: true }]);
  });
});

describe('a filter the model does not evaluate', () => {
  it('is named, instead of "the snapshot shows room"', () => {
    const parts = rollout('web', { oldNodes: ['node-a'] });
    const snapshot = pendingRolloutSnapshot(
      parts,
      [makeNode('node-a'), makeNode('node-b')],
      '0/2 nodes are available: 2 node(s) had volume node affinity conflict. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.',
    );
    const text = JSON.stringify(diagnose(snapshot).findings);
    expect(text).toContain(
      'volume node affinity (VolumeBinding) is a filter this analysis does not evaluate',
    );
    expect(text).not.toContain('shows room');
  });
});
