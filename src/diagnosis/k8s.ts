/**
 * The subset of Kubernetes object fields that rollout-doctor reads, in their wire
 * form (what `kubectl get -o json` prints: timestamps are RFC 3339 strings,
 * quantities are strings or numbers). Every field is optional because real objects
 * omit defaults; analyzers must cope with absence.
 *
 * These are deliberately our own types rather than @kubernetes/client-node's model
 * classes: analyzers import no Kubernetes client, and the client's models turn
 * timestamps into Date objects, which a dump never has.
 *
 * This module holds what every object shares (metadata, selectors, conditions), the
 * pod, the node and the event; the others are beside it: the apps/v1 workloads
 * (k8s-workloads.ts), Argo Rollouts (k8s-argo.ts), storage (k8s-storage.ts), the
 * namespace's quotas, limits, disruption budgets and autoscalers (k8s-policy.ts), and
 * Dynamic Resource Allocation (k8s-dra.ts).
 */

export type Quantity = string | number;
type Labels = Record<string, string>;

interface OwnerReference {
  apiVersion?: string;
  kind: string;
  name: string;
  uid: string;
  controller?: boolean;
}

export interface ObjectMeta {
  name?: string;
  namespace?: string;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  /** The grace period the deletion was given (a terminating pod's; `deletionTimestamp` already includes it). */
  deletionGracePeriodSeconds?: number;
  /** Keys that must be removed (by their controllers) before a deleted object goes. */
  finalizers?: string[];
  labels?: Labels;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

interface LabelSelectorRequirement {
  key: string;
  operator: string; // In | NotIn | Exists | DoesNotExist
  values?: string[];
}

export interface LabelSelector {
  matchLabels?: Labels;
  matchExpressions?: LabelSelectorRequirement[];
}

export interface NodeSelectorRequirement {
  key: string;
  operator: string; // In | NotIn | Exists | DoesNotExist | Gt | Lt
  values?: string[];
}

export interface NodeSelectorTerm {
  matchExpressions?: NodeSelectorRequirement[];
  matchFields?: NodeSelectorRequirement[];
}

export interface PodAffinityTerm {
  labelSelector?: LabelSelector;
  namespaces?: string[];
  /** Namespaces by their labels ({} all of them); with `namespaces`, the union. */
  namespaceSelector?: LabelSelector;
  topologyKey: string;
}

export interface Affinity {
  nodeAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: { nodeSelectorTerms: NodeSelectorTerm[] };
    preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
  };
  podAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
  };
  podAntiAffinity?: {
    requiredDuringSchedulingIgnoredDuringExecution?: PodAffinityTerm[];
    preferredDuringSchedulingIgnoredDuringExecution?: unknown[];
  };
}

export interface Toleration {
  key?: string;
  operator?: string; // Equal (default) | Exists
  value?: string;
  effect?: string; // NoSchedule | PreferNoSchedule | NoExecute | '' (all)
  tolerationSeconds?: number;
}

export interface Taint {
  key: string;
  value?: string;
  effect: string;
  /** When a NoExecute taint was added (RFC 3339): where the taint-eviction clock starts. */
  timeAdded?: string;
}

export interface ResourceRequirements {
  limits?: Record<string, Quantity>;
  requests?: Record<string, Quantity>;
  /** Dynamic Resource Allocation: names of `spec.resourceClaims` entries this container uses. */
  claims?: { name: string; request?: string }[];
}

export interface Probe {
  httpGet?: { path?: string; port: number | string };
  tcpSocket?: { port: number | string };
  exec?: { command?: string[] };
  grpc?: { port: number };
  initialDelaySeconds?: number;
  periodSeconds?: number;
  timeoutSeconds?: number;
  failureThreshold?: number;
  successThreshold?: number;
}

interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  protocol?: string;
  hostIP?: string;
  name?: string;
}

interface EnvVar {
  name: string;
  value?: string;
  valueFrom?: {
    configMapKeyRef?: { name: string; key: string; optional?: boolean };
    secretKeyRef?: { name: string; key: string; optional?: boolean };
  };
}

export interface Container {
  name: string;
  image?: string;
  command?: string[];
  args?: string[];
  ports?: ContainerPort[];
  env?: EnvVar[];
  envFrom?: {
    configMapRef?: { name: string; optional?: boolean };
    secretRef?: { name: string; optional?: boolean };
  }[];
  resources?: ResourceRequirements;
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  volumeMounts?: { name: string; mountPath: string }[];
  /** Only on init containers: "Always" makes it a sidecar (restartable init container). */
  restartPolicy?: string;
}

export interface Volume {
  name: string;
  persistentVolumeClaim?: { claimName: string; readOnly?: boolean };
  configMap?: { name: string; optional?: boolean };
  secret?: { secretName: string; optional?: boolean };
  hostPath?: { path: string; type?: string };
  projected?: {
    sources?: {
      configMap?: { name: string; optional?: boolean };
      secret?: { name: string; optional?: boolean };
    }[];
  };
  [other: string]: unknown;
}

