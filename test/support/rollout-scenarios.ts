/**
 * Stuck-rollout scenarios shaped like `kubectl get -o yaml` output: seed incident A
 * (the GPU tracker pinned to the only 1-GPU node), its variants, and the look-alikes
 * that must not get the deadlock verdict.
 */
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import type { DeploymentSnapshot } from '../../src/diagnosis/snapshot/types.js';
import {
  makeDeployment,
  makeEvent,
  makeNode,
  makePod,
  makeReplicaSet,
  makeSnapshot,
  type DeploymentOptions,
} from './k8s-builders.js';

export const SEED_MESSAGE =
  "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling..";

/** Adds the annotation `kubectl apply` leaves, with the manifest as the user wrote it. */
export function withLastApplied(deployment: Deployment, manifestSpec: Record<string, unknown>): Deployment {
  const manifest = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: deployment.metadata.name, namespace: deployment.metadata.namespace },
    spec: manifestSpec,
  };
  deployment.metadata.annotations = {
    ...deployment.metadata.annotations,
    'kubectl.kubernetes.io/last-applied-configuration': JSON.stringify(manifest),
  };
  return deployment;
}

/** Marks the pod unscheduled with the scheduler's message (condition and event). */
export function unschedulablePod(
  pod: Pod,
  message: string,
): { pod: Pod; event: ReturnType<typeof makeEvent> } {
  pod.status = {
    phase: 'Pending',
    conditions: [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message,
        lastTransitionTime: '2026-11-22T02:40:00Z',
      },
    ],
  };
  const event = makeEvent(
    { kind: 'Pod', name: pod.metadata.name, namespace: pod.metadata.namespace, uid: pod.metadata.uid },
    'FailedScheduling',
    message,
    { count: 42 },
  );
  return { pod, event };
}

export interface RolloutParts {
  deployment: Deployment;
  oldRs: ReplicaSet;
  newRs: ReplicaSet;
  oldPods: Pod[];
  newPods: Pod[];
}

/**
 * The snapshot of `parts` with its surge pod Pending for `message` (its
 * PodScheduled condition and a FailedScheduling event), on `nodes`; `extra` adds
 * to or replaces the snapshot's other fields.
 */
export function pendingRolloutSnapshot(
  parts: RolloutParts,
  nodes: Node[],
  message: string,
  extra: Partial<DeploymentSnapshot> = {},
): DeploymentSnapshot {
  const pending = parts.newPods[0];
  if (!pending) throw new Error('no pending pod');
  const { event } = unschedulablePod(pending, message);
  return makeSnapshot({
    deployment: parts.deployment,
    replicaSets: [parts.newRs, parts.oldRs],
    pods: [...parts.oldPods, ...parts.newPods],
    events: [event],
    nodes,
    ...extra,
  });
}

/**
 * A Deployment mid-rollout: the old template ran `oldNodes.length` pods (one per
 * listed node), the new template (image bumped) has one surge pod, Pending.
 */
export function rollout(
  name: string,
  options: DeploymentOptions & {
    oldNodes: string[];
    oldTemplate?: (t: Deployment['spec']['template']) => void;
  },
): RolloutParts {
  const replicas = options.replicas ?? options.oldNodes.length;
  const deployment = makeDeployment(name, {
    namespace: 'vision',
    image: `registry.example/${name}:1.1`,
    generation: 4,
    ...options,
    replicas,
    status: {
      observedGeneration: 4,
      replicas: replicas + 1,
      updatedReplicas: 1,
      readyReplicas: replicas,
      availableReplicas: replicas,
      unavailableReplicas: 1,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        { type: 'Progressing', status: 'True', reason: 'ReplicaSetUpdated' },
      ],
    },
  });
  deployment.metadata.annotations = {
    ...deployment.metadata.annotations,
    'deployment.kubernetes.io/revision': '4',
  };
  const oldTemplate = structuredClone(deployment.spec.template);
  const container = oldTemplate.spec.containers[0];
  if (container) container.image = `registry.example/${name}:1.0`;
  options.oldTemplate?.(oldTemplate);
  const oldRs = makeReplicaSet(deployment, '6d4cf56db6', { revision: 3, replicas, template: oldTemplate });
  oldRs.metadata.creationTimestamp = '2026-11-20T10:00:00Z';
  const newRs = makeReplicaSet(deployment, '7b9f8c5d4f', { revision: 4, replicas: 1 });
  newRs.metadata.creationTimestamp = '2026-11-22T02:39:00Z';
  newRs.status = { replicas: 1, readyReplicas: 0, availableReplicas: 0, observedGeneration: 1 };
  const suffixes = ['x2kqp', 'b7rtn', 'mm4zc', 'q9wde', 'tt5lk', 'zp3av'];
  const oldPods = options.oldNodes.map((node, i) =>
    makePod(oldRs, suffixes[i] ?? `p${i}`, node, { phase: 'Running' }),
  );
  const newPods = [makePod(newRs, 'h8v2n', undefined, { phase: 'Pending' })];
  return { deployment, oldRs, newRs, oldPods, newPods };
}

