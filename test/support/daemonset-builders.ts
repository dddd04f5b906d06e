/**
 * DaemonSets as the API server returns them (defaulted updateStrategy, status counts),
 * their ControllerRevisions (data as the controller stores it: the template as a
 * strategic merge patch with `$patch: replace`) and their pods (controlled by the
 * DaemonSet, labelled with the revision's hash, pinned to their node).
 */
import type { ControllerRevision, DaemonSet, Pod, PodSpec, ReplicaSet } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { emptySnapshot, makePod, uid, type PodState } from './k8s-builders.js';

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
