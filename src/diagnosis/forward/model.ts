/**
 * The forward model's state: the workload's pods with their phases (pod-phase.ts),
 * the counts its controller asks for, the world they live in (world.ts), and what the
 * model saw happen on the way (the "will finish once" words).
 */
import type { Node, Pod } from '../k8s.js';
import type { QuotaLedger, World } from './world.js';
import type { ModelPod, ModelPods } from './model-pods.js';
import type { QueueOrder, Rival } from './rivals.js';
import type { DeletionQueue, DeletionRank } from './deletion-queue.js';
import type { Ordinals } from './ordinal-claims.js';

export type { ModelPod } from './model-pods.js';

/** A Deployment-like controller: ReplicaSets scaled within maxSurge and maxUnavailable (or Recreate). */
export interface ReplicaShape {
  kind: 'replicas';
  replicas: number;
  maxSurge: number;
  maxUnavailable: number;
  recreate: boolean;
  /** The ReplicaSets' spec.replicas, new and old (all old ones together). */
  newSpec: number;
  oldSpec: number;
}

/** A DaemonSet: one pod per node that should run it, replaced per node. */
export interface PerNodeShape {
  kind: 'per-node';
  /** Nodes that should run a pod (nodeShouldRunDaemonPod's shouldRun). */
  nodes: Node[];
  /**
   * Nodes whose pod should keep running though none would be placed there now
   * (shouldContinueRunning: selected, every NoExecute taint tolerated; a NoSchedule one,
   * an unreachable node's, does not evict): the manage loop leaves their pods alone.
   */
  keep: Node[];
  maxSurge: number;
  maxUnavailable: number;
}

export type Shape = ReplicaShape | PerNodeShape;

/**
 * What a plan does to the workload, as the forward model applies it before its first
 * tick (src/engine/plan-proof.ts derives it from the plan's own write):
 * - `strategy`: the strategy the patch leaves (maxSurge and maxUnavailable resolved);
 * - `template`: the new pod the changed template makes (a restart, a node exclusion):
 *   every pod now running is then of an old revision, as after any template change;
 * - `oldTo`: the old ReplicaSets scaled to this many replicas in all, at once or
 *   (`stepped`) one replica at a time, each step once the last new pod is Ready;
 * - `deleted`: pods deleted (uid, or name where a pod has no uid);
 * - `resumed`: run as the workload will go once resumed (a paused Deployment's strategy
 *   or restart takes effect only then);
 * - `promoted`: a basic Argo canary run past its pauses as the rolling update whose
 *   bounds its steps keep (proxy-strategy.ts; canary-order.ts asks it).
 */
export interface Intervention {
  strategy?: { maxSurge: number; maxUnavailable: number; recreate: boolean };
  template?: Pod;
  oldTo?: { replicas: number; stepped: boolean };
  deleted?: ReadonlySet<string>;
  resumed?: boolean;
  promoted?: true;
  /** Other workloads' pods gone at the first step (a running Job's, once it ends: job-wait.ts). */
  othersGone?: readonly Pod[];
  /** Only these of the other workloads' Pending pods wait in the queue (queue-race.ts asks one at a time). */
  rivalsOnly?: readonly Rival[];
}

/** What happened on the way (first occurrence of each), in the model's words. */
export type Step =
  | { kind: 'gone'; pod: string }
  /** `waitsMinReady`: Ready already, not available until the workload's minReadySeconds pass. */
  | { kind: 'ready'; pod: string; waitsMinReady?: true }
  | { kind: 'old-removed'; pod: string }
  /** The cluster autoscaler is adding a node for this pending pod (scheduling/scale-up.ts). */
  | { kind: 'node-added'; pod: string }
  | { kind: 'admitted'; quota: string }
  | { kind: 'preempted'; pod: string; node: string; victims: string[] }
  /** A new pod of a template known to crash there started on `node` and crash-loops. */
  | { kind: 'crashed'; pod: string; node: string }
  /** A pod the plan deletes. */
  | { kind: 'deleted'; pod: string }
  /** Another workload's Pending pod (rivals.ts) is bound to `node`, taking room there. */
  | { kind: 'rival-placed'; pod: string; node: string; owner: string };

export interface Model {
  world: World;
  nodes: Node[];
  shape: Shape;
  pods: ModelPods;
  /** A new pod as the controller creates it (unbound), and an old one. */
  newTemplate: Pod;
  oldTemplate?: Pod;
  steps: Step[];
  /** Creates the quota refused in the last tick (zero when none). */
  refused: number;
  /** The quota that refused the latest of them. */
  refusedBy?: QuotaLedger;
  /** Pods of others the scheduler preempted, gone at the next tick. */
  victims: Pod[];
  /** Other workloads' terminating pods, gone at the first tick (rivals.ts). */
  leaving: Pod[];
  /**
   * The scheduler's own latest word says preemption finds no victim for a Pending pod
   * of this priority: the model preempts nothing for pods of this priority or lower
   * until a pod has left (then the scheduler looks again). Victims are the pods of lower
   * priority than the preemptor, so a pod of higher priority (a new template that
   * raised it, beside an old pod its ReplicaSet made again) may still find some.
   * Undefined: nothing held.
   */
  preemptionHeld: number | undefined;
  /** Anything changed in the current tick (a create, a delete, a bind, a pod Ready or gone). */
  changes: number;
  /**
   * Where a new pod of the workload's current template crash-loops (crash-model.ts), or
   * undefined: no crash known. A pod the model makes on such a node never becomes Ready.
   */
  crashesOn?: (node: string) => boolean;
  /** What ranks each pod for deletion and does not change in the run (controllers.ts podsToDelete). */
  deletionRanks: WeakMap<ModelPod, DeletionRank>;
  /** Per revision, its Ready pods in deletion order and how far it has read what moved (deletion-queue.ts). */
  deletionQueues: Partial<Record<'new' | 'old', { queue: DeletionQueue; moved: number; ready: number }>>;
  /** Other workloads' Pending pods not placed yet (rivals.ts), and where they stand in the queue. */
  rivals: Rival[];
  order: QueueOrder;
  /** The serving (available) pods of the workload: at the start and the lowest on the way. */
  serving: { start: number; lowest: number };
  /** A plan's stepped scale of the old ReplicaSets: one replica at a time, each once the last new pod is Ready. */
  steppedTo?: number;
  /** The stepped walk waits for a new pod to become Ready before its next step. */
  stepAwaits?: boolean;
  /** A manifest's StatefulSet: each new pod takes an ordinal and its bound claims (ordinal-claims.ts). */
  ordinals?: Ordinals;
}

/** Pods of the workload that serve now: available to their controller, not on their way out. */
export function countServing(pods: ModelPods): number {
  return pods.serving();
}

export function live(pods: ModelPods, revision: 'new' | 'old'): ModelPod[] {
  return pods.live(revision);
}

export function countReady(pods: ModelPods, revision: 'new' | 'old'): number {
  return pods.count(revision, 'ready');
}
