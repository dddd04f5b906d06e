/**
 * The part of argoproj.io/v1alpha1 Rollout the simulator's controller reads and writes
 * (argoproj/argo-rollouts pkg/apis/rollouts/v1alpha1/types.go), and the label and
 * annotation keys it uses (types.go, utils/annotations/annotations.go).
 */
import type { LabelSelector, PodTemplateSpec } from '../../../src/diagnosis/k8s.js';
import type { ReplicaSet } from '../../../src/diagnosis/k8s-workloads.js';

export const HASH_LABEL = 'rollouts-pod-template-hash';
export const REVISION = 'rollout.argoproj.io/revision';
export const REVISION_HISTORY = 'rollout.argoproj.io/revision-history';
export const DESIRED_REPLICAS = 'rollout.argoproj.io/desired-replicas';
export const WORKLOAD_GENERATION = 'rollout.argoproj.io/workload-generation';
export const SCALE_DOWN_DEADLINE = 'scale-down-deadline';
export const MANAGED_BY = 'argo-rollouts.argoproj.io/managed-by-rollouts';
/** utils/record: the event source of the rollouts controller. */
export const COMPONENT = 'rollouts-controller';

export type IntOrString = number | string;

export interface CanaryStep {
  setWeight?: number;
  pause?: { duration?: IntOrString };
  analysis?: unknown;
  experiment?: unknown;
  setCanaryScale?: unknown;
  setHeaderRoute?: { name?: string };
  setMirrorRoute?: { name?: string };
  plugin?: { name?: string };
}

export interface CanaryStrategy {
  steps?: CanaryStep[];
  maxSurge?: IntOrString;
  maxUnavailable?: IntOrString;
  trafficRouting?: unknown;
  canaryService?: string;
  stableService?: string;
}

export interface BlueGreenStrategy {
  activeService?: string;
  previewService?: string;
  previewReplicaCount?: number;
  autoPromotionEnabled?: boolean;
  autoPromotionSeconds?: number;
  scaleDownDelaySeconds?: number;
  abortScaleDownDelaySeconds?: number;
  maxUnavailable?: IntOrString;
}

export interface RolloutCondition {
  type: string;
  status: string;
  lastUpdateTime: string;
  lastTransitionTime: string;
  reason: string;
  message: string;
}

export interface PauseCondition {
  reason: string;
  startTime: string;
}

export interface RolloutStatus {
  abort?: boolean;
  pauseConditions?: PauseCondition[];
  controllerPause?: boolean;
  abortedAt?: string;
  currentPodHash?: string;
  currentStepHash?: string;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  currentStepIndex?: number;
  collisionCount?: number;
  observedGeneration?: string;
  conditions?: RolloutCondition[];
  canary?: Record<string, unknown>;
  blueGreen?: { previewSelector?: string; activeSelector?: string; scaleUpPreviewCheckPoint?: boolean };
  HPAReplicas?: number;
  selector?: string;
  stableRS?: string;
  promoteFull?: boolean;
  phase?: string;
  message?: string;
  workloadObservedGeneration?: string;
}

export interface Rollout {
  apiVersion?: string;
  kind: 'Rollout';
  metadata: {
    name: string;
    namespace?: string;
    uid?: string;
    generation?: number;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
    deletionTimestamp?: string;
  };
  spec: {
    replicas?: number;
    selector?: LabelSelector;
    template?: PodTemplateSpec;
    workloadRef?: { apiVersion?: string; kind?: string; name?: string; scaleDown?: string };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
    strategy?: { canary?: CanaryStrategy; blueGreen?: BlueGreenStrategy };
  };
  status?: RolloutStatus;
}

export type RS = ReplicaSet;
