/**
 * REST paths for the handful of resources rollout-doctor reads and writes. Keeping
 * the table here means every call names its verb and resource, so a 403 can say
 * exactly which permission is missing. The workload kinds' resources come from their
 * registry (diagnosis/workloads/kinds.ts).
 */
import type { WorkloadApiList } from '../diagnosis/workload-api.js';
import { WORKLOAD_APIS } from '../diagnosis/workloads/kinds.js';

const GROUP_PREFIX = {
  core: '/api/v1',
  apps: '/apis/apps/v1',
  resource: '/apis/resource.k8s.io/v1',
  argocd: '/apis/argoproj.io/v1alpha1',
  fluxKustomize: '/apis/kustomize.toolkit.fluxcd.io/v1',
  fluxHelm: '/apis/helm.toolkit.fluxcd.io/v2',
  fluxSource: '/apis/source.toolkit.fluxcd.io/v1',
  policy: '/apis/policy/v1',
  autoscaling: '/apis/autoscaling/v2',
  storage: '/apis/storage.k8s.io/v1',
  karpenter: '/apis/karpenter.sh/v1',
  scheduling: '/apis/scheduling.k8s.io/v1',
} as const;

/** How one resource is reached: its group-version's path, whether it is namespaced, whether it names a discovery document. */
interface ResourceEntry {
  readonly prefix: string;
  readonly namespaced: boolean;
  /** The path names a group-version's discovery document (APIResourceList), not objects. */
  readonly discovery?: true;
}

/** The resources that are no workload kind's (the workload kinds' come from the registry). */
const OTHER_RESOURCES = {
  replicasets: { prefix: GROUP_PREFIX.apps, namespaced: true },
  controllerrevisions: { prefix: GROUP_PREFIX.apps, namespaced: true },
  pods: { prefix: GROUP_PREFIX.core, namespaced: true },
  events: { prefix: GROUP_PREFIX.core, namespaced: true },
  persistentvolumeclaims: { prefix: GROUP_PREFIX.core, namespaced: true },
  // The namespace's quotas: hard and used as admission counts them (read only, optional).
  resourcequotas: { prefix: GROUP_PREFIX.core, namespaced: true },
  // The namespace's LimitRanges (check: their defaults fill missing requests; optional).
  limitranges: { prefix: GROUP_PREFIX.core, namespaced: true },
  nodes: { prefix: GROUP_PREFIX.core, namespaced: false },
  // What guards the workload (read only, each optional: guard-reads.ts): the namespace's
  // disruption budgets and autoscalers, the volumes its claims are bound to (by name),
  // the classes they name, an Argo Rollout's AnalysisRuns (argoproj.io, with its CRD).
  poddisruptionbudgets: { prefix: GROUP_PREFIX.policy, namespaced: true },
  horizontalpodautoscalers: { prefix: GROUP_PREFIX.autoscaling, namespaced: true },
  persistentvolumes: { prefix: GROUP_PREFIX.core, namespaced: false },
  storageclasses: { prefix: GROUP_PREFIX.storage, namespaced: false },
  analysisruns: { prefix: GROUP_PREFIX.argocd, namespaced: true },
  namespaces: { prefix: GROUP_PREFIX.core, namespaced: false },
  // The PriorityClasses a template's priorityClassName names (check only, optional).
  priorityclasses: { prefix: GROUP_PREFIX.scheduling, namespaced: false },
  // Room the cluster can add (check only, each optional): the cluster autoscaler's status
  // ConfigMap (kube-system/cluster-autoscaler-status) and Karpenter's NodePools.
  configmaps: { prefix: GROUP_PREFIX.core, namespaced: true },
  nodepools: { prefix: GROUP_PREFIX.karpenter, namespaced: false },
  // Dynamic Resource Allocation (read only): who holds which device.
  resourceclaims: { prefix: GROUP_PREFIX.resource, namespaced: true },
  resourceclaimtemplates: { prefix: GROUP_PREFIX.resource, namespaced: true },
  resourceslices: { prefix: GROUP_PREFIX.resource, namespaced: false },
  deviceclasses: { prefix: GROUP_PREFIX.resource, namespaced: false },
  // The one DRA write: a taint-device plan creates (its Undo deletes) one rule. Cluster-scoped.
  devicetaintrules: { prefix: GROUP_PREFIX.resource, namespaced: false },
  // Discovery of resource.k8s.io at `version` (APIResourceList): which DRA kinds the server serves.
  resourceapis: { prefix: GROUP_PREFIX.resource, namespaced: false, discovery: true },
  // The GitOps owner's settings (read only, optional: the CRDs may not be installed):
  // the Argo CD Application, the Flux Kustomization and HelmRelease.
  applications: { prefix: GROUP_PREFIX.argocd, namespaced: true },
  kustomizations: { prefix: GROUP_PREFIX.fluxKustomize, namespaced: true },
  helmreleases: { prefix: GROUP_PREFIX.fluxHelm, namespaced: true },
  // The Flux GitRepository a Kustomization or HelmRelease names (its url and branch: where
  // a pull request goes, src/propose/owner-source.ts).
  gitrepositories: { prefix: GROUP_PREFIX.fluxSource, namespaced: true },
  // Discovery of those group-versions (APIResourceList): whether the cluster serves them.
  argocdapis: { prefix: GROUP_PREFIX.argocd, namespaced: false, discovery: true },
  kustomizeapis: { prefix: GROUP_PREFIX.fluxKustomize, namespaced: false, discovery: true },
  helmapis: { prefix: GROUP_PREFIX.fluxHelm, namespaced: false, discovery: true },
  // The API server's version (/version, readable by every client through
  // system:public-info-viewer): asked only where a verdict depends on it.
  version: { prefix: '/version', namespaced: false, discovery: true },
} as const satisfies Record<string, ResourceEntry>;

