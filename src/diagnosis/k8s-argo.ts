/**
 * The Argo Rollouts objects rollout-doctor reads (argoproj/argo-rollouts
 * pkg/apis/rollouts/v1alpha1/types.go), in their wire form like every type of k8s.ts:
 * the Rollout, a workload kind of its own, and the AnalysisRuns that guard its steps.
 */
import type { Condition, LabelSelector, ObjectMeta, PodTemplateSpec } from './k8s.js';

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
        /** A background analysis run through the steps: a failure aborts the update. */
        analysis?: unknown;
        antiAffinity?: RolloutAntiAffinity;
        canaryService?: string;
        stableService?: string;
      };
      blueGreen?: {
        activeService?: string;
        previewService?: string;
        previewReplicaCount?: number;
        autoPromotionEnabled?: boolean;
        /** The pause ends and the preview is promoted this long after it began; ignored with autoPromotionEnabled false. */
        autoPromotionSeconds?: number;
        maxUnavailable?: number | string;
        /** How long an abort leaves the preview up (30 s by default; 0: until a person acts). */
        abortScaleDownDelaySeconds?: number;
        /** How long a ReplicaSet no longer referenced stays up (30 s by default). */
        scaleDownDelaySeconds?: number;
        prePromotionAnalysis?: unknown;
        postPromotionAnalysis?: unknown;
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
    canary?: {
      weights?: {
        canary?: { weight?: number; podTemplateHash?: string };
        stable?: { weight?: number; podTemplateHash?: string };
      };
    };
  };
}
