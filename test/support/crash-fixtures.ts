/**
 * Seed incident B and its variants: a Deployment whose pods crash-loop only on some
 * nodes. Shaped like `kubectl get -o yaml` output through the shared builders.
 */
import type { Deployment, Node, Pod, ReplicaSet } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot.js';
import { logKey } from '../../src/diagnosis/snapshot.js';
import {
  makeDeployment,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
  type DeploymentOptions,
} from './k8s-builders.js';

export const CRASH_LOG =
  'level=info msg="starting detector" version=2.3.1\n' +
  'level=fatal msg="io_uring_setup failed" error="operation not permitted"\n';

export interface CrashScenario {
  snapshot: WorkloadSnapshot;
  deployment: Deployment;
  replicaSet: ReplicaSet;
  pods: Pod[];
  nodes: Node[];
}

export interface CrashScenarioOptions {
  /** node name per replica, in order. */
  placement: string[];
  /** Indexes (into placement) of the pods that crash-loop. */
  crashing: number[];
  /** Nodes that differ (newer kernel and OS image). Default: the nodes of crashing pods. */
  oddNodes?: string[];
  /** Extra nodes known to the snapshot without pods. */
  spareNodes?: string[];
  deployment?: DeploymentOptions;
}

/** Seed B by default: 3 replicas on node-a, node-b, node-c; the pod on node-b crash-loops with exit code 1. */
export function crashScenario(
  options: CrashScenarioOptions = { placement: ['node-a', 'node-b', 'node-c'], crashing: [1] },
): CrashScenario {
  const deployment = makeDeployment('detector', {
    namespace: 'vision',
    replicas: options.placement.length,
    image: 'registry.example/vision/detector:2.3.1',
    ...options.deployment,
  });
  const replicaSet = makeReplicaSet(deployment, '7c9d8f5b6', { revision: 2 });
  const odd = new Set(options.oddNodes ?? options.crashing.map((i) => options.placement[i] ?? ''));
  const nodeNames = [...new Set([...options.placement, ...(options.spareNodes ?? [])])].sort();
  const nodes = nodeNames.map((name) =>
    makeNode(
      name,
      odd.has(name)
        ? {
            kernelVersion: '6.8.0-1009-aws',
            osImage: 'Ubuntu 24.04.1 LTS',
            labels: { 'topology.kubernetes.io/zone': 'eu-west-1a' },
          }
        : { labels: { 'topology.kubernetes.io/zone': 'eu-west-1a' } },
    ),
  );
  const suffixes = ['x2k9p', 'q7m4z', 'h8d3w', 'b5n6t', 'r2c8v', 'k9s4f', 'p3l7j'];
  const logs: Record<string, string> = {};
  const pods = options.placement.map((node, i) => {
    const suffix = suffixes[i] ?? `p${i}`;
    if (!options.crashing.includes(i)) return makePod(replicaSet, suffix, node, { phase: 'Running' });
    const pod = makePod(replicaSet, suffix, node, { phase: 'CrashLoopBackOff', restarts: 14, exitCode: 1 });
    logs[logKey(pod.metadata.name ?? '', 'detector')] = CRASH_LOG;
    return pod;
  });
  const snapshot = makeSnapshot({ deployment, replicaSets: [replicaSet], pods, nodes, logs });
  return { snapshot, deployment, replicaSet, pods, nodes };
}
