/**
 * The registry of workload kinds: one line per kind, its identity (api.ts in its folder).
 * The one list: the kind names, the TYPE spellings both command parsers and the queue
 * accept (workload-ref.ts), the snapshot's kind fields (snapshot/types.ts), the API paths
 * (kube/api-paths.ts), the worker's RBAC rules (kube/workload-rbac.ts) and the discovery of
 * a CRD-served kind (kube/read/kind-served.ts) are derived from it. A kind's behaviour is
 * its module (index.ts in its folder), which the registry of modules (index.ts here)
 * must list for every kind named here: the compiler says so.
 */
import { daemonSetApi } from './daemonset/api.js';
import { deploymentApi } from './deployment/api.js';
import { rolloutApi } from './rollout/api.js';
import { statefulSetApi } from './statefulset/api.js';

export const WORKLOAD_APIS = [deploymentApi, daemonSetApi, statefulSetApi, rolloutApi] as const;
