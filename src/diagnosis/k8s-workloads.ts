/**
 * The apps/v1 workloads rollout-doctor reads (k8s.io/api/apps/v1 types.go), in their
 * wire form like every type of k8s.ts: Deployments and their ReplicaSets, DaemonSets,
 * StatefulSets, and the ControllerRevisions that hold the last two's templates.
 */
import type { Condition, LabelSelector, ObjectMeta, PodTemplateSpec } from './k8s.js';

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
