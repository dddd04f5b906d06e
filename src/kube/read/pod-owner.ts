/**
 * Alerts name pods (KubePodCrashLooping carries `namespace` and `pod`); diagnoses are
 * about workloads. Walk the controller owner references: Pod → a workload kind that
 * controls its pods directly (a DaemonSet), or Pod → ReplicaSet → a workload kind the
 * registry knows (a Deployment).
 */
import type { Pod } from '../../diagnosis/k8s.js';
import type { ReplicaSet } from '../../diagnosis/k8s-workloads.js';
import {
  isWorkloadKind,
  kindsPhrase,
  WORKLOAD_NAMES,
  type WorkloadKind,
  type WorkloadRef,
} from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { KubeClient } from '../client.js';
import { KubeApiError, WorkloadNotFoundError } from '../errors.js';
import { getObject } from '../list.js';
import { controllerOf } from '../owner-references.js';

/**
 * The workload that controls a pod.
 *
 * @throws WorkloadNotFoundError when the pod or its ReplicaSet is gone, or the pod is
 *   not controlled by a workload of a known kind (a bare pod, a StatefulSet, a Job...), saying which.
 * @throws KubeApiError when the cluster cannot be read.
 */
export async function resolveWorkloadForPod(
  client: KubeClient,
  namespace: string,
  pod: string,
): Promise<WorkloadRef> {
  const podObject = await getOrExplain<Pod>(
    client,
    'pods',
    namespace,
    pod,
    `pod "${pod}" not found in namespace "${namespace}"`,
  );
  const owner = controllerOf(podObject);
  const kinds = kindsPhrase('', 'or');
  if (!owner) {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} has no controller: it is not part of a ${kinds}`,
      [namespace],
    );
  }
  // A kind that controls its pods itself (DaemonSet, StatefulSet): no ReplicaSet between.
  if (isOurKind(owner) && workloadKind(owner.kind).podOwner === 'itself') {
    return { kind: owner.kind, namespace, name: owner.name };
  }
  if (owner.kind !== 'ReplicaSet') {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} is controlled by ${owner.kind} ${owner.name}, not by a ${kinds}'s ReplicaSet`,
      [namespace],
    );
  }
  const rs = await getOrExplain<ReplicaSet>(
    client,
    'replicasets',
    namespace,
    owner.name,
    `replica set "${owner.name}" of pod ${namespace}/${pod} no longer exists`,
  );
  const rsOwner = controllerOf(rs);
  if (!rsOwner || !isOurKind(rsOwner)) {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} belongs to replica set ${owner.name}, which no ${kinds} controls`,
      [namespace],
    );
  }
  return { kind: rsOwner.kind, namespace, name: rsOwner.name };
}

/**
 * A known kind of its own API group: another operator's "Rollout" (not argoproj.io) is
 * not an Argo Rollout. A reference without apiVersion (a hand-written object) is taken by kind.
 */
function isOurKind(ref: { apiVersion?: string; kind: string }): ref is { kind: WorkloadKind } {
  if (!isWorkloadKind(ref.kind)) return false;
  if (ref.apiVersion === undefined) return true;
  const group = ref.apiVersion.includes('/') ? ref.apiVersion.split('/')[0] : '';
  return group === WORKLOAD_NAMES[ref.kind].group;
}

async function getOrExplain<T>(
  client: KubeClient,
  resource: 'pods' | 'replicasets',
  namespace: string,
  name: string,
  notFound: string,
): Promise<T> {
  try {
    return await getObject<T>(client, { resource, namespace, name });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404)
      throw new WorkloadNotFoundError(notFound, [namespace]);
    throw error;
  }
}
