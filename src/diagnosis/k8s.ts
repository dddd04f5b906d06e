/**
 * The subset of Kubernetes object fields that rollout-doctor reads, in their wire
 * form (what `kubectl get -o json` prints: timestamps are RFC 3339 strings,
 * quantities are strings or numbers). Every field is optional because real objects
 * omit defaults; analyzers must cope with absence.
 *
 * These are deliberately our own types rather than @kubernetes/client-node's model
 * classes: analyzers import no Kubernetes client, and the client's models turn
 * timestamps into Date objects, which a dump never has.
 */

export type Quantity = string | number;
export type Labels = Record<string, string>;

export interface OwnerReference {
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
  /** Keys that must be removed (by their controllers) before a deleted object goes. */
  finalizers?: string[];
  labels?: Labels;
  annotations?: Record<string, string>;
  ownerReferences?: OwnerReference[];
}

export interface LabelSelectorRequirement {
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

export interface ContainerPort {
  containerPort: number;
  hostPort?: number;
  protocol?: string;
  hostIP?: string;
  name?: string;
}

export interface EnvVar {
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
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
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
  configMap?: { name: string };
  secret?: { secretName: string };
  hostPath?: { path: string; type?: string };
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
  /** PreemptLowerPriority (default) or Never. */
  preemptionPolicy?: string;
  topologySpreadConstraints?: TopologySpreadConstraint[];
  schedulerName?: string;
  hostNetwork?: boolean;
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  /** RuntimeClass overhead, added to the pod's requests by the scheduler. */
  overhead?: Record<string, Quantity>;
  /** While any gate is listed the scheduler does not consider the pod (no FailedScheduling event). */
  schedulingGates?: { name: string }[];
  /** Dynamic Resource Allocation claims: a claim per pod from a template, or one shared claim. */
  resourceClaims?: PodResourceClaim[];
}

export interface PodResourceClaim {
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

export interface ContainerState {
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

export interface RollingUpdateDeployment {
  maxSurge?: number | string;
  maxUnavailable?: number | string;
}

export interface DeploymentStrategy {
  type?: string; // RollingUpdate | Recreate
  rollingUpdate?: RollingUpdateDeployment;
}

export interface Deployment {
  apiVersion?: string;
  kind?: 'Deployment';
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    strategy?: DeploymentStrategy;
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    progressDeadlineSeconds?: number;
    paused?: boolean;
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    unavailableReplicas?: number;
    conditions?: Condition[];
    collisionCount?: number;
  };
}

export interface ReplicaSet {
  apiVersion?: string;
  kind?: 'ReplicaSet';
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template?: PodTemplateSpec;
    minReadySeconds?: number;
  };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    /** ReplicaFailure=True (reason FailedCreate) while the controller cannot create its pods. */
    conditions?: Condition[];
  };
}

