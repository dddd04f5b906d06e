/**
 * Alerts name pods (KubePodCrashLooping carries `namespace` and `pod`); diagnoses are
 * about Deployments. Walk the controller owner references: Pod → ReplicaSet → Deployment.
 */
import type { Pod, ReplicaSet } from '../../diagnosis/k8s.js';
import type { WorkloadRef } from '../../diagnosis/snapshot.js';
import type { KubeClient } from '../client.js';
import { KubeApiError, WorkloadNotFoundError } from '../errors.js';
import { getObject } from '../list.js';
import { controllerOf } from '../owner-references.js';

/**
 * The Deployment that controls a pod.
 *
 * @throws WorkloadNotFoundError when the pod or its ReplicaSet is gone, or the pod is
 *   not controlled by a Deployment (a bare pod, a StatefulSet, a Job...), saying which.
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
  if (!owner) {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} has no controller: it is not part of a Deployment`,
      [namespace],
    );
  }
  if (owner.kind !== 'ReplicaSet') {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} is controlled by ${owner.kind} ${owner.name}, not by a Deployment's ReplicaSet`,
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
  if (!rsOwner || rsOwner.kind !== 'Deployment') {
    throw new WorkloadNotFoundError(
      `pod ${namespace}/${pod} belongs to replica set ${owner.name}, which no Deployment controls`,
      [namespace],
    );
  }
  return { kind: 'Deployment', namespace, name: rsOwner.name };
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
