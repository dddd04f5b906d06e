/**
 * StatefulSets as the API server returns them (defaulted updateStrategy with partition
 * 0, status naming currentRevision and updateRevision), their ControllerRevisions and
 * their pods (`<set>-<ordinal>`, labelled with the revision's name and their index).
 */
import type { ControllerRevision, ReplicaSet, StatefulSet } from '../../src/diagnosis/k8s-workloads.js';
import type { Pod } from '../../src/diagnosis/k8s.js';
import type { WorkloadSnapshot } from '../../src/diagnosis/snapshot/types.js';
import { emptySnapshot, makePod, uid, type PodState } from './k8s-builders.js';

export function makeStatefulSet(
  name: string,
  options: {
    replicas?: number;
    partition?: number;
    policy?: 'OrderedReady' | 'Parallel';
    image?: string;
    status?: StatefulSet['status'];
    claims?: boolean;
  } = {},
): StatefulSet {
  return {
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    metadata: { name, namespace: 'payments', uid: uid('sts'), generation: 3, resourceVersion: '700' },
    spec: {
      replicas: options.replicas ?? 3,
      serviceName: name,
      podManagementPolicy: options.policy ?? 'OrderedReady',
      selector: { matchLabels: { app: name } },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: options.partition ?? 0 } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name, image: options.image ?? `registry.example/${name}:3.4.1` }] },
      },
      ...(options.claims === false
        ? {}
        : {
            volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { accessModes: ['ReadWriteOnce'] } }],
          }),
    },
    ...(options.status ? { status: options.status } : {}),
  };
}

export function makeStsRevision(sts: StatefulSet, hash: string, revision: number): ControllerRevision {
  return {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name: `${sts.metadata.name ?? ''}-${hash}`,
      namespace: sts.metadata.namespace,
      uid: uid('cr'),
      labels: { ...sts.spec.selector.matchLabels, 'controller-revision-hash': hash },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: sts.metadata.name ?? '',
          uid: sts.metadata.uid ?? '',
          controller: true,
        },
      ],
    },
    data: { spec: { template: { ...structuredClone(sts.spec.template), $patch: 'replace' } } },
    revision,
  };
}

/** Pod `<set>-<ordinal>` of the revision, on `node`. */
export function makeStsPod(
  sts: StatefulSet,
  revision: ControllerRevision,
  ordinal: number,
  node: string,
  state: PodState,
): Pod {
  const setName = sts.metadata.name ?? '';
  const carrier: ReplicaSet = {
    metadata: { name: setName, namespace: sts.metadata.namespace },
    spec: { selector: sts.spec.selector, template: structuredClone(sts.spec.template) },
  };
  const pod = makePod(carrier, String(ordinal), state.phase === 'Pending' ? undefined : node, state);
  pod.metadata.labels = {
    ...sts.spec.template.metadata?.labels,
    'controller-revision-hash': revision.metadata.name ?? '',
    'statefulset.kubernetes.io/pod-name': `${setName}-${ordinal}`,
    'apps.kubernetes.io/pod-index': String(ordinal),
  };
  pod.metadata.ownerReferences = [
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      name: setName,
      uid: sts.metadata.uid ?? '',
      controller: true,
    },
  ];
  return pod;
}

export function makeStatefulSetSnapshot(
  parts: { statefulSet: StatefulSet; controllerRevisions: ControllerRevision[] } & Partial<
    Omit<WorkloadSnapshot, 'target'>
  >,
): WorkloadSnapshot {
  return { ...emptySnapshot('StatefulSet', parts.statefulSet.metadata), ...parts };
}
