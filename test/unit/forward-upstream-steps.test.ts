/**
 * The forward model's controller and scheduler arithmetic, one upstream function per
 * test (issue 68.2), so whoever breaks a term learns it from a test about that term:
 * - the ReplicaSet controller's deletion order, controller.ActivePodsWithRanks.Less
 *   (pkg/controller/controller_utils.go, by getPodsToDelete): not Ready first, then the
 *   lower pod-deletion-cost, then pods doubled up on a node, then the smaller UID where
 *   the Ready times' log2 ranks tie;
 * - scheduler preemption's addNominatedPods (pkg/scheduler/framework/runtime,
 *   RunFilterPluginsWithNominatedPods): a pod nominated to a node, of the preemptor's
 *   priority or higher, counts there as if it ran, so two pods are never promised one
 *   node's room;
 * - the DaemonSet controller's rollingUpdate without surge (pkg/controller/daemon/update.go,
 *   its maxSurge == 0 branch): a node whose pod is missing, doubled or new and not
 *   available counts in numUnavailable, and only maxUnavailable - numUnavailable of the
 *   available old pods are deleted (issue 68.1).
 */
import { describe, expect, it } from 'vitest';
import { AnalysisContext } from '../../src/diagnosis/analysis-context.js';
import type { Pod, Toleration } from '../../src/diagnosis/k8s.js';
import { withToleration } from '../../src/diagnosis/base/node-match.js';
import type { DeploymentSnapshot, WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { runWithChange } from '../../src/diagnosis/forward/run.js';
import { World } from '../../src/diagnosis/forward/world.js';
import { placementContext } from '../../src/diagnosis/placement/placement.js';
import { makeDeployment, makeNode, makePod, makeReplicaSet, makeSnapshot } from '../support/k8s-builders.js';
import { daemonSetRolling } from '../support/daemonset-builders.js';
import { edgeIngress } from '../support/rollout-scenarios.js';

/** The old pods the run removes, in order, with maxSurge 0 / maxUnavailable 1 applied. */
function removalOrder(snapshot: DeploymentSnapshot): string[] {
  const { outcome } = runWithChange(new AnalysisContext(snapshot), {
    strategy: { maxSurge: 0, maxUnavailable: 1, recreate: false },
  });
  return 'steps' in outcome ? outcome.steps.flatMap((s) => (s.kind === 'old-removed' ? [s.pod] : [])) : [];
}

/** The three edge ingress pods with these uids (edge-1, edge-2, edge-3), Ready at one moment. */
function ingressWithUids(uids: [string, string, string], tweak?: (old: Pod[]) => void): DeploymentSnapshot {
  const snapshot = edgeIngress();
  const old = snapshot.pods.filter((p) => p.spec.nodeName);
  old.forEach((pod, i) => {
    pod.metadata.uid = uids[i];
  });
  tweak?.(old);
  return snapshot;
}

const nameOn = (snapshot: DeploymentSnapshot, node: string): string =>
  snapshot.pods.find((p) => p.spec.nodeName === node)?.metadata.name ?? '';

describe('ActivePodsWithRanks.Less: which old pod the ReplicaSet deletes first', () => {
  it('Ready at one moment: the smaller UID goes first (not the order pods were read in)', () => {
    const snapshot = ingressWithUids(['c-3', 'a-1', 'b-2']);
    expect(removalOrder(snapshot)[0]).toBe(nameOn(snapshot, 'edge-2'));
  });

  it('a lower controller.kubernetes.io/pod-deletion-cost goes before a smaller UID', () => {
    const snapshot = ingressWithUids(['c-3', 'a-1', 'b-2'], (old) => {
      const third = old[2];
      if (third) third.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '-100' };
    });
    expect(removalOrder(snapshot)[0]).toBe(nameOn(snapshot, 'edge-3'));
  });

  it('a pod that is not Ready goes before any Ready one, whatever its cost or UID', () => {
    const snapshot = ingressWithUids(['c-3', 'a-1', 'b-2'], (old) => {
      const first = old[0];
      if (first) first.metadata.annotations = { 'controller.kubernetes.io/pod-deletion-cost': '1000' };
      const ready = first?.status?.conditions?.find((c) => c.type === 'Ready');
      if (ready) ready.status = 'False';
    });
    expect(removalOrder(snapshot)[0]).toBe(nameOn(snapshot, 'edge-1'));
  });
});

