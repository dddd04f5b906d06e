/**
 * What the engine keeps of another Deployment, a neighbour of the workload diagnosed
 * (snapshot `neighbourDeployments`; forward/job-wait.ts): paused, its replicas, and
 * whether it is being deleted (its controller then only syncs status: it scales nothing).
 */
import type { Deployment } from '../../k8s-workloads.js';
import type { NeighbourDeployment } from '../../base/neighbour-deployments.js';

/** "namespace/name", paused or not, and spec.replicas (1 where unset, as the API server defaults it). */
export function neighbourEntry(deployment: Deployment, namespace: string): NeighbourDeployment {
  return {
    name: `${deployment.metadata.namespace ?? namespace}/${deployment.metadata.name ?? ''}`,
    paused: deployment.spec.paused === true,
    replicas: deployment.spec.replicas ?? 1,
    ...(deployment.metadata.deletionTimestamp ? { deleting: true as const } : {}),
  };
}
