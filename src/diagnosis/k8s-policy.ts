/**
 * The namespace's objects that bound a workload's pods, in their wire form like every
 * type of k8s.ts: ResourceQuotas and LimitRanges (admission), PodDisruptionBudgets
 * (evictions) and HorizontalPodAutoscalers (the replica count).
 */
import type { Condition, LabelSelector, ObjectMeta, Quantity } from './k8s.js';

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
 * A PriorityClass (scheduling.k8s.io/v1, cluster-scoped): the Priority admission plugin
 * sets a pod's priority and preemptionPolicy from the class its priorityClassName names,
 * or from the global default where it names none.
 */
export interface PriorityClass {
  apiVersion?: string;
  kind?: 'PriorityClass';
  metadata: ObjectMeta;
  value: number;
  globalDefault?: boolean;
  preemptionPolicy?: string;
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
