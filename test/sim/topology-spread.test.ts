/**
 * The simulator's PodTopologySpread filter (sim/controllers/topology-spread.ts), the
 * oracle's side of the generated states with spread constraints: skew against the
 * least-loaded counted domain, terminating pods bypassed, other namespaces not
 * counted, matchLabelKeys per revision, minDomains, a node missing the key, and
 * preemption's RemovePod.
 */
import { describe, expect, it } from 'vitest';
import type { Node, Pod, TopologySpreadConstraint } from '../../src/diagnosis/k8s.js';
import {
  filterNode,
  matchesNodeAffinity,
  tolerates,
  type NodeView,
} from '../../sim/controllers/scheduler-filters.js';
import { spreadState } from '../../sim/controllers/topology-spread.js';

const node = (name: string, zone?: string): Node => ({
  metadata: {
    name,
    labels: { 'kubernetes.io/hostname': name, ...(zone ? { 'topology.kubernetes.io/zone': zone } : {}) },
  },
  spec: {},
  status: { allocatable: { cpu: '8', memory: '16Gi', pods: '110' } },
});

const pod = (name: string, o: { hash?: string; namespace?: string; terminating?: boolean } = {}): Pod => ({
  metadata: {
    name,
    namespace: o.namespace ?? 'shop',
    labels: { app: 'web', 'pod-template-hash': o.hash ?? 'old' },
    ...(o.terminating ? { deletionTimestamp: '2026-11-25T00:00:00Z' } : {}),
  },
  spec: { nodeName: 'x', containers: [{ name: 'web', image: 'web' }] },
  status: { phase: 'Running' },
});

const constraint = (extra: Partial<TopologySpreadConstraint> = {}): TopologySpreadConstraint => ({
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
  ...extra,
});

const incoming = (c: TopologySpreadConstraint, hash = 'new'): Pod => {
  const p = pod('web-new', { hash });
  return { ...p, spec: { ...p.spec, nodeName: undefined, topologySpreadConstraints: [c] } };
};

const inclusion = {
  affinity: matchesNodeAffinity,
  tolerated: (p: Pod, taint: Parameters<typeof tolerates>[1]) => tolerates(p.spec.tolerations ?? [], taint),
};

/** The filter's reasons on each node, in order. */
function reasons(p: Pod, views: NodeView[], removed?: Pod[]): string[][] {
  const state = spreadState(p, views, inclusion);
  return views.map(
    (v) => filterNode(p, v, () => [], new Set(), state && { state, removed: removed ?? [] }).reasons,
  );
}

const SKEW = "node(s) didn't match pod topology spread constraints";

describe('simulator PodTopologySpread filter', () => {
  it('refuses the domain that would exceed maxSkew over the least-loaded one', () => {
    const views = [
      { node: node('a1', 'zone-a'), pods: [pod('p1'), pod('p2')] },
      { node: node('b1', 'zone-b'), pods: [pod('p3')] },
    ];
    expect(reasons(incoming(constraint()), views)).toEqual([[SKEW], []]);
  });

  it('bypasses terminating pods and pods of other namespaces', () => {
    const views = [
      {
        node: node('a1', 'zone-a'),
        pods: [pod('p1'), pod('p2', { terminating: true }), pod('t', { namespace: 'other' })],
      },
      { node: node('b1', 'zone-b'), pods: [pod('p3')] },
    ];
    expect(reasons(incoming(constraint()), views)).toEqual([[], []]);
  });

  it("counts only the pod's own revision with matchLabelKeys pod-template-hash", () => {
    const views = [
      { node: node('a1', 'zone-a'), pods: [pod('p1'), pod('p2')] },
      { node: node('b1', 'zone-b'), pods: [] },
    ];
    expect(reasons(incoming(constraint({ matchLabelKeys: ['pod-template-hash'] })), views)).toEqual([[], []]);
    expect(reasons(incoming(constraint()), views)).toEqual([[SKEW], []]);
  });

  it('counts the minimum as 0 with fewer domains than minDomains', () => {
    const views = [{ node: node('a1', 'zone-a'), pods: [pod('p1')] }];
    expect(reasons(incoming(constraint()), views)).toEqual([[]]);
    expect(reasons(incoming(constraint({ minDomains: 2 })), views)).toEqual([[SKEW]]);
  });

  it('refuses a node without the topology key as unresolvable', () => {
    const views = [
      { node: node('a1', 'zone-a'), pods: [] },
      { node: node('nz'), pods: [] },
    ];
    const p = incoming(constraint());
    const state = spreadState(p, views, inclusion);
    const result = filterNode(p, views[1] as NodeView, () => [], new Set(), state && { state });
    expect(result).toEqual({
      reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"],
      unresolvable: true,
    });
  });

  it('takes preemption victims out of their domain', () => {
    const victim = pod('low');
    const views = [
      { node: node('a1', 'zone-a'), pods: [pod('p1'), victim] },
      { node: node('b1', 'zone-b'), pods: [] },
    ];
    expect(reasons(incoming(constraint()), views)[0]).toEqual([SKEW]);
    expect(reasons(incoming(constraint()), views, [victim])[0]).toEqual([SKEW]);
    const two = [
      { node: node('a1', 'zone-a'), pods: [victim] },
      { node: node('b1', 'zone-b'), pods: [] },
    ];
    expect(reasons(incoming(constraint()), two)[0]).toEqual([SKEW]);
    expect(reasons(incoming(constraint()), two, [victim])[0]).toEqual([]);
  });
});