describe('addNominatedPods: a nominated pod holds its node for preemption', () => {
  /** Two GPU nodes, each GPU held by a priority-0 batch pod; a priority-1000 pod wants one. */
  function gpuWorld(): { world: World; nodes: ReturnType<typeof makeNode>[]; pod: Pod; other: Pod } {
    const nodes = ['gpu-1', 'gpu-2'].map((n) => makeNode(n, { allocatable: { 'nvidia.com/gpu': '1' } }));
    const gpu = { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } };
    const batchRs = makeReplicaSet(makeDeployment('batch', { namespace: 'jobs', resources: gpu }), 'b4tch');
    const holders = nodes.map((n, i) => {
      const pod = makePod(batchRs, `h${i}`, n.metadata.name, { phase: 'Running' });
      pod.spec.priority = 0;
      return pod;
    });
    const web = makeDeployment('web', { namespace: 'vision', resources: gpu });
    const webRs = makeReplicaSet(web, 'w3b');
    const [pod, other] = ['p0', 'p1'].map((s) => {
      const p = makePod(webRs, s, undefined, { phase: 'Pending' });
      p.spec.priority = 1000;
      return p;
    }) as [Pod, Pod];
    const snapshot = makeSnapshot({
      deployment: web,
      replicaSets: [webRs],
      pods: [pod, other],
      nodes,
      otherPods: holders,
    });
    return { world: new World(placementContext(new AnalysisContext(snapshot)), []), nodes, pod, other };
  }

  it('with no pod nominated, the first node with a victim is chosen', () => {
    const { world, nodes, pod } = gpuWorld();
    expect(world.preemption(pod, nodes, new Set())?.node.metadata.name).toBe('gpu-1');
  });

  it('with a pod of its priority nominated to gpu-1, it preempts on gpu-2 instead', () => {
    const { world, nodes, pod, other } = gpuWorld();
    const chosen = world.preemption(pod, nodes, new Set(), [{ pod: other, node: 'gpu-1' }]);
    expect(chosen?.node.metadata.name).toBe('gpu-2');
    // The reservation lasts only for the question: the world is as it was after it.
    expect(world.preemption(pod, nodes, new Set())?.node.metadata.name).toBe('gpu-1');
  });

  it('a nominated pod of lower priority reserves nothing against it', () => {
    const { world, nodes, pod, other } = gpuWorld();
    other.spec.priority = 10;
    const chosen = world.preemption(pod, nodes, new Set(), [{ pod: other, node: 'gpu-1' }]);
    expect(chosen?.node.metadata.name).toBe('gpu-1');
  });
});

/**
 * rollingUpdate, maxSurge == 0 (pkg/controller/daemon/update.go): numUnavailable counts
 * the nodes whose daemon pod is missing (or doubled, or new and not available yet);
 * remainingUnavailable = maxUnavailable - numUnavailable old available pods are deleted
 * (the unavailable old ones go besides, as allowedReplacementPods). The manage loop
 * creates a missing node's pod in the same pass.
 */
describe("rollingUpdate: a DaemonSet's maxUnavailable less the nodes already unavailable", () => {
  const NODES = ['node-1', 'node-2', 'node-3', 'node-4', 'node-5'];

  /** agent on five nodes, rolling 2.0 -> 2.1 with maxSurge 0 and maxUnavailable 2; `podless`: nodes with no pod of it. */
  function agent(podless: string[]): WorkloadSnapshot {
    return daemonSetRolling('agent', {
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 0, maxUnavailable: 2 } },
      nodes: NODES.map((n) => makeNode(n)),
      podNodes: NODES.filter((n) => !podless.includes(n)),
      desired: NODES.length,
    });
  }

  /** The old pods deleted in the controller's first pass, and the fewest serving on the way to the end. */
  function firstPass(podless: string[]): { deleted: number; lowest: number | undefined; result: string } {
    const { outcome, trace } = runWithChange(new AnalysisContext(agent(podless)), {
      strategy: { maxSurge: 0, maxUnavailable: 2, recreate: false },
    });
    const steps = 'steps' in outcome ? outcome.steps : [];
    const firstOther = steps.findIndex((s) => s.kind !== 'old-removed');
    return {
      deleted: firstOther === -1 ? steps.length : firstOther,
      lowest: trace?.serving.lowest,
      result: outcome.result,
    };
  }

  it.each<[string, string, string[], number]>([
    ['no node', 'two old pods', [], 2],
    ['node-5', 'one old pod', ['node-5'], 1],
    ['node-4 and node-5', 'no old pod', ['node-4', 'node-5'], 0],
  ])(
    'maxUnavailable 2, %s without its pod: %s deleted in the first pass, never fewer than 3 serving',
    (_without, _first, podless, deleted) => {
      expect(firstPass(podless)).toEqual({ deleted, lowest: 3, result: 'completes' });
    },
  );
});

