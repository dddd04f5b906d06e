/**
 * The resource types the simulator serves: REST plural, kind, API group/version,
 * scope and the short names kubectl discovers. One table drives discovery,
 * routing and the store's kind lookups.
 */
export interface ResourceType {
  plural: string;
  singular: string;
  kind: string;
  group: string; // '' for the core group
  version: string;
  namespaced: boolean;
  shortNames?: string[];
  categories?: string[];
  subresources?: string[];
  /**
   * Served only once a CustomResourceDefinition named `<plural>.<group>` is stored, as
   * on a real cluster where the CRD is installed (Argo CD, Flux): without it the API
   * server answers 404 for the group-version and its objects.
   */
  crd?: true;
}

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

export const RESOURCES: readonly ResourceType[] = [
  {
    plural: 'namespaces',
    singular: 'namespace',
    kind: 'Namespace',
    group: '',
    version: 'v1',
    namespaced: false,
    shortNames: ['ns'],
  },
  {
    plural: 'nodes',
    singular: 'node',
    kind: 'Node',
    group: '',
    version: 'v1',
    namespaced: false,
    shortNames: ['no'],
    subresources: ['status'],
  },
  {
    plural: 'pods',
    singular: 'pod',
    kind: 'Pod',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['po'],
    categories: ['all'],
    subresources: ['status', 'log'],
  },
  {
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['ev'],
  },
  {
    plural: 'configmaps',
    singular: 'configmap',
    kind: 'ConfigMap',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['cm'],
  },
  { plural: 'secrets', singular: 'secret', kind: 'Secret', group: '', version: 'v1', namespaced: true },
  {
    plural: 'persistentvolumeclaims',
    singular: 'persistentvolumeclaim',
    kind: 'PersistentVolumeClaim',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['pvc'],
    subresources: ['status'],
  },
  {
    plural: 'persistentvolumes',
    singular: 'persistentvolume',
    kind: 'PersistentVolume',
    group: '',
    version: 'v1',
    namespaced: false,
    shortNames: ['pv'],
  },
  {
    plural: 'services',
    singular: 'service',
    kind: 'Service',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['svc'],
    categories: ['all'],
  },
  {
    plural: 'serviceaccounts',
    singular: 'serviceaccount',
    kind: 'ServiceAccount',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['sa'],
  },
  {
    plural: 'deployments',
    singular: 'deployment',
    kind: 'Deployment',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['deploy'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  },
  {
    plural: 'replicasets',
    singular: 'replicaset',
    kind: 'ReplicaSet',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['rs'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  },
  {
    plural: 'daemonsets',
    singular: 'daemonset',
    kind: 'DaemonSet',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['ds'],
    categories: ['all'],
    subresources: ['status'],
  },
  {
    plural: 'statefulsets',
    singular: 'statefulset',
    kind: 'StatefulSet',
    group: 'apps',
    version: 'v1',
    namespaced: true,
    shortNames: ['sts'],
    categories: ['all'],
    subresources: ['status', 'scale'],
  },
  // No short names upstream; the history of StatefulSets and DaemonSets.
  {
    plural: 'controllerrevisions',
    singular: 'controllerrevision',
    kind: 'ControllerRevision',
    group: 'apps',
    version: 'v1',
    namespaced: true,
  },
  {
    plural: 'priorityclasses',
    singular: 'priorityclass',
    kind: 'PriorityClass',
    group: 'scheduling.k8s.io',
    version: 'v1',
    namespaced: false,
    shortNames: ['pc'],
  },
  {
    plural: 'storageclasses',
    singular: 'storageclass',
    kind: 'StorageClass',
    group: 'storage.k8s.io',
    version: 'v1',
    namespaced: false,
    shortNames: ['sc'],
  },
  {
    plural: 'events',
    singular: 'event',
    kind: 'Event',
    group: 'events.k8s.io',
    version: 'v1',
    namespaced: true,
    shortNames: ['ev'],
  },
  // Dynamic Resource Allocation (GA in 1.34); no short names upstream.
  {
    plural: 'deviceclasses',
    singular: 'deviceclass',
    kind: 'DeviceClass',
    group: 'resource.k8s.io',
    version: 'v1',
    namespaced: false,
  },
  {
    plural: 'resourceclaims',
    singular: 'resourceclaim',
    kind: 'ResourceClaim',
    group: 'resource.k8s.io',
    version: 'v1',
    namespaced: true,
    subresources: ['status'],
  },
  {
    plural: 'resourceclaimtemplates',
    singular: 'resourceclaimtemplate',
    kind: 'ResourceClaimTemplate',
    group: 'resource.k8s.io',
    version: 'v1',
    namespaced: true,
  },
  {
    plural: 'resourceslices',
    singular: 'resourceslice',
    kind: 'ResourceSlice',
    group: 'resource.k8s.io',
    version: 'v1',
    namespaced: false,
  },
  // GA as resource.k8s.io/v1 in 1.37 (beta v1beta2, off by default, in 1.36); cluster-scoped.
  {
    plural: 'devicetaintrules',
    singular: 'devicetaintrule',
    kind: 'DeviceTaintRule',
    group: 'resource.k8s.io',
    version: 'v1',
    namespaced: false,
    subresources: ['status'],
  },
  {
    plural: 'customresourcedefinitions',
    singular: 'customresourcedefinition',
    kind: 'CustomResourceDefinition',
    group: 'apiextensions.k8s.io',
    version: 'v1',
    namespaced: false,
    shortNames: ['crd', 'crds'],
  },
  // GitOps owners' settings objects, served only with their CRD stored.
  {
    plural: 'applications',
    singular: 'application',
    kind: 'Application',
    group: 'argoproj.io',
    version: 'v1alpha1',
    namespaced: true,
    shortNames: ['app', 'apps'],
    crd: true,
  },
  {
    plural: 'kustomizations',
    singular: 'kustomization',
    kind: 'Kustomization',
    group: 'kustomize.toolkit.fluxcd.io',
    version: 'v1',
    namespaced: true,
    shortNames: ['ks'],
    crd: true,
  },
  {
    plural: 'helmreleases',
    singular: 'helmrelease',
    kind: 'HelmRelease',
    group: 'helm.toolkit.fluxcd.io',
    version: 'v2',
    namespaced: true,
    shortNames: ['hr'],
    crd: true,
  },
];

export { VERBS };

/** Which resource types the API serves now (a CRD-backed one only while its CRD is stored). */
export type Served = (rt: ResourceType) => boolean;
export const ALL_SERVED: Served = () => true;

/** `<plural>.<group>`: the name of the CustomResourceDefinition that serves `rt`. */
export function crdName(rt: ResourceType): string {
  return `${rt.plural}.${rt.group}`;
}

/** apiVersion string as written in objects: `v1` or `apps/v1`. */
export function apiVersionOf(rt: ResourceType): string {
  return rt.group === '' ? rt.version : `${rt.group}/${rt.version}`;
}

/** Finds the resource type served at a group/version/plural path, if any. */
export function findResource(
  group: string,
  version: string,
  plural: string,
  served: Served = ALL_SERVED,
): ResourceType | undefined {
  return RESOURCES.find(
    (r) => r.group === group && r.version === version && r.plural === plural && served(r),
  );
}

/**
 * The storage kind for a kind name. events.k8s.io/v1 Events share storage with
 * core v1 Events in the real API server; here they are stored as core Events.
 */
export function resourceForKind(kind: string): ResourceType | undefined {
  return RESOURCES.find((r) => r.kind === kind || r.plural === kind.toLowerCase());
}

/** "deployments.apps" style qualified resource name used in error messages. */
export function qualifiedName(rt: ResourceType): string {
  return rt.group === '' ? rt.plural : `${rt.plural}.${rt.group}`;
}
