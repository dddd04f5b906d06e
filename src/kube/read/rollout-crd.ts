/**
 * (Whether the cluster serves a CRD-provided kind such as Argo Rollouts: kind-served.ts.)
 * A Rollout with `spec.workloadRef` keeps no template of its own: the controller
 * takes the referenced Deployment's template and selector (argoproj/argo-rollouts
 * rollout/templateref.go Resolve), and so does the diagnosis, with one read.
 */
import type { Deployment } from '../../diagnosis/k8s-workloads.js';
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import type { WorkloadKindModule } from '../../diagnosis/workload-kind.js';
import type { KubeClient } from '../client.js';
import { ClusterError, KubeApiError } from '../errors.js';
import { getObject } from '../list.js';

/**
 * The workload as its controller sees it: when its kind takes the pod template from
 * another object (an Argo Rollout's workloadRef to a Deployment), that Deployment's
 * template (and selector, when the workload names none) filled in (the kind module's
 * `templateRef`, workloads/rollout/workload-ref.ts); the reference stays, so nothing
 * writes a template the workload does not own. Any other workload comes back as it is.
 * @throws ClusterError for a reference this tool cannot follow (a ReplicaSet or PodTemplate, or a missing Deployment).
 */
export async function resolveWorkloadRef<O extends WorkloadObject>(
  client: KubeClient,
  kind: WorkloadKindModule<O>,
  object: O,
): Promise<O> {
  const templateRef = kind.templateRef;
  const ref = templateRef?.of(object);
  if (!templateRef || !ref) return object;
  if ('unfollowable' in ref) throw new ClusterError(ref.unfollowable);
  let deployment: Deployment;
  try {
    deployment = await getObject<Deployment>(client, {
      resource: 'deployments',
      namespace: object.metadata.namespace,
      name: ref.name,
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      throw new ClusterError(
        `${kind.kind} ${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''} takes its pod template from deployment ${ref.name} (workloadRef), which does not exist`,
        404,
      );
    }
    throw error;
  }
  return templateRef.resolved(object, deployment);
}