/**
 * AddOrUpdateDaemonPodTolerations (pkg/controller/daemon/util/daemonset_util.go): every
 * daemon pod tolerates not-ready, unreachable, the pressures and unschedulable; a pod on
 * the host's network also tolerates node.kubernetes.io/network-unavailable, so a CNI's
 * DaemonSet runs on the node that waits for it.
 */
describe("a DaemonSet's added tolerations: network-unavailable only with hostNetwork", () => {
  const NETWORK_UNAVAILABLE = {
    key: 'node.kubernetes.io/network-unavailable',
    effect: 'NoSchedule' as const,
  };

  /** cni on node-1 and node-2 (2.0 -> 2.1); node-3 waits for its network, with no pod yet. */
  function cni(
    hostNetwork: boolean,
    desired: number,
    tolerations: Toleration[] = [],
  ): ReturnType<typeof runWithChange>['outcome'] {
    const snapshot = daemonSetRolling('cni', {
      podSpec: { hostNetwork, tolerations },
      nodes: [makeNode('node-1'), makeNode('node-2'), makeNode('node-3', { taints: [NETWORK_UNAVAILABLE] })],
      podNodes: ['node-1', 'node-2'],
      desired,
    });
    return runWithChange(new AnalysisContext(snapshot), {}).outcome;
  }
  const readied = (outcome: ReturnType<typeof cni>): number =>
    'steps' in outcome ? outcome.steps.filter((s) => s.kind === 'ready').length : -1;

  it('on the host network: node-3 is wanted, and its new pod is one of three', () => {
    const outcome = cni(true, 3);
    expect(outcome.result).toBe('completes');
    expect(readied(outcome)).toBe(3);
  });

  it('off the host network: node-3 is not wanted, two new pods finish it', () => {
    const outcome = cni(false, 2);
    expect(outcome.result).toBe('completes');
    expect(readied(outcome)).toBe(2);
  });

  it('a template toleration of that key by value does not stand in for it: node-3 is still wanted', () => {
    // MatchToleration compares operator and value too, so the controller's Exists is added.
    const byValue: Toleration = { ...NETWORK_UNAVAILABLE, operator: 'Equal', value: 'cni-ready' };
    const outcome = cni(true, 3, [byValue]);
    expect(outcome.result).toBe('completes');
    expect(readied(outcome)).toBe(3);
  });
});

/** AddOrUpdateTolerationInPodSpec (pkg/apis/core/v1/helper/helpers.go), one row per arm. */
describe('withToleration: replace the same toleration, else append', () => {
  const notReady: Toleration = {
    key: 'node.kubernetes.io/not-ready',
    operator: 'Exists',
    effect: 'NoExecute',
  };

  it.each<[string, Toleration, Toleration[]]>([
    [
      'the same one with tolerationSeconds is replaced (tolerated for good)',
      { ...notReady, tolerationSeconds: 300 },
      [notReady],
    ],
    [
      'another operator is kept beside it',
      { ...notReady, operator: 'Equal' },
      [{ ...notReady, operator: 'Equal' }, notReady],
    ],
    [
      'another value is kept beside it',
      { ...notReady, operator: 'Equal', value: 'x' },
      [{ ...notReady, operator: 'Equal', value: 'x' }, notReady],
    ],
    [
      'another effect is kept beside it',
      { ...notReady, effect: 'NoSchedule' },
      [{ ...notReady, effect: 'NoSchedule' }, notReady],
    ],
  ])('%s', (_arm, held, expected) => {
    expect(withToleration([held], notReady)).toEqual(expected);
  });
});
