/**
 * DaemonSets as the API server returns them (defaulted updateStrategy, status counts),
 * their ControllerRevisions (data as the controller stores it: the template as a
 * strategic merge patch with `$patch: replace`) and their pods (controlled by the
 * DaemonSet, labelled with the revision's hash, pinned to their node).
 */
import type { ControllerRevision, DaemonSet, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod, PodSpec } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { emptySnapshot, makeEvent, makeNode, makePod, uid, type PodState } from './k8s-builders.js';

const CREATED = '2026-11-22T02:00:00Z';

export interface DaemonSetOptions {
  namespace?: string;
  updateStrategy?: DaemonSet['spec']['updateStrategy'];
  podSpec?: Partial<PodSpec>;
  image?: string;
  status?: DaemonSet['status'];
  generation?: number;
}

export function makeDaemonSet(name: string, options: DaemonSetOptions = {}): DaemonSet {
  const generation = options.generation ?? 2;
  return {
    apiVersion: 'apps/v1',
    kind: 'DaemonSet',
    metadata: {
      name,
      namespace: options.namespace ?? 'kube-system',
      uid: uid('ds'),
      generation,
      resourceVersion: '800',
      creationTimestamp: CREATED,
      labels: { app: name },
    },
    spec: {
      selector: { matchLabels: { app: name } },
      updateStrategy: options.updateStrategy ?? {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 0, maxUnavailable: 1 },
      },
      revisionHistoryLimit: 10,
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [{ name, image: options.image ?? `registry.example/${name}:2.0` }],
          tolerations: [{ operator: 'Exists' }],
          ...options.podSpec,
        },
      },
    },
    status: options.status ?? {
      observedGeneration: generation,
      desiredNumberScheduled: 3,
      currentNumberScheduled: 3,
      numberReady: 3,
      numberAvailable: 3,
      updatedNumberScheduled: 3,
      numberMisscheduled: 0,
    },
  };
}

