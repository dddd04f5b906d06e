/**
 * Generates large scenarios (10 nodes / 100 pods up to 5,000 nodes / 100,000 pods):
 * background Deployments whose ReplicaSets and pods arrive already running with
 * consistent status (so controllers have nothing to do at load), plus the seed-A
 * target — `vision/vision-object-tracker` pinned to the only GPU node — so one
 * diagnosis can be compared across cluster sizes.
 */
import { podTemplateHash } from './controllers/rollout-math.js';
import type { PodTemplateSpec } from '../src/diagnosis/k8s.js';

export interface ScaleOptions {
  nodes: number;
  /** Background pods (the target Deployment's pod comes on top). */
  pods: number;
  /** Replicas per background Deployment (default 20). */
  replicasPerDeployment?: number;
  /** Background namespaces (default: one per 50 Deployments, at least 1). */
  namespaces?: number;
  /** Include the seed-A GPU Deployment in namespace `vision` (default true). */
  includeTarget?: boolean;
}

const CREATED = '2026-11-20T08:00:00Z';

function node(name: string, index: number, gpu: boolean): object {
  const zone = `europe-west4-${'abc'[index % 3] ?? 'a'}`;
  const allocatable: Record<string, string> = {
    cpu: '31850m',
    memory: '120Gi',
    pods: '110',
    'ephemeral-storage': '94998384Ki',
  };
  if (gpu) allocatable['nvidia.com/gpu'] = '1';
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      creationTimestamp: CREATED,
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'node.kubernetes.io/instance-type': gpu ? 'g2-standard-32' : 'n2-standard-32',
        'topology.kubernetes.io/zone': zone,
        ...(gpu ? { 'cloud.google.com/gke-accelerator': 'nvidia-l4' } : {}),
      },
    },
    spec: {},
    status: {
      capacity: allocatable,
      allocatable,
      conditions: [
        { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' },
      ],
      nodeInfo: {
        architecture: 'amd64',
        operatingSystem: 'linux',
        osImage: 'Debian GNU/Linux 12 (bookworm)',
        kernelVersion: '6.1.0-27-cloud-amd64',
        containerRuntimeVersion: 'containerd://1.7.22',
        kubeletVersion: 'v1.31.4',
        kubeProxyVersion: 'v1.31.4',
      },
    },
  };
}

function uidFor(kind: string, n: number): string {
  const hex = (n >>> 0).toString(16).padStart(12, '0');
  const k = kind === 'Deployment' ? 'd' : kind === 'ReplicaSet' ? 'e' : 'f';
  return `00000000-0000-4000-a${k}00-${hex}`;
}

