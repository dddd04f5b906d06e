/** The DaemonSet kind's identity (apps/v1): names, RBAC, snapshot fields (workload-api.ts). */
import type { ControllerRevision, DaemonSet } from '../../k8s-workloads.js';
import { workloadApi } from '../../workload-api.js';

export const daemonSetApi = workloadApi<DaemonSet, ControllerRevision>()({
  kind: 'DaemonSet',
  group: 'apps',
  version: 'v1',
  resource: 'daemonsets',
  types: ['daemonset', 'daemonsets', 'ds', 'daemonset.apps', 'daemonsets.apps'],
  title: 'DaemonSet',
  verbs: ['get', 'list', 'watch', 'patch'],
  revisions: { kind: 'ControllerRevision', resource: 'controllerrevisions' },
  snapshot: { object: 'daemonSet', revisions: 'controllerRevisions' },
});
