/**
 * The forward model's state: the workload's pods with their phases (pod-phase.ts),
 * the counts its controller asks for, the world they live in (world.ts), and what the
 * model saw happen on the way (the "will finish once" words).
 */
import type { Node, Pod } from '../k8s.js';
import type { PodPhase } from './pod-phase.js';
import type { QuotaLedger, World } from './world.js';

export interface ModelPod {
  pod: Pod;
  revision: 'new' | 'old';
  phase: PodPhase;
  /** A DaemonSet pod's node (its controller pins it there). */
  target?: string;
  /** The scheduler nominated a node and preempts there. */
  nominated?: string;
}

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
  nodes: Node[];
  maxSurge: number;
  maxUnavailable: number;
}

export type Shape = ReplicaShape | PerNodeShape;

/** What happened on the way (first occurrence of each), in the model's words. */
export type Step =
  | { kind: 'gone'; pod: string }
  | { kind: 'ready'; pod: string }
  | { kind: 'old-removed'; pod: string }
  | { kind: 'admitted'; quota: string }
  | { kind: 'preempted'; pod: string; node: string; victims: string[] };

export interface Model {
  world: World;
  nodes: Node[];
  shape: Shape;
  pods: ModelPod[];
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
}

export function live(pods: readonly ModelPod[], revision: 'new' | 'old'): ModelPod[] {
  return pods.filter((p) => p.revision === revision && p.phase !== 'terminating' && p.phase !== 'stuck');
}

export function countReady(pods: readonly ModelPod[], revision: 'new' | 'old'): number {
  return pods.filter((p) => p.revision === revision && p.phase === 'ready').length;
}