/** A pod topology spread constraint (core/v1), as the PodTopologySpread plugin reads it. */
export interface TopologySpreadConstraint {
  maxSkew: number;
  topologyKey: string;
  /** DoNotSchedule filters; ScheduleAnyway only scores. */
  whenUnsatisfiable: string;
  labelSelector?: LabelSelector;
  /** With DoNotSchedule: fewer eligible domains than this and the global minimum counts as 0. */
  minDomains?: number;
  /** Honor (default): only nodes the pod's node selection admits are domains. */
  nodeAffinityPolicy?: string;
  /** Ignore (default): tainted nodes are domains too; Honor: only nodes whose taints the pod tolerates. */
  nodeTaintsPolicy?: string;
  /** Pod label keys whose values (the incoming pod's) are added to the selector. */
  matchLabelKeys?: string[];
}

export interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  nodeName?: string;
  nodeSelector?: Labels;
  affinity?: Affinity;
  tolerations?: Toleration[];
  volumes?: Volume[];
  priority?: number;
  priorityClassName?: string;
  serviceAccountName?: string;
  /** Deprecated alias of serviceAccountName. */
  serviceAccount?: string;
  /** PreemptLowerPriority (default) or Never. */
  preemptionPolicy?: string;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  schedulerName?: string;
  hostNetwork?: boolean;
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  /** A pod with it is Terminating to a ResourceQuota's scopes (a Job's pods, typically). */
  activeDeadlineSeconds?: number;
  /** RuntimeClass overhead, added to the pod's requests by the scheduler. */
  overhead?: Record<string, Quantity>;
  /** Pod-level requests and limits (cpu, memory, hugepages-*; PodLevelResources, on by default since 1.34). */
  resources?: Pick<ResourceRequirements, 'limits' | 'requests'>;
  /** The RuntimeClass whose overhead admission sets (scheduling/runtime-class.ts). */
  runtimeClassName?: string;
  /** While any gate is listed the scheduler does not consider the pod (no FailedScheduling event). */
  schedulingGates?: { name: string }[];
  /** Conditions besides the containers' readiness a pod needs to be Ready (a load balancer controller sets them). */
  readinessGates?: { conditionType: string }[];
  /** Dynamic Resource Allocation claims: a claim per pod from a template, or one shared claim. */
  resourceClaims?: PodResourceClaim[];
}

interface PodResourceClaim {
  name: string;
  resourceClaimName?: string;
  resourceClaimTemplateName?: string;
}

export interface PodTemplateSpec {
  metadata?: ObjectMeta;
  spec: PodSpec;
}

export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  message?: string;
  startedAt?: string;
  finishedAt?: string;
  signal?: number;
}

interface ContainerState {
  waiting?: { reason?: string; message?: string };
  running?: { startedAt?: string };
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  image?: string;
  imageID?: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state?: ContainerState;
  lastState?: ContainerState;
  /**
   * Health of the devices allocated to the container (on by default from 1.36; needs
   * driver support). `name` is the extended resource or `claim:<claim>/<request>`;
   * `resourceID` is the device (`<driver>/<pool>/<device>` for DRA).
   */
  allocatedResourcesStatus?: {
    name: string;
    resources?: { resourceID: string; health?: string }[];
  }[];
}

export interface Condition {
  type: string;
  status: string; // "True" | "False" | "Unknown"
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  lastUpdateTime?: string;
  lastHeartbeatTime?: string;
}

export interface Pod {
  apiVersion?: string;
  kind?: 'Pod';
  metadata: ObjectMeta;
  spec: PodSpec;
  status?: {
    phase?: string; // Pending | Running | Succeeded | Failed | Unknown
    conditions?: Condition[];
    containerStatuses?: ContainerStatus[];
    initContainerStatuses?: ContainerStatus[];
    hostIP?: string;
    podIP?: string;
    startTime?: string;
    reason?: string;
    message?: string;
    nominatedNodeName?: string;
    /** Claims the resourceclaim controller created for the pod's template claims. */
    resourceClaimStatuses?: { name: string; resourceClaimName?: string }[];
    /** The claim the scheduler created for extended resources backed by DRA (after choosing a node). */
    extendedResourceClaimStatus?: {
      resourceClaimName: string;
      requestMappings?: { containerName: string; resourceName: string; requestName: string }[];
    };
  };
}

export interface Node {
  apiVersion?: string;
  kind?: 'Node';
  metadata: ObjectMeta;
  spec?: {
    taints?: Taint[];
    unschedulable?: boolean;
    podCIDR?: string;
  };
  status?: {
    capacity?: Record<string, Quantity>;
    allocatable?: Record<string, Quantity>;
    addresses?: { type: string; address: string }[];
    conditions?: Condition[];
    nodeInfo?: {
      architecture?: string;
      operatingSystem?: string;
      osImage?: string;
      kernelVersion?: string;
      containerRuntimeVersion?: string;
      kubeletVersion?: string;
      kubeProxyVersion?: string;
    };
  };
}

export interface KubeEvent {
  apiVersion?: string;
  kind?: 'Event';
  metadata: ObjectMeta;
  involvedObject: { kind?: string; name?: string; namespace?: string; uid?: string; fieldPath?: string };
  reason?: string;
  message?: string;
  type?: string; // Normal | Warning
  count?: number;
  firstTimestamp?: string;
  lastTimestamp?: string;
  eventTime?: string;
  /** A repeating event written through events.k8s.io (the scheduler's): its last occurrence. */
  series?: { count?: number; lastObservedTime?: string };
  source?: { component?: string; host?: string };
  reportingComponent?: string;
}

/** Any object that came from a dump or the API, before it is sorted by kind. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}
