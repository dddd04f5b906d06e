/**
 * Seed incident B and its variants: a Deployment whose pods crash-loop only on some
 * nodes. Shaped like `kubectl get -o yaml` output through the shared builders.
 */
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { logKey } from '../../src/diagnosis/snapshot/types.js';
import {
  makeDeployment,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
  type DeploymentOptions,
  type NodeOptions,
} from './k8s-builders.js';

export const CRASH_LOG =
  'level=info msg="starting detector" version=2.3.1\n' +
  'level=fatal msg="io_uring_setup failed" error="operation not permitted"\n';

export interface CrashScenario {
  snapshot: DeploymentSnapshot;
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
  /** Node attributes of the odd nodes (default: newer kernel and OS image) and of the others. */
  oddNode?: NodeOptions;
  evenNode?: NodeOptions;
  /** The crashing container's termination (default exit code 1, reason Error) and previous log. */
  crash?: { exitCode?: number; reason?: string; message?: string; log?: string };
}

/** Real pod-name suffixes (alphabet bcdfghjklmnpqrstvwxz2456789). */
const SUFFIXES = [
  'x2k9p',
  'q7m4z',
  'h8d2w',
  'b5n6t',
  'r2c8v',
  'k9s4f',
  'p4l7j',
  'w6g5m',
  'f7t2n',
  'z9v4c',
  'm2q8h',
  't5j6x',
];

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
  const zone = { 'topology.kubernetes.io/zone': 'eu-west-1a' };
  const nodes = nodeNames.map((name) => {
    const extra = odd.has(name)
      ? (options.oddNode ?? { kernelVersion: '6.8.0-1009-aws', osImage: 'Ubuntu 24.04.1 LTS' })
      : (options.evenNode ?? {});
    return makeNode(name, { ...extra, labels: { ...zone, ...extra.labels } });
  });
  const logs: Record<string, string> = {};
  const pods = options.placement.map((node, i) => {
    const suffix = SUFFIXES[i] ?? `v${i}`;
    if (!options.crashing.includes(i)) return makePod(replicaSet, suffix, node, { phase: 'Running' });
    const pod = makePod(replicaSet, suffix, node, {
      phase: 'CrashLoopBackOff',
      restarts: 14,
      exitCode: options.crash?.exitCode ?? 1,
      ...(options.crash?.reason ? { reason: options.crash.reason } : {}),
      ...(options.crash?.message ? { message: options.crash.message } : {}),
    });
    logs[logKey(pod.metadata.name ?? '', 'detector')] = options.crash?.log ?? CRASH_LOG;
    return pod;
  });
  const snapshot = makeSnapshot({ deployment, replicaSets: [replicaSet], pods, nodes, logs });
  return { snapshot, deployment, replicaSet, pods, nodes };
}

/**
 * Turns a pod into one whose init container crash-loops before the app container
 * starts (`kubectl get pod` shows Init:CrashLoopBackOff). With `injected`, the init
 * container is in the pod only, as a mesh or policy webhook adds it at admission.
 */
export function crashInInitContainer(
  pod: Pod,
  name: string,
  options: { injected?: boolean; image?: string; message?: string } = {},
): Pod {
  const init = { name, image: options.image ?? 'docker.io/istio/proxyv2:1.24.2', args: ['istio-iptables'] };
  pod.spec.initContainers = [...(pod.spec.initContainers ?? []), init];
  const status = (pod.status ??= {});
  status.phase = 'Pending';
  status.conditions = [
    { type: 'PodScheduled', status: 'True' },
    {
      type: 'Initialized',
      status: 'False',
      reason: 'ContainersNotInitialized',
      message: `containers with incomplete status: [${name}]`,
    },
    { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
  ];
  status.initContainerStatuses = [
    {
      name,
      image: init.image,
      ready: false,
      started: false,
      restartCount: 9,
      state: {
        waiting: {
          reason: 'CrashLoopBackOff',
          message: `back-off 5m0s restarting failed container=${name} pod=${pod.metadata.name ?? ''}`,
        },
      },
      lastState: {
        terminated: {
          exitCode: 1,
          reason: 'Error',
          ...(options.message ? { message: options.message } : {}),
          startedAt: '2026-11-22T02:59:00Z',
          finishedAt: '2026-11-22T02:59:01Z',
        },
      },
    },
  ];
  status.containerStatuses = pod.spec.containers.map((c) => ({
    name: c.name,
    image: c.image,
    ready: false,
    started: false,
    restartCount: 0,
    state: { waiting: { reason: 'PodInitializing' } },
  }));
  return pod;
}
