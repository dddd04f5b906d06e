/**
 * StatefulSet pods and claims as pkg/controller/statefulset/stateful_set_utils.go builds
 * them: `<set>-<ordinal>` named, labelled `statefulset.kubernetes.io/pod-name`,
 * `apps.kubernetes.io/pod-index` (PodIndexLabel, GA in 1.32) and
 * `controller-revision-hash: <revision name>`, hostname and subdomain set
 * (initIdentity), one volume per volumeClaimTemplate bound to the claim
 * `<template>-<set>-<ordinal>` (updateStorage, getPersistentVolumeClaims), plus the pod
 * predicates the controller waits on.
 */
import type { Pod, PodTemplateSpec, Volume } from '../../src/diagnosis/k8s.js';
import { nowRfc3339 } from '../defaults.js';
import { resourceForKind } from '../resources.js';
import type { SimObject, Store } from '../store.js';
import { createObject } from '../writes.js';
import { isPodAvailable, isPodReady } from './pods.js';
import type { StatefulSet, VolumeClaimTemplate } from './workload-types.js';

const PVC_RT = resourceForKind('PersistentVolumeClaim');
const PV_RT = resourceForKind('PersistentVolume');
export const POD_NAME_LABEL = 'statefulset.kubernetes.io/pod-name';
export const POD_INDEX_LABEL = 'apps.kubernetes.io/pod-index';
export const REVISION_LABEL = 'controller-revision-hash';

/** getParentNameAndOrdinal: the ordinal when the pod is `<set>-<n>`, else -1. */
export function ordinalOf(podName: string, setName: string): number {
  const m = /^(.*)-([0-9]+)$/.exec(podName);
  if (!m || m[1] !== setName) return -1;
  const n = Number(m[2]);
  return n <= 2 ** 31 - 1 ? n : -1;
}

export const isRunningAndReady = (pod: Pod): boolean => pod.status?.phase === 'Running' && isPodReady(pod);

/** isRunningAndAvailable: podutil.IsPodAvailable with the set's minReadySeconds. */
export function isRunningAndAvailable(pod: Pod, minReadySeconds: number, timeScale: number): boolean {
  return isRunningAndReady(pod) && isPodAvailable(pod, minReadySeconds, timeScale);
}

/** isUnavailable: terminating, or not running, ready and available. */
export function isUnavailable(pod: Pod | undefined, minReadySeconds: number, timeScale: number): boolean {
  return !pod || !!pod.metadata.deletionTimestamp || !isRunningAndAvailable(pod, minReadySeconds, timeScale);
}

export const claimName = (template: VolumeClaimTemplate, set: StatefulSet, ordinal: number): string =>
  `${template.metadata.name}-${set.metadata.name}-${ordinal}`;

/** newStatefulSetPod + setPodRevision: the pod for an ordinal from a template at a revision. */
export function newStatefulSetPod(
  setObj: SimObject,
  template: PodTemplateSpec,
  ordinal: number,
  revision: string,
): Record<string, unknown> {
  const set = setObj as unknown as StatefulSet;
  const name = `${setObj.metadata.name}-${ordinal}`;
  const spec = structuredClone(template.spec);
  const claims = set.spec.volumeClaimTemplates ?? [];
  const claimVolumes: Volume[] = claims.map((c) => ({
    name: c.metadata.name,
    persistentVolumeClaim: { claimName: claimName(c, set, ordinal) },
  }));
  const own = (spec.volumes ?? []).filter((v) => !claims.some((c) => c.metadata.name === v.name));
  if (claimVolumes.length + own.length > 0) spec.volumes = [...claimVolumes, ...own];
  const specWithIdentity = {
    ...spec,
    hostname: name,
    ...(set.spec.serviceName ? { subdomain: set.spec.serviceName } : {}),
  };
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name,
      namespace: setObj.metadata.namespace,
      labels: {
        ...(template.metadata?.labels ?? {}),
        [REVISION_LABEL]: revision,
        [POD_NAME_LABEL]: name,
        [POD_INDEX_LABEL]: String(ordinal),
      },
      ...(template.metadata?.annotations ? { annotations: { ...template.metadata.annotations } } : {}),
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'StatefulSet',
          name: setObj.metadata.name,
          uid: setObj.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    spec: specWithIdentity,
  };
}