function background(
  ns: string,
  name: string,
  id: number,
  replicas: number,
  nodeFor: (i: number) => string,
  podSeq: { n: number },
): object[] {
  const labels = { app: name };
  const template: PodTemplateSpec = {
    metadata: { labels },
    spec: {
      containers: [
        {
          name: 'app',
          image: `registry.example.com/${name}:1.0`,
          resources: { requests: { cpu: '100m', memory: '128Mi' } },
        },
      ],
    },
  };
  const hash = podTemplateHash(template);
  const rsName = `${name}-${hash}`;
  const dUid = uidFor('Deployment', id);
  const rsUid = uidFor('ReplicaSet', id);
  const rsTemplate = { ...template, metadata: { labels: { ...labels, 'pod-template-hash': hash } } };
  const conditions = [
    {
      type: 'Available',
      status: 'True',
      reason: 'MinimumReplicasAvailable',
      message: 'Deployment has minimum availability.',
      lastUpdateTime: CREATED,
      lastTransitionTime: CREATED,
    },
    {
      type: 'Progressing',
      status: 'True',
      reason: 'NewReplicaSetAvailable',
      message: `ReplicaSet "${rsName}" has successfully progressed.`,
      lastUpdateTime: CREATED,
      lastTransitionTime: CREATED,
    },
  ];
  const out: object[] = [
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name,
        namespace: ns,
        uid: dUid,
        creationTimestamp: CREATED,
        generation: 1,
        labels,
        annotations: { 'deployment.kubernetes.io/revision': '1' },
      },
      spec: { replicas, selector: { matchLabels: labels }, template },
      status: {
        observedGeneration: 1,
        replicas,
        updatedReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        unavailableReplicas: 0,
        conditions,
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      metadata: {
        name: rsName,
        namespace: ns,
        uid: rsUid,
        creationTimestamp: CREATED,
        generation: 1,
        labels: rsTemplate.metadata.labels,
        annotations: {
          'deployment.kubernetes.io/revision': '1',
          'deployment.kubernetes.io/desired-replicas': String(replicas),
          'deployment.kubernetes.io/max-replicas': String(replicas + Math.ceil(replicas / 4)),
        },
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'Deployment',
            name,
            uid: dUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: {
        replicas,
        minReadySeconds: 0,
        selector: { matchLabels: { ...labels, 'pod-template-hash': hash } },
        template: rsTemplate,
      },
      status: {
        replicas,
        fullyLabeledReplicas: replicas,
        readyReplicas: replicas,
        availableReplicas: replicas,
        observedGeneration: 1,
      },
    },
  ];
  for (let i = 0; i < replicas; i += 1) {
    podSeq.n += 1;
    const podName = `${rsName}-${podSeq.n.toString(36).padStart(5, 'x')}`;
    out.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName,
        namespace: ns,
        uid: uidFor('Pod', podSeq.n),
        creationTimestamp: CREATED,
        labels: rsTemplate.metadata.labels,
        ownerReferences: [
          {
            apiVersion: 'apps/v1',
            kind: 'ReplicaSet',
            name: rsName,
            uid: rsUid,
            controller: true,
            blockOwnerDeletion: true,
          },
        ],
      },
      spec: { ...rsTemplate.spec, nodeName: nodeFor(podSeq.n) },
      status: {
        phase: 'Running',
        conditions: [
          { type: 'Initialized', status: 'True', lastTransitionTime: CREATED },
          { type: 'Ready', status: 'True', lastTransitionTime: CREATED },
          { type: 'ContainersReady', status: 'True', lastTransitionTime: CREATED },
          { type: 'PodScheduled', status: 'True', lastTransitionTime: CREATED },
        ],
        containerStatuses: [
          {
            name: 'app',
            image: `registry.example.com/${name}:1.0`,
            ready: true,
            started: true,
            restartCount: 0,
            state: { running: { startedAt: CREATED } },
          },
        ],
        startTime: CREATED,
      },
    });
  }
  return out;
}

function target(): object[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'vision' } },
    {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'vision-object-tracker',
        namespace: 'vision',
        labels: { app: 'vision-object-tracker' },
      },
      spec: {
        replicas: 1,
        selector: { matchLabels: { app: 'vision-object-tracker' } },
        template: {
          metadata: { labels: { app: 'vision-object-tracker' } },
          spec: {
            nodeSelector: { 'kubernetes.io/hostname': 'gpu-node-1' },
            containers: [
              {
                name: 'tracker',
                image: 'vision/boost-track-app:1.0',
                ports: [{ containerPort: 8004, name: 'http' }],
                resources: {
                  requests: { cpu: '2', memory: '4Gi' },
                  limits: { 'nvidia.com/gpu': 1, memory: '8Gi' },
                },
              },
            ],
          },
        },
      },
    },
  ];
}

/**
 * Builds the objects of a cluster with `nodes` nodes (the first is gpu-node-1) and
 * `pods` background pods spread round-robin over the other nodes.
 *
 * @example generateScaleScenario({ nodes: 5000, pods: 100_000 })
 */
export function generateScaleScenario(options: ScaleOptions): object[] {
  const { nodes } = options;
  if (nodes < 2) throw new Error('generateScaleScenario: need at least 2 nodes');
  const perDeployment = options.replicasPerDeployment ?? 20;
  const deployments = Math.ceil(options.pods / perDeployment);
  const namespaces = options.namespaces ?? Math.max(1, Math.ceil(deployments / 50));
  const out: object[] = [node('gpu-node-1', 0, true)];
  const width = String(nodes).length;
  const names: string[] = [];
  for (let i = 1; i < nodes; i += 1) {
    const name = `node-${String(i).padStart(width, '0')}`;
    names.push(name);
    out.push(node(name, i, false));
  }
  for (let n = 0; n < namespaces; n += 1)
    out.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: `team-${n}` } });
  const seq = { n: 0 };
  let left = options.pods;
  for (let d = 0; d < deployments; d += 1) {
    const replicas = Math.min(perDeployment, left);
    left -= replicas;
    out.push(
      ...background(
        `team-${d % namespaces}`,
        `svc-${d}`,
        d + 1,
        replicas,
        (i) => names[i % names.length] ?? 'node-1',
        seq,
      ),
    );
  }
  if (options.includeTarget !== false) out.push(...target());
  return out;
}