/** apps/v1 DaemonSet (k8s.io/api/apps/v1 types.go): one pod per node it selects. */
export interface DaemonSet {
  apiVersion?: string;
  kind?: 'DaemonSet';
  metadata: ObjectMeta;
  spec: {
    selector: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: {
      type?: string; // RollingUpdate | OnDelete
      rollingUpdate?: RollingUpdateDeployment;
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: {
    currentNumberScheduled?: number;
    numberMisscheduled?: number;
    desiredNumberScheduled?: number;
    numberReady?: number;
    observedGeneration?: number;
    updatedNumberScheduled?: number;
    numberAvailable?: number;
    numberUnavailable?: number;
    collisionCount?: number;
    conditions?: Condition[];
  };
}

/** apps/v1 StatefulSet (k8s.io/api/apps/v1 types.go): pods with a stable identity, `<set>-<ordinal>`. */
export interface StatefulSet {
  apiVersion?: string;
  kind?: 'StatefulSet';
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    serviceName?: string;
    /** OrderedReady (the default) or Parallel. */
    podManagementPolicy?: string;
    updateStrategy?: {
      type?: string; // RollingUpdate | OnDelete
      rollingUpdate?: { partition?: number; maxUnavailable?: number | string };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    volumeClaimTemplates?: { metadata: ObjectMeta; spec?: Record<string, unknown> }[];
    ordinals?: { start?: number };
  };
  status?: {
    observedGeneration?: number;
    replicas?: number;
    readyReplicas?: number;
    currentReplicas?: number;
    updatedReplicas?: number;
    availableReplicas?: number;
    /** Names of ControllerRevisions: the one the current pods run, and the one the update goes to. */
    currentRevision?: string;
    updateRevision?: string;
    collisionCount?: number;
    conditions?: Condition[];
  };
}

/**
 * apps/v1 ControllerRevision: one revision of a DaemonSet's (or StatefulSet's) template.
 * `data` is the strategic merge patch the controller stores ({spec:{template:{…,$patch:replace}}}).
 */
export interface ControllerRevision {
  apiVersion?: string;
  kind?: 'ControllerRevision';
  metadata: ObjectMeta;
  data?: unknown;
  revision?: number;
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

export interface PersistentVolumeClaim {
  apiVersion?: string;
  kind?: 'PersistentVolumeClaim';
  metadata: ObjectMeta;
  spec: {
    accessModes?: string[];
    volumeName?: string;
    storageClassName?: string;
    resources?: ResourceRequirements;
  };
  status?: { phase?: string; accessModes?: string[]; capacity?: Record<string, Quantity> };
}

/**
 * A ResourceQuota as the API server holds it: `status.hard` and `status.used` are what
 * quota admission compares a new pod's charge with (the resourcequota controller keeps
 * them; admission adds each admitted pod's charge to `used` at once). Scoped quotas
 * (`scopes`, `scopeSelector`) charge only the pods their scopes match.
 */
export interface ResourceQuota {
  apiVersion?: string;
  kind?: 'ResourceQuota';
  metadata: ObjectMeta;
  spec?: {
    hard?: Record<string, Quantity>;
    scopes?: string[];
    scopeSelector?: { matchExpressions?: { scopeName?: string; operator?: string; values?: string[] }[] };
  };
  status?: { hard?: Record<string, Quantity>; used?: Record<string, Quantity> };
}

/**
 * A LimitRange of the namespace: the LimitRanger admission plugin sets a container's
 * missing requests and limits from its Container items' `defaultRequest` and `default`,
 * and refuses a pod outside their `min`, `max` and `maxLimitRequestRatio` (per Container
 * and per Pod).
 */
export interface LimitRange {
  apiVersion?: string;
  kind?: 'LimitRange';
  metadata: ObjectMeta;
  spec?: {
    limits?: {
      type?: string;
      min?: Record<string, Quantity>;
      max?: Record<string, Quantity>;
      default?: Record<string, Quantity>;
      defaultRequest?: Record<string, Quantity>;
      maxLimitRequestRatio?: Record<string, Quantity>;
    }[];
  };
}

/**
 * policy/v1 PodDisruptionBudget. The disruption controller (pkg/controller/disruption)
 * writes the status: `expectedPods`, `currentHealthy`, `desiredHealthy` and
 * `disruptionsAllowed`, and the `DisruptionAllowed` condition. The eviction API honours
 * it; the workload controllers' own scale-downs and rolling updates do not (DESIGN.md §4d).
 */
export interface PodDisruptionBudget {
  apiVersion?: string;
  kind?: 'PodDisruptionBudget';
  metadata: ObjectMeta;
  spec?: {
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: LabelSelector;
    /** IfHealthyBudget (default) or AlwaysAllow. */
    unhealthyPodEvictionPolicy?: string;
  };
  status?: {
    observedGeneration?: number;
    expectedPods?: number;
    currentHealthy?: number;
    desiredHealthy?: number;
    disruptionsAllowed?: number;
    disruptedPods?: Record<string, string>;
    conditions?: Condition[];
  };
}

/** autoscaling/v2 HorizontalPodAutoscaler, the part that says what it scales and within which bounds. */
export interface HorizontalPodAutoscaler {
  apiVersion?: string;
  kind?: 'HorizontalPodAutoscaler';
  metadata: ObjectMeta;
  spec?: {
    scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
    minReplicas?: number;
    maxReplicas?: number;
  };
  status?: {
    currentReplicas?: number;
    desiredReplicas?: number;
    lastScaleTime?: string;
    conditions?: Condition[];
  };
}

/** v1 PersistentVolume: where it may be used (`spec.nodeAffinity`, a local volume's node). */
export interface PersistentVolume {
  apiVersion?: string;
  kind?: 'PersistentVolume';
  metadata: ObjectMeta;
  spec?: {
    accessModes?: string[];
    storageClassName?: string;
    claimRef?: { namespace?: string; name?: string; uid?: string };
    nodeAffinity?: { required?: { nodeSelectorTerms?: NodeSelectorTerm[] } };
    local?: { path?: string };
    hostPath?: { path?: string };
    persistentVolumeReclaimPolicy?: string;
  };
  status?: { phase?: string };
}

/** storage.k8s.io/v1 StorageClass: when a claim binds, and where it may. */
export interface StorageClass {
  apiVersion?: string;
  kind?: 'StorageClass';
  metadata: ObjectMeta;
  provisioner?: string;
  /** Immediate (default) or WaitForFirstConsumer. */
  volumeBindingMode?: string;
  allowedTopologies?: { matchLabelExpressions?: { key?: string; values?: string[] }[] }[];
}

/**
 * argoproj.io/v1alpha1 AnalysisRun, the part that says how a Rollout's analysis went
 * (`status.phase`: Pending, Running, Successful, Failed, Error, Inconclusive).
 */
export interface AnalysisRun {
  apiVersion?: string;
  kind?: 'AnalysisRun';
  metadata: ObjectMeta;
  spec?: { terminate?: boolean };
  status?: { phase?: string; message?: string; startedAt?: string };
}

/** Any object that came from a dump or the API, before it is sorted by kind. */
export interface KubeObject {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  [field: string]: unknown;
}

/* ---- Dynamic Resource Allocation, resource.k8s.io/v1 (GA in 1.34) ---- */

/** A CEL selector: `device.driver == "gpu.nvidia.com" && device.attributes["gpu.nvidia.com"].productName == "..."`. */
export interface DeviceSelector {
  cel?: { expression: string };
}

export interface DeviceToleration {
  key?: string;
  operator?: string; // Equal (default) | Exists
  value?: string;
  effect?: string; // NoSchedule | NoExecute | '' (all)
  tolerationSeconds?: number;
}

/** `exactly` of a DeviceRequest, and each `firstAvailable` subrequest (which also has a name). */
export interface ExactDeviceRequest {
  deviceClassName: string;
  selectors?: DeviceSelector[];
  /** ExactCount (default) | All */
  allocationMode?: string;
  /** For ExactCount; defaults to 1. */
  count?: number;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
}

export interface DeviceRequest {
  name: string;
  exactly?: ExactDeviceRequest;
  firstAvailable?: (ExactDeviceRequest & { name: string })[];
}

export interface DeviceClaim {
  requests?: DeviceRequest[];
  constraints?: unknown[];
  config?: unknown[];
}

export interface DeviceRequestAllocationResult {
  /** The request name, or `<request>/<subrequest>` for firstAvailable. */
  request: string;
  driver: string;
  pool: string;
  device: string;
  adminAccess?: boolean;
  tolerations?: DeviceToleration[];
}

export interface ResourceClaimConsumerReference {
  apiGroup?: string;
  resource: string; // "pods"
  name: string;
  uid: string;
}

export interface ResourceClaimSpec {
  devices?: DeviceClaim;
}

export interface ResourceClaim {
  apiVersion?: string;
  kind?: 'ResourceClaim';
  metadata: ObjectMeta & { finalizers?: string[] };
  spec: ResourceClaimSpec;
  status?: {
    allocation?: {
      devices?: { results?: DeviceRequestAllocationResult[]; config?: unknown[] };
      nodeSelector?: { nodeSelectorTerms: NodeSelectorTerm[] };
      allocationTimestamp?: string;
    };
    reservedFor?: ResourceClaimConsumerReference[];
    devices?: {
      driver: string;
      pool: string;
      device: string;
      conditions?: Condition[];
    }[];
  };
}

export interface ResourceClaimTemplate {
  apiVersion?: string;
  kind?: 'ResourceClaimTemplate';
  metadata: ObjectMeta;
  spec: { metadata?: ObjectMeta; spec: ResourceClaimSpec };
}

/** One typed value of a device attribute (exactly one field is set). */
export interface DeviceAttribute {
  int?: number;
  bool?: boolean;
  string?: string;
  version?: string;
}

export interface DeviceTaint {
  key: string;
  value?: string;
  effect: string; // NoSchedule | NoExecute
  timeAdded?: string;
}

export interface Device {
  name: string;
  /** Keys are qualified names; an unqualified key belongs to the driver's domain. */
  attributes?: Record<string, DeviceAttribute>;
  capacity?: Record<string, { value: Quantity }>;
  taints?: DeviceTaint[];
  /** Consumable capacity (1.34+): several claims may share the device while its capacity lasts. */
  allowMultipleAllocations?: boolean;
  /** Partitionable devices: what allocating it takes from the pool's shared counters. */
  consumesCounters?: { counterSet: string; counters: Record<string, { value: Quantity }> }[];
  /** v1beta1 nested the fields under `basic`. */
  basic?: Omit<Device, 'name' | 'basic'>;
}

export interface ResourceSlice {
  apiVersion?: string;
  kind?: 'ResourceSlice';
  metadata: ObjectMeta;
  spec: {
    driver: string;
    pool: { name: string; generation: number; resourceSliceCount: number };
    nodeName?: string;
    nodeSelector?: { nodeSelectorTerms: NodeSelectorTerm[] };
    allNodes?: boolean;
    perDeviceNodeSelection?: boolean;
    devices?: Device[];
    /** Partitionable devices: counters the pool's devices consume from. */
    sharedCounters?: { name: string; counters: Record<string, { value: Quantity }> }[];
  };
}

export interface DeviceClass {
  apiVersion?: string;
  kind?: 'DeviceClass';
  metadata: ObjectMeta;
  spec: {
    selectors?: DeviceSelector[];
    config?: unknown[];
    /** Extended resources backed by DRA: pods asking for this resource get devices of this class. */
    extendedResourceName?: string;
  };
}

/**
 * argoproj.io/v1alpha1 Rollout, the part rollout-doctor reads (argoproj/argo-rollouts
 * pkg/apis/rollouts/v1alpha1/types.go). Its ReplicaSets carry the label
 * `rollouts-pod-template-hash`; `status.currentPodHash` names the one the Rollout
 * rolls out to and `status.stableRS` the stable one (both are hashes, not names).
 */
/**
 * A Rollout's strategy.antiAffinity: the controller injects a pod anti-affinity term
 * against the stable ReplicaSet's pods into the new ReplicaSet's template.
 */
export interface RolloutAntiAffinity {
  preferredDuringSchedulingIgnoredDuringExecution?: { weight?: number };
  requiredDuringSchedulingIgnoredDuringExecution?: Record<string, never>;
}

export interface ArgoRollout {
  apiVersion?: string;
  kind?: 'Rollout';
  metadata: ObjectMeta;
  spec: {
    replicas?: number;
    selector?: LabelSelector;
    /** Empty with a workloadRef: the template is the referenced workload's. */
    template?: PodTemplateSpec;
    workloadRef?: { apiVersion?: string; kind?: string; name?: string; scaleDown?: string };
    minReadySeconds?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
    progressDeadlineAbort?: boolean;
    strategy?: {
      canary?: {
        steps?: Record<string, unknown>[];
        maxSurge?: number | string;
        maxUnavailable?: number | string;
        trafficRouting?: unknown;
        /** Traffic-routed only: how long an abort leaves the canary up (30 s by default; 0: until a person acts). */
        abortScaleDownDelaySeconds?: number;
        dynamicStableScale?: boolean;
        antiAffinity?: RolloutAntiAffinity;
        canaryService?: string;
        stableService?: string;
      };
      blueGreen?: {
        activeService?: string;
        previewService?: string;
        previewReplicaCount?: number;
        autoPromotionEnabled?: boolean;
        maxUnavailable?: number | string;
        /** How long an abort leaves the preview up (30 s by default; 0: until a person acts). */
        abortScaleDownDelaySeconds?: number;
        antiAffinity?: RolloutAntiAffinity;
      };
    };
  };
  status?: {
    abort?: boolean;
    abortedAt?: string;
    /** `kubectl argo rollouts promote --full`: skip the remaining steps. */
    promoteFull?: boolean;
    pauseConditions?: { reason: string; startTime?: string }[];
    controllerPause?: boolean;
    currentPodHash?: string;
    replicas?: number;
    updatedReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    currentStepIndex?: number;
    /** A string in the Rollout's status (types.go: ObservedGeneration string). */
    observedGeneration?: string;
    /** With a workloadRef: the referenced workload's generation the controller last acted on. */
    workloadObservedGeneration?: string;
    conditions?: Condition[];
    stableRS?: string;
    phase?: string;
    message?: string;
    blueGreen?: { activeSelector?: string; previewSelector?: string };
    /** The weights the traffic router holds now (traffic-routed canary). */
    canary?: { weights?: { canary?: { weight?: number }; stable?: { weight?: number } } };
  };
}
