/** The Deployment kind's identity (apps/v1): names, RBAC, snapshot fields (workload-api.ts). */
import type { Deployment, ReplicaSet } from '../../k8s-workloads.js';
import { workloadApi } from '../../workload-api.js';

export const deploymentApi = workloadApi<Deployment, ReplicaSet>()({
  kind: 'Deployment',
  group: 'apps',
  version: 'v1',
  resource: 'deployments',
  types: ['deployment', 'deployments', 'deploy', 'deployment.apps', 'deployments.apps'],
  title: 'Deployment',
  verbs: ['get', 'list', 'watch', 'patch'],
  revisions: { kind: 'ReplicaSet', resource: 'replicasets' },
  snapshot: { object: 'deployment', revisions: 'replicaSets' },
});