/** What the scheduler writes when the three edge nodes all hold the ports the pod asks for. */
export const PORTS_MESSAGE =
  "0/3 nodes are available: 3 node(s) didn't have free ports for the requested pod ports. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.";

/**
 * Three ingress replicas holding hostPort 8080 on the three edge nodes, the rollout's
 * surge pod Pending: it fits nowhere while they stay (a surge deadlock).
 */
export function edgeIngress(): DeploymentSnapshot {
  const nodes = ['edge-1', 'edge-2', 'edge-3'].map((n) => makeNode(n, { labels: { pool: 'edge' } }));
  const parts = rollout('ingress', {
    oldNodes: ['edge-1', 'edge-2', 'edge-3'],
    ports: [{ containerPort: 8080, hostPort: 8080, protocol: 'TCP' }],
    podSpec: { nodeSelector: { pool: 'edge' } },
  });
  return pendingRolloutSnapshot(parts, nodes, PORTS_MESSAGE);
}

/** Seed incident A: 10 nodes, one with a single GPU, the tracker pinned to it. */
export function seedIncidentA(
  tweak: { newNodeSelector?: string; trackerTaint?: boolean } = {},
): DeploymentSnapshot & { parts: RolloutParts } {
  const nodes: Node[] = [
    makeNode('tracker-node', {
      allocatable: { 'nvidia.com/gpu': '1' },
      ...(tweak.trackerTaint ? { taints: [{ key: 'dedicated', value: 'gpu', effect: 'NoSchedule' }] } : {}),
    }),
    ...Array.from({ length: 4 }, (_, i) =>
      makeNode(`gpu-a100-${i + 1}`, { allocatable: { 'nvidia.com/gpu': '4' } }),
    ),
    ...Array.from({ length: 5 }, (_, i) => makeNode(`cpu-node-${i + 1}`)),
  ];
  const spec = {
    replicas: 1,
    selector: { matchLabels: { app: 'object-tracker' } },
    template: {
      metadata: { labels: { app: 'object-tracker' } },
      spec: {
        containers: [
          {
            name: 'object-tracker',
            image: 'registry.example/object-tracker:1.1',
            ports: [{ containerPort: 8004 }],
            resources: { limits: { 'nvidia.com/gpu': 1 } },
          },
        ],
        nodeSelector: { 'kubernetes.io/hostname': 'tracker-node' },
      },
    },
  };
  const parts = rollout('object-tracker', {
    oldNodes: ['tracker-node'],
    ports: [{ containerPort: 8004, protocol: 'TCP' }],
    resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
    podSpec: { nodeSelector: { 'kubernetes.io/hostname': tweak.newNodeSelector ?? 'tracker-node' } },
    oldTemplate: (t) => {
      t.spec.nodeSelector = { 'kubernetes.io/hostname': 'tracker-node' };
    },
  });
  withLastApplied(parts.deployment, spec);
  const message = tweak.trackerTaint
    ? "0/10 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 10 Preemption is not helpful for scheduling.."
    : tweak.newNodeSelector
      ? "0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn't match Pod's node affinity/selector. preemption: 0/10 nodes are available: 1 No preemption victims found for incoming pod, 9 Preemption is not helpful for scheduling.."
      : SEED_MESSAGE;
  const snapshot = pendingRolloutSnapshot(parts, nodes, message);
  return { ...snapshot, parts };
}
