/**
 * The Argo Rollout kind's identity: Argo Rollouts' CRD (argoproj.io/v1alpha1,
 * manifests/crds/rollout-crd.yaml: shortName ro), served only where it is installed.
 * Its abort is a patch of the status subresource, as `kubectl argo rollouts abort` sends it.
 */
import type { ArgoRollout } from '../../k8s-argo.js';
import type { ReplicaSet } from '../../k8s-workloads.js';
import { workloadApi } from '../../workload-api.js';

export const rolloutApi = workloadApi<ArgoRollout, ReplicaSet>()({
  kind: 'Rollout',
  group: 'argoproj.io',
  version: 'v1alpha1',
  resource: 'rollouts',
  types: ['rollout', 'rollouts', 'ro', 'rollout.argoproj.io', 'rollouts.argoproj.io'],
  title: 'Argo Rollout',
  verbs: ['get', 'list', 'watch', 'patch'],
  subresources: { status: ['patch'] },
  revisions: { kind: 'ReplicaSet', resource: 'replicasets' },
  crd: { installedBy: 'Argo Rollouts' },
  snapshot: { object: 'rollout', revisions: 'replicaSets' },
});
