/**
 * Argo Rollouts as the API server returns them (argoproj.io/v1alpha1: status written by
 * the rollouts controller, observedGeneration a string), their ReplicaSets (named and
 * labelled with rollouts-pod-template-hash, controlled by the Rollout) and pods.
 */
import type { ArgoRollout, Deployment, Pod, ReplicaSet } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot.js';
import { emptySnapshot, makePod, makeReplicaSet, uid, type PodState } from './k8s-builders.js';

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