/** The discovery document of a kind's group-version, as a resource name: "argoproj.io/v1alpha1". */
type DiscoveryName<A extends { group: string; version: string }> = `${A['group']}/${A['version']}`;

export function discoveryName<A extends { group: string; version: string }>(api: A): DiscoveryName<A> {
  return `${api.group}/${api.version}`;
}

/** The workload kinds' resources (namespaced, at their group-version) and their group-versions' discovery. */
type WorkloadResources<L extends WorkloadApiList> = {
  readonly [A in L[number] as A['resource']]: { readonly prefix: string; readonly namespaced: true };
} & {
  readonly [A in L[number] as DiscoveryName<A>]: {
    readonly prefix: string;
    readonly namespaced: false;
    readonly discovery: true;
  };
};

/**
 * Every resource the worker names, for a registry of workload kinds: each kind's
 * resource and the discovery of its group-version come from its identity (a kind served
 * at a new group-version needs no edit here).
 */
export function resourceTable<L extends WorkloadApiList>(
  apis: L,
): typeof OTHER_RESOURCES & WorkloadResources<L> {
  const kinds = apis.flatMap((api) => {
    const prefix = `/apis/${api.group}/${api.version}`;
    return [
      [api.resource, { prefix, namespaced: true }],
      [discoveryName(api), { prefix, namespaced: false, discovery: true }],
    ] as const;
  });
  // The mapped type is what the entries build; TypeScript cannot follow fromEntries.
  return { ...OTHER_RESOURCES, ...(Object.fromEntries(kinds) as WorkloadResources<L>) };
}

export const RESOURCES = resourceTable(WORKLOAD_APIS);

/** resource.k8s.io versions a call may name (`version`); v1 when it names none. */
export const RESOURCE_VERSIONS = ['v1', 'v1beta2'] as const;

export type ResourceName = keyof typeof RESOURCES;

/** The RBAC verbs we use; reads are retried, writes never blindly. */
type Verb = 'get' | 'list' | 'watch' | 'create' | 'patch' | 'delete';

export const READ_VERBS: ReadonlySet<Verb> = new Set(['get', 'list', 'watch']);

export interface ApiCall {
  verb: Verb;
  resource: ResourceName;
  namespace?: string;
  name?: string;
  /** "log", "status", ... */
  subresource?: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /** Content type of the body; patches must say which patch type they are. */
  contentType?: string;
  /** resource.k8s.io only: the API version (DeviceTaintRule is v1beta2 in 1.36, v1 from 1.37). */
  version?: (typeof RESOURCE_VERSIONS)[number];
  /** Overrides the client's request timeout for this call. */
  timeoutMs?: number;
}

const METHOD: Record<Verb, string> = {
  get: 'GET',
  list: 'GET',
  watch: 'GET',
  create: 'POST',
  patch: 'PATCH',
  delete: 'DELETE',
};

export function methodFor(verb: Verb): string {
  return METHOD[verb];
}

/** Path plus query string, URL-encoded (selectors contain '=' and ','). */
export function pathFor(call: ApiCall): string {
  return pathIn(RESOURCES, call);
}

/** `pathFor` in a table of resources (`resourceTable` of a registry). */
export function pathIn(
  resources: Readonly<Record<string, ResourceEntry>>,
  call: Omit<ApiCall, 'resource'> & { resource: string },
): string {
  const resource = resources[call.resource];
  if (!resource) throw new Error(`no such resource: ${call.resource}`);
  let path: string =
    call.version && resource.prefix === GROUP_PREFIX.resource
      ? `/apis/resource.k8s.io/${call.version}`
      : resource.prefix;
  if (resource.discovery) return path;
  if (resource.namespaced && call.namespace !== undefined) {
    path += `/namespaces/${encodeURIComponent(call.namespace)}`;
  }
  path += `/${call.resource}`;
  if (call.name !== undefined) path += `/${encodeURIComponent(call.name)}`;
  if (call.subresource !== undefined) path += `/${call.subresource}`;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  if (call.verb === 'watch') params.set('watch', 'true');
  const qs = params.toString();
  return qs ? `${path}?${qs}` : path;
}

/** "pods/log" for RBAC messages. */
export function rbacResource(call: Pick<ApiCall, 'resource' | 'subresource'>): string {
  return call.subresource ? `${call.resource}/${call.subresource}` : call.resource;
}