/**
 * A stand-in for dynamic provisioning (not the StatefulSet controller's work): a claim
 * whose class exists (or, with none named, when a default StorageClass exists) gets a
 * PersistentVolume `pvc-<claim uid>` and is Bound to it, as the external provisioner and
 * the PV controller would; otherwise the claim stays Pending. A WaitForFirstConsumer
 * class leaves it Pending for the scheduler to bind with the pod (volume-binding.ts).
 */
function provision(store: Store, claim: SimObject): void {
  if (!PV_RT || !PVC_RT) return;
  const spec = (claim['spec'] ?? {}) as {
    storageClassName?: string;
    accessModes?: string[];
    resources?: { requests?: { storage?: string } };
    volumeMode?: string;
  };
  const isDefault = (sc: SimObject): boolean =>
    sc.metadata.annotations?.['storageclass.kubernetes.io/is-default-class'] === 'true';
  const className = spec.storageClassName ?? store.list('StorageClass').find(isDefault)?.metadata.name;
  const storageClass = className ? store.get('StorageClass', undefined, className) : undefined;
  if (!storageClass) return;
  // WaitForFirstConsumer: bound when the pod is scheduled (volume-binding.ts); a class
  // without a provisioner binds only pre-made volumes, there too.
  if (storageClass['volumeBindingMode'] === 'WaitForFirstConsumer') {
    if (spec.storageClassName === undefined)
      store.put({ ...structuredClone(claim), spec: { ...spec, storageClassName: className } });
    return;
  }
  const volume = `pvc-${claim.metadata.uid ?? ''}`;
  const capacity = { storage: spec.resources?.requests?.storage ?? '1Gi' };
  createObject(
    store,
    PV_RT,
    {
      apiVersion: 'v1',
      kind: 'PersistentVolume',
      metadata: {
        name: volume,
        annotations: { 'pv.kubernetes.io/provisioned-by': String(storageClass['provisioner'] ?? '') },
      },
      spec: {
        capacity,
        accessModes: spec.accessModes ?? ['ReadWriteOnce'],
        claimRef: {
          apiVersion: 'v1',
          kind: 'PersistentVolumeClaim',
          namespace: claim.metadata.namespace,
          name: claim.metadata.name,
          uid: claim.metadata.uid,
        },
        persistentVolumeReclaimPolicy: String(storageClass['reclaimPolicy'] ?? 'Delete'),
        storageClassName: className,
        volumeMode: spec.volumeMode ?? 'Filesystem',
      },
      status: { phase: 'Bound', lastPhaseTransitionTime: nowRfc3339() },
    },
    undefined,
  );
  const bound = structuredClone(claim);
  bound.metadata.annotations = {
    ...(bound.metadata.annotations ?? {}),
    'pv.kubernetes.io/bind-completed': 'yes',
    'pv.kubernetes.io/bound-by-controller': 'yes',
  };
  bound['spec'] = { ...spec, storageClassName: className, volumeName: volume };
  bound['status'] = { phase: 'Bound', accessModes: spec.accessModes ?? ['ReadWriteOnce'], capacity };
  store.put(bound);
}

/**
 * createPersistentVolumeClaims: each missing claim of the pod is created from its
 * template (labels: the template's plus the selector's matchLabels, no owner with the
 * default Retain policy); returns the names created, for the controller's events.
 */
export function createMissingClaims(store: Store, setObj: SimObject, ordinal: number): string[] {
  const set = setObj as unknown as StatefulSet;
  const created: string[] = [];
  if (!PVC_RT) return created;
  for (const template of set.spec.volumeClaimTemplates ?? []) {
    const name = claimName(template, set, ordinal);
    if (store.get('PersistentVolumeClaim', setObj.metadata.namespace, name)) continue;
    const copy = structuredClone(template) as unknown as SimObject;
    copy.metadata = {
      ...copy.metadata,
      name,
      namespace: setObj.metadata.namespace,
      labels: { ...(template.metadata.labels ?? {}), ...(set.spec.selector.matchLabels ?? {}) },
    };
    copy['status'] = { phase: 'Pending' };
    provision(store, createObject(store, PVC_RT, copy, setObj.metadata.namespace));
    created.push(name);
  }
  return created;
}
