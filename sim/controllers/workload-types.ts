/**
 * apps/v1 StatefulSet, DaemonSet and ControllerRevision in their wire form, as the
 * simulator's controllers read them (k8s.io/api/apps/v1 types.go). Local to the
 * simulator: src/ has its own view of these kinds.
 */
import type { LabelSelector, ObjectMeta, PodTemplateSpec } from '../../src/diagnosis/k8s.js';

export type IntOrString = number | string;

export interface StatefulSetStatus {
  observedGeneration?: number;
  replicas: number;
  readyReplicas?: number;
  currentReplicas?: number;
  updatedReplicas?: number;
  currentRevision?: string;
  updateRevision?: string;
  collisionCount?: number;
  availableReplicas: number;
}

export interface VolumeClaimTemplate {
  metadata: ObjectMeta & { name: string };
  spec?: Record<string, unknown>;
}

export interface StatefulSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { name: string };
  spec: {
    replicas?: number;
    selector: LabelSelector;
    template: PodTemplateSpec;
    serviceName?: string;
    podManagementPolicy?: string;
    updateStrategy?: {
      type?: string;
      rollingUpdate?: { partition?: number; maxUnavailable?: IntOrString };
    };
    revisionHistoryLimit?: number;
    minReadySeconds?: number;
    volumeClaimTemplates?: VolumeClaimTemplate[];
    ordinals?: { start?: number };
  };
  status?: StatefulSetStatus;
}

export interface DaemonSetStatus {
  currentNumberScheduled: number;
  numberMisscheduled: number;
  desiredNumberScheduled: number;
  numberReady: number;
  observedGeneration?: number;
  updatedNumberScheduled?: number;
  numberAvailable?: number;
  numberUnavailable?: number;
  collisionCount?: number;
}

export interface DaemonSet {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { name: string };
  spec: {
    selector: LabelSelector;
    template: PodTemplateSpec;
    updateStrategy?: {
      type?: string;
      rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString };
    };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
  };
  status?: DaemonSetStatus;
}

export interface ControllerRevision {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta & { name: string };
  data?: unknown;
  revision: number;
}
