/** The StatefulSet kind's identity (apps/v1): names, RBAC, snapshot fields (workload-api.ts). */
import type { ControllerRevision, StatefulSet } from '../../k8s-workloads.js';
import { workloadApi } from '../../workload-api.js';

export const statefulSetApi = workloadApi<StatefulSet, ControllerRevision>()({
  kind: 'StatefulSet',
  group: 'apps',
  version: 'v1',
  resource: 'statefulsets',
  types: ['statefulset', 'statefulsets', 'sts', 'statefulset.apps', 'statefulsets.apps'],
  title: 'StatefulSet',
  verbs: ['get', 'list', 'watch', 'patch'],
  revisions: { kind: 'ControllerRevision', resource: 'controllerrevisions' },
  snapshot: { object: 'statefulSet', revisions: 'controllerRevisions' },
});