/** A revision of the DaemonSet: its current template unless another is given. */
export function makeControllerRevision(
  ds: DaemonSet,
  hash: string,
  revision: number,
  template: DaemonSet['spec']['template'] = ds.spec.template,
): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${ds.metadata.name ?? ''}-${hash}`,
      namespace: ds.metadata.namespace,
      uid: uid('cr'),
      creationTimestamp: CREATED,
      labels: { ...ds.spec.selector.matchLabels, 'controller-revision-hash': hash },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata.name ?? '',
          uid: ds.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    data: { spec: { template: { ...structuredClone(template), $patch: 'replace' } } },
    revision,
  };
}

/**
 * The DaemonSet's pod on `node` made from `revision` (its template), pinned there with
 * the controller's matchFields term; unbound when Pending.
 */
export function makeDaemonPod(
  ds: DaemonSet,
  revision: ControllerRevision,
  suffix: string,
  node: string,
  state: PodState,
): Pod {
  const hash = revision.metadata.labels?.['controller-revision-hash'] ?? '';
  const template = (revision.data as { spec: { template: DaemonSet['spec']['template'] } }).spec.template;
  const carrier: ReplicaSet = {
    metadata: { name: ds.metadata.name, namespace: ds.metadata.namespace },
    spec: { selector: ds.spec.selector, template: { ...template, metadata: { ...template.metadata } } },
  };
  const pod = makePod(carrier, suffix, state.phase === 'Pending' ? undefined : node, state);
  pod.metadata.labels = { ...template.metadata?.labels, 'controller-revision-hash': hash };
  pod.metadata.ownerReferences = [
    {
      apiVersion: 'apps/v1',
      kind: 'DaemonSet',
      name: ds.metadata.name ?? '',
      uid: ds.metadata.uid ?? '',
      controller: true,
    },
  ];
  pod.spec.affinity = {
    ...pod.spec.affinity,
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }],
      },
    },
  };
  return pod;
}

/** A DaemonSet snapshot with empty defaults for what is not given. */
export function makeDaemonSetSnapshot(
  parts: { daemonSet: DaemonSet; controllerRevisions: ControllerRevision[] } & Partial<
    Omit<WorkloadSnapshot, 'target'>
  >,
): WorkloadSnapshot {
  return { ...emptySnapshot('DaemonSet', parts.daemonSet.metadata), ...parts };
}

/** The scheduler's message for a DaemonSet surge pod that waits for its node's only GPU. */
export const GPU_MESSAGE =
  "0/2 nodes are available: 1 Insufficient nvidia.com/gpu, 1 node(s) didn't satisfy plugin(s) [NodeAffinity]. preemption: 0/2 nodes are available: 1 No preemption victims found for incoming pod, 1 Preemption is not helpful for scheduling.";

/**
 * A DaemonSet rolling 2.0 -> 2.1 that has replaced no pod yet: a Running old pod on each
 * of `podNodes` (suffixes p0x, p1x, …), `desired` nodes wanted, on `nodes`.
 */
export function daemonSetRolling(
  name: string,
  options: Pick<DaemonSetOptions, 'updateStrategy' | 'podSpec'> & {
    nodes: Node[];
    podNodes: string[];
    desired: number;
  },
): WorkloadSnapshot {
  const running = options.podNodes.length;
  const ds = makeDaemonSet(name, {
    ...(options.updateStrategy ? { updateStrategy: options.updateStrategy } : {}),
    ...(options.podSpec ? { podSpec: options.podSpec } : {}),
    image: `registry.example/${name}:2.1`,
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: options.desired,
      currentNumberScheduled: running,
      numberReady: running,
      numberAvailable: running,
      updatedNumberScheduled: 0,
      numberMisscheduled: 0,
    },
  });
  const oldTemplate = structuredClone(ds.spec.template);
  const container = oldTemplate.spec.containers[0];
  if (container) container.image = `registry.example/${name}:2.0`;
  const oldRev = makeControllerRevision(ds, '6d5cb9ff66', 1, oldTemplate);
  const newRev = makeControllerRevision(ds, '65dd7fb447', 2);
  return makeDaemonSetSnapshot({
    daemonSet: ds,
    controllerRevisions: [newRev, oldRev],
    pods: options.podNodes.map((n, i) => makeDaemonPod(ds, oldRev, `p${i}x`, n, { phase: 'Running' })),
    nodes: options.nodes,
  });
}

/** gpu-probe asks for the node's only GPU on two GPU nodes; its rollout to 2.1 has started. */
export function gpuProbe(strategy: DaemonSet['spec']['updateStrategy']) {
  const nodes: Node[] = ['gpu-1', 'gpu-2'].map((n) =>
    makeNode(n, { allocatable: { 'nvidia.com/gpu': '1' } }),
  );
  const ds = makeDaemonSet('gpu-probe', {
    updateStrategy: strategy,
    image: 'registry.example/gpu-probe:2.1',
    podSpec: {
      containers: [
        {
          name: 'gpu-probe',
          image: 'registry.example/gpu-probe:2.1',
          resources: { requests: { 'nvidia.com/gpu': '1' }, limits: { 'nvidia.com/gpu': '1' } },
        },
      ],
    },
    status: {
      observedGeneration: 2,
      desiredNumberScheduled: 2,
      currentNumberScheduled: 2,
      numberReady: 2,
      numberAvailable: 2,
      updatedNumberScheduled: 0,
      numberMisscheduled: 0,
    },
  });
  const oldTemplate = structuredClone(ds.spec.template);
  const container = oldTemplate.spec.containers[0];
  if (container) container.image = 'registry.example/gpu-probe:2.0';
  const oldRev = makeControllerRevision(ds, '6d5cb9ff66', 1, oldTemplate);
  const newRev = makeControllerRevision(ds, '65dd7fb447', 2);
  const old = ['gpu-1', 'gpu-2'].map((n, i) =>
    makeDaemonPod(ds, oldRev, ['x7k2p', 'q9m4t'][i] ?? 'x', n, { phase: 'Running' }),
  );
  const surge = makeDaemonPod(ds, newRev, 'w2b8n', 'gpu-1', { phase: 'Pending' });
  const event = makeEvent(
    { kind: 'Pod', name: surge.metadata.name, namespace: ds.metadata.namespace, uid: surge.metadata.uid },
    'FailedScheduling',
    GPU_MESSAGE,
    { type: 'Warning', component: 'default-scheduler' },
  );
  return makeDaemonSetSnapshot({
    daemonSet: ds,
    controllerRevisions: [newRev, oldRev],
    pods: [...old, surge],
    events: [event],
    nodes,
  });
}
