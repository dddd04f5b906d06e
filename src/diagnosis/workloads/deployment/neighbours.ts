/**
 * What the engine keeps of another Deployment, a neighbour of the workload diagnosed
 * (snapshot `neighbourDeployments`; forward/job-wait.ts): paused, its replicas, and
 * whether it is being deleted (its controller then only syncs status: it scales nothing).
 */
import type { Deployment } from '../../k8s-workloads.js';
import type { HorizontalPodAutoscaler } from '../../k8s-policy.js';
import type { NeighbourDeployment } from '../../base/neighbour-deployments.js';
import type { WorkloadSnapshot } from '../../snapshot/types.js';

type NeighbourAutoscaler = NonNullable<WorkloadSnapshot['neighbourAutoscalers']>[number];

/**
 * The autoscalers of Deployments among `hpas` (scaleTargetRef kind Deployment in the apps
 * group), by their target's "namespace/name"; minReplicas 1 where unset, as the API
 * server defaults it. One without maxReplicas (not valid) is left out.
 */
export function neighbourAutoscalers(
  hpas: readonly HorizontalPodAutoscaler[],
  namespace: string,
): NeighbourAutoscaler[] {
  return hpas.flatMap((hpa) => {
    const target = hpa.spec?.scaleTargetRef;
    // ParseGroupVersion: the group is what comes before "/"; none ("v1", "apps", unset) is
    // the core group, where no Deployment is served and the autoscaler fails to get its scale.
    const group = target?.apiVersion?.includes('/') ? target.apiVersion.split('/')[0] : '';
    const max = hpa.spec?.maxReplicas;
    if (target?.kind !== 'Deployment' || group !== 'apps' || !target.name || max === undefined) return [];
    const ns = hpa.metadata.namespace ?? namespace;
    return [{ target: `${ns}/${target.name}`, min: hpa.spec?.minReplicas ?? 1, max }];
  });
}

/** "namespace/name", paused or not, and spec.replicas (1 where unset, as the API server defaults it). */
export function neighbourEntry(deployment: Deployment, namespace: string): NeighbourDeployment {
  return {
    name: `${deployment.metadata.namespace ?? namespace}/${deployment.metadata.name ?? ''}`,
    paused: deployment.spec.paused === true,
    replicas: deployment.spec.replicas ?? 1,
    ...(deployment.metadata.deletionTimestamp ? { deleting: true as const } : {}),
  };
}
