import { createHash } from 'node:crypto';
/**
 * Small builders for Kubernetes objects shaped like `kubectl get -o yaml` output
 * (server defaults filled in), so tests state only what matters to them.
 */
import type { Container, KubeEvent, Node, Pod, PodSpec, Taint } from '../../src/diagnosis/k8s.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { PersistentVolumeClaim } from '../../src/diagnosis/k8s-storage.js';
import {
  fullCoverage,
  isDeploymentObjects,
  type DeploymentSnapshot,
  type SnapshotCommon,
  type WorkloadSnapshot,
} from '../../src/diagnosis/snapshot/types.js';
import type { WorkloadKind } from '../../src/diagnosis/workload-ref.js';

export const NOW = '2026-11-22T03:00:00Z';
const CREATED = '2026-11-21T10:00:00Z';

let uidCounter = 0;
/**
 * A distinct, deterministic uid shaped like the API server's (a version 4 UUID);
 * `kind` seeds it so uids of different kinds never collide.
 */
export function uid(kind = 'uid'): string {
  uidCounter += 1;
  const hex = createHash('sha256').update(`${kind}/${uidCounter}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The node's InternalIP, distinct per node name (pods report it as status.hostIP). */
export function nodeIP(name: string): string {
  const digest = createHash('sha256').update(name).digest();
  return `10.${20 + ((digest[0] ?? 0) % 40)}.${digest[1] ?? 0}.${1 + ((digest[2] ?? 0) % 250)}`;
}

export interface NodeOptions {
  labels?: Record<string, string>;
  allocatable?: Record<string, string>;
  taints?: Taint[];
  unschedulable?: boolean;
  arch?: string;
  osImage?: string;
  kernelVersion?: string;
  containerRuntimeVersion?: string;
  kubeletVersion?: string;
  ready?: boolean;
}

export function makeNode(name: string, options: NodeOptions = {}): Node {
  const arch = options.arch ?? 'amd64';
  const allocatable = { cpu: '8', memory: '32Gi', pods: '110', ...options.allocatable };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      uid: uid('node'),
      resourceVersion: '100',
      creationTimestamp: CREATED,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/arch': arch,
        'kubernetes.io/os': 'linux',
        ...options.labels,
      },
    },
    spec: {
      ...(options.taints ? { taints: options.taints } : {}),
      ...(options.unschedulable ? { unschedulable: true } : {}),
    },
    status: {
      capacity: { ...allocatable },
      allocatable,
      addresses: [
        { type: 'InternalIP', address: nodeIP(name) },
        { type: 'Hostname', address: name },
      ],
      conditions: [
        {
          type: 'Ready',
          status: options.ready === false ? 'False' : 'True',
          reason: options.ready === false ? 'KubeletNotReady' : 'KubeletReady',
        },
      ],
      nodeInfo: {
        architecture: arch,
        operatingSystem: 'linux',
        osImage: options.osImage ?? 'Ubuntu 22.04.4 LTS',
        kernelVersion: options.kernelVersion ?? '5.15.0-105-generic',
        containerRuntimeVersion: options.containerRuntimeVersion ?? 'containerd://1.7.13',
        kubeletVersion: options.kubeletVersion ?? 'v1.29.4',
      },
    },
  };
}

export interface DeploymentOptions {
  namespace?: string;
  replicas?: number;
  image?: string;
  /** Omit for the server default (RollingUpdate 25%/25%, marked as defaulted). */
  strategy?: Deployment['spec']['strategy'];
  resources?: Container['resources'];
  ports?: Container['ports'];
  podSpec?: Partial<PodSpec>;
  container?: Partial<Container>;
  generation?: number;
  status?: Deployment['status'];
}

export function makeDeployment(name: string, options: DeploymentOptions = {}): Deployment {
  const namespace = options.namespace ?? 'default';
  const replicas = options.replicas ?? 1;
  const container: Container = {
    name,
    image: options.image ?? `registry.example/${name}:1.0`,
    ...(options.resources ? { resources: options.resources } : {}),
    ...(options.ports ? { ports: options.ports } : {}),
    ...options.container,
  };
  const generation = options.generation ?? 2;
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid: uid('deploy'),
      resourceVersion: '1000',
      generation,
      creationTimestamp: CREATED,
      labels: { app: name },
      annotations: { 'deployment.kubernetes.io/revision': String(generation) },
    },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      // The API server fills the default strategy in, as `kubectl get -o yaml` shows it.
      strategy: options.strategy ?? {
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' },
      },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [container],
          restartPolicy: 'Always',
          schedulerName: 'default-scheduler',
          terminationGracePeriodSeconds: 30,
          ...options.podSpec,
        },
      },
    },
    status: options.status ?? {
      observedGeneration: generation,
      replicas,
      updatedReplicas: replicas,
      readyReplicas: replicas,
      availableReplicas: replicas,
      conditions: [
        { type: 'Available', status: 'True', reason: 'MinimumReplicasAvailable' },
        { type: 'Progressing', status: 'True', reason: 'NewReplicaSetAvailable' },
      ],
    },
  };
}

/** A ReplicaSet of the Deployment at a revision; `template` defaults to the Deployment's. */
export function makeReplicaSet(
  deployment: Deployment,
  hash: string,
  options: { revision?: number; replicas?: number; template?: Deployment['spec']['template'] } = {},
): ReplicaSet {
  const name = `${deployment.metadata.name}-${hash}`;
  const template = structuredClone(options.template ?? deployment.spec.template);
  template.metadata = {
    ...template.metadata,
    labels: { ...template.metadata?.labels, 'pod-template-hash': hash },
  };
  const replicas = options.replicas ?? deployment.spec.replicas ?? 1;
  return {
    apiVersion: 'apps/v1',
    kind: 'ReplicaSet',
    metadata: {
      name,
      namespace: deployment.metadata.namespace,
      uid: uid('rs'),
      resourceVersion: '900',
      generation: 1,
      creationTimestamp: CREATED,
      labels: { ...deployment.spec.selector.matchLabels, 'pod-template-hash': hash },
      annotations: {
        'deployment.kubernetes.io/revision': String(options.revision ?? 1),
        'deployment.kubernetes.io/desired-replicas': String(deployment.spec.replicas ?? 1),
        'deployment.kubernetes.io/max-replicas': String((deployment.spec.replicas ?? 1) + 1),
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          name: deployment.metadata.name ?? '',
          uid: deployment.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: {
      replicas,
      selector: { matchLabels: { ...deployment.spec.selector.matchLabels, 'pod-template-hash': hash } },
      template,
    },
    status: { replicas, readyReplicas: replicas, availableReplicas: replicas, observedGeneration: 1 },
  };
}

export type PodState =
  | {
      phase: 'Running';
      ready?: boolean;
      /** Restarts so far; with `lastExit`, the previous termination kept in lastState. */
      restarts?: number;
      lastExit?: { exitCode: number; reason?: string; message?: string };
      startedAt?: string;
    }
  | { phase: 'Pending'; scheduled?: false }
  | {
      phase: 'CrashLoopBackOff';
      restarts: number;
      exitCode?: number;
      reason?: string;
      message?: string;
    }
  | { phase: 'Waiting'; reason: string; message?: string };

/** A pod of a ReplicaSet, bound to `node` (or unbound when Pending). */
export function makePod(
  replicaSet: ReplicaSet,
  suffix: string,
  node: string | undefined,
  state: PodState,
): Pod {
  const template = replicaSet.spec.template ?? { spec: { containers: [] } };
  const name = `${replicaSet.metadata.name}-${suffix}`;
  const containers = template.spec.containers;
  const pod: Pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: replicaSet.metadata.namespace,
      uid: uid('pod'),
      resourceVersion: '950',
      creationTimestamp: CREATED,
      labels: { ...template.metadata?.labels },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'ReplicaSet',
          name: replicaSet.metadata.name ?? '',
          uid: replicaSet.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    spec: { ...structuredClone(template.spec), ...(node ? { nodeName: node } : {}) },
    status: { phase: 'Pending' },
  };
  const status = (pod.status ??= {});
  if (state.phase === 'Pending') {
    status.phase = 'Pending';
    status.conditions = [
      {
        type: 'PodScheduled',
        status: 'False',
        reason: 'Unschedulable',
        message: '0/1 nodes are available: 1 node(s) were unschedulable.',
      },
    ];
    return pod;
  }
  status.phase = 'Running';
  status.hostIP = node ? nodeIP(node) : '';
  status.startTime = CREATED;
  if (state.phase === 'Running') {
    const ready = state.ready ?? true;
    status.conditions = [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: ready ? 'True' : 'False' },
    ];
    status.containerStatuses = containers.map((c) => ({
      name: c.name,
      image: c.image,
      ready,
      started: true,
      restartCount: state.restarts ?? 0,
      state: { running: { startedAt: state.startedAt ?? CREATED } },
      ...(state.lastExit
        ? {
            lastState: {
              terminated: {
                ...state.lastExit,
                reason: state.lastExit.reason ?? 'Error',
                startedAt: '2026-11-22T02:50:00Z',
                finishedAt: '2026-11-22T02:51:00Z',
              },
            },
          }
        : {}),
    }));
    return pod;
  }
  status.conditions = [
    { type: 'PodScheduled', status: 'True' },
    { type: 'Ready', status: 'False', reason: 'ContainersNotReady' },
  ];
  if (state.phase === 'Waiting') {
    status.phase = 'Pending';
    status.containerStatuses = containers.map((c) => ({
      name: c.name,
      image: c.image,
      ready: false,
      started: false,
      restartCount: 0,
      state: { waiting: { reason: state.reason, ...(state.message ? { message: state.message } : {}) } },
    }));
    return pod;
  }
  status.containerStatuses = containers.map((c) => ({
    name: c.name,
    image: c.image,
    ready: false,
    started: false,
    restartCount: state.restarts,
    state: {
      waiting: {
        reason: 'CrashLoopBackOff',
        message: `back-off 5m0s restarting failed container=${c.name} pod=${name}`,
      },
    },
    lastState: {
      terminated: {
        exitCode: state.exitCode ?? 1,
        reason: state.reason ?? 'Error',
        ...(state.message ? { message: state.message } : {}),
        startedAt: '2026-11-22T02:59:00Z',
        finishedAt: '2026-11-22T02:59:02Z',
      },
    },
  }));
  return pod;
}

/** Reasons Kubernetes reports as Normal events (the kubelet's Killing among them); the rest are Warnings. */
const NORMAL_REASONS = new Set([
  'Killing',
  'Pulling',
  'Pulled',
  'Created',
  'Started',
  'Scheduled',
  'SuccessfulCreate',
  'SuccessfulDelete',
  'ScalingReplicaSet',
]);

export function makeEvent(
  involved: { kind: string; name?: string; namespace?: string; uid?: string },
  reason: string,
  message: string,
  options: {
    type?: 'Normal' | 'Warning';
    count?: number;
    component?: string;
    /** `spec.containers{name}` for container-level kubelet events. */
    fieldPath?: string;
    host?: string;
  } = {},
): KubeEvent {
  return {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: {
      name: `${involved.name ?? 'x'}.${uid('ev')}`,
      namespace: involved.namespace,
      uid: uid('event'),
      creationTimestamp: NOW,
    },
    involvedObject: {
      kind: involved.kind,
      name: involved.name,
      namespace: involved.namespace,
      uid: involved.uid,
      ...(options.fieldPath ? { fieldPath: options.fieldPath } : {}),
    },
    reason,
    message,
    type: options.type ?? (NORMAL_REASONS.has(reason) ? 'Normal' : 'Warning'),
    count: options.count ?? 1,
    firstTimestamp: '2026-11-22T02:40:00Z',
    lastTimestamp: '2026-11-22T02:59:30Z',
    source: {
      component: options.component ?? 'default-scheduler',
      ...(options.host ? { host: options.host } : {}),
    },
  };
}

export function makePvc(
  name: string,
  namespace: string,
  options: { accessModes?: string[]; phase?: string } = {},
): PersistentVolumeClaim {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name, namespace, uid: uid('pvc'), resourceVersion: '10', creationTimestamp: CREATED },
    spec: { accessModes: options.accessModes ?? ['ReadWriteOnce'], volumeName: `pv-${name}` },
    status: { phase: options.phase ?? 'Bound' },
  };
}

/** What every snapshot holds, empty: a workload of `kind` named as its object is, read at NOW. */
export function emptySnapshot(
  kind: WorkloadKind,
  meta: { namespace?: string; name?: string },
): SnapshotCommon {
  return {
    target: { kind, namespace: meta.namespace ?? 'default', name: meta.name ?? '' },
    capturedAt: NOW,
    pods: [],
    events: [],
    nodes: [],
    nodesComplete: true,
    pvcs: [],
    otherPods: [],
    logs: {},
    accessProblems: [],
    coverage: fullCoverage(),
  };
}

/** A snapshot with the given parts and empty defaults for the rest. */
export function makeSnapshot(
  parts: Pick<DeploymentSnapshot, 'deployment'> & Partial<DeploymentSnapshot>,
): DeploymentSnapshot {
  return { ...emptySnapshot('Deployment', parts.deployment.metadata), replicaSets: [], ...parts };
}

/** A snapshot read by the collector or a dump, as a Deployment's (fails the test when it is another kind's). */
export function asDeployment(snapshot: WorkloadSnapshot): DeploymentSnapshot {
  if (!isDeploymentObjects(snapshot))
    throw new Error(`expected a Deployment snapshot, got ${snapshot.target.kind}`);
  return snapshot;
}
