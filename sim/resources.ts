/**
 * The resource types the simulator serves: REST plural, kind, API group/version,
 * scope and the short names kubectl discovers. One table drives discovery,
 * routing and the store's kind lookups.
 */
import { INSTALL_RESOURCES } from './resources-install.js';

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
  /**
   * A custom resource (CRD-backed): the API server takes JSON and merge patches but no
   * strategic merge patch (apiextensions-apiserver, customresource_handler.go).
   */
  custom?: true;
  /** The CRD's additionalPrinterColumns: the columns `kubectl get` shows (tableconvertor.go). */
  printerColumns?: PrinterColumn[];
}

/** One additionalPrinterColumns entry of a CustomResourceDefinition version. */
export interface PrinterColumn {
  name: string;
  type: string;
  jsonPath: string;
  format?: string;
  priority?: number;
  description?: string;
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
  // Stored with real admission (sim/admission/): quota on pod create, LimitRange defaults and bounds.
  {
    plural: 'resourcequotas',
    singular: 'resourcequota',
    kind: 'ResourceQuota',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['quota'],
    subresources: ['status'],
  },
  {
    plural: 'limitranges',
    singular: 'limitrange',
    kind: 'LimitRange',
    group: '',
    version: 'v1',
    namespaced: true,
    shortNames: ['limits'],
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
  // What guards a workload: the disruption controller writes a PDB's status
  // (sim/controllers/disruption.ts), the HPA controller an HPA's (sim/controllers/hpa.ts).
  {
    plural: 'poddisruptionbudgets',
    singular: 'poddisruptionbudget',
    kind: 'PodDisruptionBudget',
    group: 'policy',
    version: 'v1',
    namespaced: true,
    shortNames: ['pdb'],
    subresources: ['status'],
  },
  {
    plural: 'horizontalpodautoscalers',
    singular: 'horizontalpodautoscaler',
    kind: 'HorizontalPodAutoscaler',
    group: 'autoscaling',
    version: 'v2',
    namespaced: true,
    shortNames: ['hpa'],
    categories: ['all'],
    subresources: ['status'],
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
  // Argo Rollouts, as manifests/crds/rollout-crd.yaml declares it (argoproj/argo-rollouts):
  // shortName ro, no categories, status and scale (specReplicasPath .spec.replicas,
  // statusReplicasPath .status.HPAReplicas, labelSelectorPath .status.selector).
  {
    plural: 'rollouts',
    singular: 'rollout',
    kind: 'Rollout',
    group: 'argoproj.io',
    version: 'v1alpha1',
    namespaced: true,
    shortNames: ['ro'],
    subresources: ['status', 'scale'],
    crd: true,
    printerColumns: [
      { name: 'Desired', type: 'integer', jsonPath: '.spec.replicas', description: 'Number of desired pods' },
      {
        name: 'Current',
        type: 'integer',
        jsonPath: '.status.replicas',
        description: 'Total number of non-terminated pods targeted by this rollout',
      },
      {
        name: 'Up-to-date',
        type: 'integer',
        jsonPath: '.status.updatedReplicas',
        description:
          'Total number of non-terminated pods targeted by this rollout that have the desired template spec',
      },
      {
        name: 'Available',
        type: 'integer',
        jsonPath: '.status.availableReplicas',
        description:
          'Total number of available pods (ready for at least minReadySeconds) targeted by this rollout',
      },
      {
        name: 'Age',
        type: 'date',
        jsonPath: '.metadata.creationTimestamp',
        description: 'Time since resource was created',
      },
    ],
  },
  // An Argo Rollout's analyses (manifests/crds/analysis-run-crd.yaml: shortName ar).
  {
    plural: 'analysisruns',
    singular: 'analysisrun',
    kind: 'AnalysisRun',
    group: 'argoproj.io',
    version: 'v1alpha1',
    namespaced: true,
    shortNames: ['ar'],
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
  // Karpenter's NodePools (karpenter.sh/v1, cluster-scoped; pkg/apis/crds/karpenter.sh_nodepools.yaml).
  {
    plural: 'nodepools',
    singular: 'nodepool',
    kind: 'NodePool',
    group: 'karpenter.sh',
    version: 'v1',
    namespaced: false,
    categories: ['karpenter'],
    subresources: ['status'],
    crd: true,
  },
  ...INSTALL_RESOURCES,
];

export { VERBS };

/**
 * Which resource types the API serves now (a CRD-backed one only while its CRD is
 * stored); `extra` lists the kinds a scenario brought that the table above lacks
 * (sim/stored-kinds.ts), served as stored objects.
 */
export type Served = ((rt: ResourceType) => boolean) & { extra?: readonly ResourceType[] };
export const ALL_SERVED: Served = () => true;

/** Every type served now: the table's and the stored-only ones, in that order. */
export function servedTypes(served: Served = ALL_SERVED): ResourceType[] {
  return [...RESOURCES, ...(served.extra ?? [])].filter((rt) => served(rt));
}

/** A custom resource: served through a CRD, so no strategic merge patch. */
export function isCustomResource(rt: ResourceType): boolean {
  return rt.crd === true || rt.custom === true;
}

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
  return servedTypes(served).find((r) => r.group === group && r.version === version && r.plural === plural);
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
