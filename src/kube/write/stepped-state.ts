/**
 * What a stepped walk (stepped-walk.ts) is about and what it has done so far, shared by
 * its steps and its waits (stepped-waits.ts); and the walk's events, as data for the
 * Slack thread.
 */
import type { Deployment } from '../../diagnosis/k8s-workloads.js';
import type { OldReplicaSetTarget, ReplicaSetScalePlan } from '../../remediation/plan.js';
import type { ReproveStep } from '../../remediation/step-release.js';
import type { KubeClient } from '../client.js';
import { getObject } from '../list.js';
import type { Mark } from './deletion-cost.js';
import type { FieldChange } from './patch-effect.js';

export interface StepOptions {
  /** How long one step may wait for its new pod to be Ready (default 10 minutes). */
  stepTimeoutMs?: number;
  /**
   * Re-read interval while waiting (default 2 s): a watch wakes the wait as soon as the
   * watched ReplicaSet changes; the re-read carries on if the watch drops.
   */
  pollMs?: number;
  /** Each step as data, for the Slack thread (src/worker/remediate-processor.ts). */
  onStep?: (event: StepEvent) => void;
  /**
   * The re-proof before each step, from a fresh snapshot (src/apply/apply-plan.ts):
   * required to walk; without it a stepped plan is not applied.
   */
  reprove?: ReproveStep;
}

/** Why a stepped walk stopped before the old ReplicaSet reached 0. */
export type StepStop =
  | 'deployment-changed'
  | 'replicaset-changed'
  | 'nothing-blocked'
  | 'other-pod-first'
  | 'not-released'
  | 'released-elsewhere'
  | 'ready-timeout'
  | 'api-error';

/**
 * How the Deployment changed under a walk: rolled back to the old ReplicaSet's template,
 * a new rollout (a template neither ReplicaSet runs), or another spec field.
 */
export type DeploymentChange = 'rolled-back' | 'new-rollout' | 'spec';

/**
 * One step of the walk, as data: step `step` of `of` (the old ReplicaSet's replicas
 * at diagnosis), numbered from the ReplicaSet's replicas so a retried walk numbers
 * its steps as the first attempt did. `pod` is the old pod the ReplicaSet controller
 * released, as seen after the scale; `marked` the pod the step had marked, when the
 * controller released another. `marks-left`: pods still carrying our mark because
 * taking it off failed.
 */
export type StepEvent =
  | { phase: 'waiting-ready'; step: number; of: number; replicaSet: string; pod: string; marked?: string }
  | { phase: 'ready'; step: number; of: number; replicaSet: string; pod: string; marked?: string }
  | { phase: 'done'; step: number; of: number; replicaSet: string }
  | {
      phase: 'stopped';
      step: number;
      of: number;
      replicaSet: string;
      reason: StepStop;
      /** reason deployment-changed: how, and the generation seen. */
      change?: DeploymentChange;
      generation?: number;
    }
  | {
      phase: 'marks-left';
      step: number;
      of: number;
      replicaSet: string;
      namespace: string;
      pods: string[];
    };

/** What one walk is about, fixed for its length. */
export interface Walk {
  client: KubeClient;
  plan: ReplicaSetScalePlan;
  target: OldReplicaSetTarget;
  namespace: string;
  /** The old ReplicaSet's replicas at diagnosis: the steps of the whole walk. */
  of: number;
  pollMs: number;
  stepTimeoutMs: number;
  progress: (step: string) => void;
  emit: (event: StepEvent) => void;
  reprove: ReproveStep;
}

/** What the walk has done so far: each named step below reads and advances it. */
export interface WalkState {
  /** The Deployment as last read. */
  live: Deployment;
  /** The old ReplicaSet's replicas as the walk last set or saw them. */
  expected: number;
  /** This attempt's writes. */
  changes: FieldChange[];
  /** Marks this walk set on pods the controller has not been seen to release. */
  marks: Mark[];
  /** A write was sent and its answer has not come. */
  writing: boolean;
  /** Why the walk's Undo is not offered (the Deployment moved on under it). */
  noUndo?: string;
}

/** The plan's Deployment as it is now: replaced or its spec changed (generation) since diagnosis. */
export function changedDeployment(w: Walk, d: Deployment): boolean {
  return (
    d.metadata.uid !== w.plan.preconditions.uid ||
    (d.metadata.generation ?? 0) !== w.plan.preconditions.generation
  );
}

export function readDeployment(w: Walk): Promise<Deployment> {
  return getObject<Deployment>(w.client, {
    resource: 'deployments',
    namespace: w.namespace,
    name: w.plan.target.name,
  });
}

/** Re-reads the Deployment during a wait; true (and `live` updated) when it changed. */
export async function deploymentMoved(w: Walk, s: WalkState): Promise<boolean> {
  const now = await readDeployment(w);
  if (!changedDeployment(w, now)) return false;
  s.live = now;
  return true;
}
