/**
 * Argo Rollouts as the API server returns them (argoproj.io/v1alpha1: status written by
 * the rollouts controller, observedGeneration a string), their ReplicaSets (named and
 * labelled with rollouts-pod-template-hash, controlled by the Rollout) and pods.
 */
import type { ArgoRollout } from '../../src/diagnosis/k8s-argo.js';
import type { Deployment, ReplicaSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Node, Pod } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import {
  emptySnapshot,
  makeEvent,
  makeNode,
  makePod,
  makeReplicaSet,
  uid,
  type PodState,
} from './k8s-builders.js';

const HASH = 'rollouts-pod-template-hash';

export interface RolloutOptions {
  namespace?: string;
  replicas?: number;
  strategy?: ArgoRollout['spec']['strategy'];
  image?: string;
  resources?: Record<string, string>;
  status?: ArgoRollout['status'];
  generation?: number;
}

export function makeRollout(name: string, options: RolloutOptions = {}): ArgoRollout {
  const generation = options.generation ?? 2;
  const resources = options.resources
    ? { requests: options.resources, limits: options.resources }
    : undefined;
  return {
    apiVersion: 'argoproj.io/v1alpha1',
    kind: 'Rollout',
    metadata: {
      name,
      namespace: options.namespace ?? 'vision',
      uid: uid('ro'),
      generation,
      resourceVersion: '700',
      creationTimestamp: '2026-11-22T02:00:00Z',
      annotations: { 'rollout.argoproj.io/revision': '2' },
    },
    spec: {
      replicas: options.replicas ?? 1,
      selector: { matchLabels: { app: name } },
      strategy: options.strategy ?? { canary: { steps: [{ setWeight: 50 }, { pause: {} }] } },
      template: {
        metadata: { labels: { app: name } },
        spec: {
          containers: [
            {
              name,
              image: options.image ?? `registry.example/${name}:1.1`,
              ...(resources ? { resources } : {}),
            },
          ],
        },
      },
    },
    status: options.status ?? {
      observedGeneration: String(generation),
      phase: 'Healthy',
      currentPodHash: 'b2',
      stableRS: 'b2',
      replicas: options.replicas ?? 1,
      updatedReplicas: options.replicas ?? 1,
      availableReplicas: options.replicas ?? 1,
    },
  };
}

/** A ReplicaSet of the Rollout for `hash`, its template the Rollout's unless another is given. */
export function makeRolloutReplicaSet(
  rollout: ArgoRollout,
  hash: string,
  options: { revision?: number; replicas?: number; available?: number; image?: string } = {},
): ReplicaSet {
  const template = structuredClone(rollout.spec.template ?? { spec: { containers: [] } });
  const container = template.spec.containers[0];
  if (options.image && container) container.image = options.image;
  const carrier = {
    metadata: rollout.metadata,
    spec: { ...rollout.spec, template },
  } as unknown as Deployment;
  const rs = makeReplicaSet(carrier, hash, { replicas: options.replicas ?? 1, template });
  const labels = (l: Record<string, string> | undefined): Record<string, string> => {
    const out: Record<string, string> = { ...l, [HASH]: hash };
    delete out['pod-template-hash'];
    return out;
  };
  rs.metadata.labels = labels(rs.metadata.labels);
  rs.metadata.annotations = { 'rollout.argoproj.io/revision': String(options.revision ?? 1) };
  rs.metadata.ownerReferences = [
    {
      apiVersion: 'argoproj.io/v1alpha1',
      kind: 'Rollout',
      name: rollout.metadata.name ?? '',
      uid: rollout.metadata.uid ?? '',
      controller: true,
    },
  ];
  rs.spec.selector = { matchLabels: labels(rs.spec.selector.matchLabels) };
  if (rs.spec.template) rs.spec.template.metadata = { labels: labels(rs.spec.template.metadata?.labels) };
  const available = options.available ?? rs.spec.replicas ?? 0;
  rs.status = { replicas: rs.spec.replicas, readyReplicas: available, availableReplicas: available };
  return rs;
}

export function makeRolloutPod(
  rs: ReplicaSet,
  suffix: string,
  node: string | undefined,
  state: PodState,
): Pod {
  return makePod(rs, suffix, node, state);
}

/** A Rollout snapshot with empty defaults for what is not given. */
export function makeRolloutSnapshot(
  parts: { rollout: ArgoRollout; replicaSets: ReplicaSet[] } & Partial<Omit<WorkloadSnapshot, 'target'>>,
): WorkloadSnapshot {
  return { ...emptySnapshot('Rollout', parts.rollout.metadata), ...parts };
}

const GPU_MESSAGE =
  '0/1 nodes are available: 1 Insufficient nvidia.com/gpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.';

/** The GPU tracker mid-update: the stable pod holds the only GPU, the canary (or preview) pod waits for it. */
export function trackerMidUpdate(
  strategy: ArgoRollout['spec']['strategy'] = { canary: { steps: [{ setWeight: 50 }, { pause: {} }] } },
  replicas = 1,
) {
  const nodes: Node[] = [makeNode('gpu-node-1', { allocatable: { 'nvidia.com/gpu': String(replicas) } })];
  const rollout = makeRollout('tracker', {
    strategy,
    replicas,
    resources: { 'nvidia.com/gpu': '1' },
    status: {
      observedGeneration: '2',
      phase: 'Progressing',
      message: 'more replicas need to be updated',
      currentPodHash: 'b2',
      stableRS: 'a1',
      currentStepIndex: 0,
      replicas: replicas + 1,
      updatedReplicas: 0,
      availableReplicas: replicas,
    },
  });
  const stable = makeRolloutReplicaSet(rollout, 'a1', {
    revision: 1,
    replicas,
    image: 'registry.example/tracker:1.0',
  });
  const canary = makeRolloutReplicaSet(rollout, 'b2', { revision: 2, replicas: 1, available: 0 });
  const old = Array.from({ length: replicas }, (_, i) =>
    makeRolloutPod(stable, `s${i}`, 'gpu-node-1', { phase: 'Running' }),
  );
  const pending = makeRolloutPod(canary, 'c0', undefined, { phase: 'Pending' });
  const event = makeEvent(
    { kind: 'Pod', name: pending.metadata.name, namespace: 'vision', uid: pending.metadata.uid },
    'FailedScheduling',
    GPU_MESSAGE,
    { type: 'Warning', component: 'default-scheduler' },
  );
  return makeRolloutSnapshot({
    rollout,
    replicaSets: [canary, stable],
    pods: [...old, pending],
    events: [event],
    nodes,
  });
}
