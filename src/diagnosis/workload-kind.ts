/**
 * What one workload kind answers for everything above it: the collector, scan and the
 * dump reader (which objects are its own), the analyzers and plan builders (revisions,
 * strategy, rollout state, how the controller replaces pods). One module per kind
 * (workloads/deployment/index.ts), listed in the registry (workloads/index.ts); nothing
 * outside the kind modules reads a kind's fields. docs/architecture.md, "Adding a
 * workload kind". Types only: the vocabulary the kind modules and their users share.
 */
import type { RemadeBy } from './workloads/remade-words.js';
import type { ApiRefusal } from './workloads/api-validation.js';
import type { Deployment } from './k8s-workloads.js';
import type { LabelSelector, ObjectMeta, Pod, PodTemplateSpec } from './k8s.js';
import type {
  CoverageGap,
  RevisionObject,
  SnapshotCommon,
  WorkloadObject,
  WorkloadObjects,
  WorkloadSnapshot,
} from './snapshot/types.js';
import type { ResolvedStrategy } from './resolved-strategy.js';
import type { WorkloadKind } from './workload-ref.js';

/** One revision of the pod template and the pods made from it. */
export interface Revision {
  /** The object that holds it: a ReplicaSet's name (Deployment), a ControllerRevision's (StatefulSet, DaemonSet). */
  name: string;
  /** The value of the kind's revision label (`revisionLabel`) its pods carry ("" when none). */
  hash: string;
  /** How a finding names it: "ReplicaSet web-7c9d8 (revision 3)". */
  label: string;
  pods: Pod[];
  /** Pods its own status counts (a ReplicaSet's status.replicas), when it says. */
  counted?: number;
  /** Pods its controller is asked for (a ReplicaSet's spec.replicas), when it has such a count. */
  desired?: number;
}

export interface Revisions {
  /** The revision the workload rolls out to (its current template), when one exists yet. */
  current?: Revision;
  /** The others, newest first. */
  old: Revision[];
  /**
   * The revision that serves until the update is promoted, when it is not the current
   * one (an Argo Rollout's stable ReplicaSet; also among `old`).
   */
  stable?: Revision;
}

/**
 * How the controller replaces a pod of an old revision:
 * - 'surge-first': the new pod is created first, and an old one goes only once a new
 *   one is Ready (a RollingUpdate with maxSurge >= 1 and maxUnavailable 0): a new pod
 *   that waits for what an old pod holds waits forever (DESIGN.md §1 A);
 * - 'old-first': an old pod may go before its replacement is Ready (maxUnavailable >=
 *   1, or Recreate).
 * A DaemonSet with maxSurge is 'surge-first' per node: its new pod is pinned to the
 * old pod's node. A StatefulSet is 'old-first'; its ordinal order is its own module's
 * (workloads/statefulset/ordered-block.ts).
 */
type Replacement = 'surge-first' | 'old-first';

/** The rollout's state the way `kubectl rollout status` decides it. */
export interface RolloutProgress {
  generation: number;
  observedGeneration: number;
  replicas: number;
  updated: number;
  ready: number;
  available: number;
  /** The object carries a status (a hand-written dump may not): without one the counts are unknown, not 0. */
  statusRead: boolean;
  /** One line, as kubectl prints it: "Waiting for deployment "x" rollout to finish: 1 of 3 updated replicas are available..." */
  message: string;
}

export type RolloutVerdict =
  | { state: 'progressing'; progress: RolloutProgress }
  | { state: 'complete'; progress: RolloutProgress }
  | { state: 'failed'; progress: RolloutProgress; reason: string }
  /**
   * Stopped on purpose (an Argo Rollout at a pause step): it waits for a person, unless
   * `resumesAt` says when a timed pause step ends and the controller goes on by itself.
   * `step`: the canary pause step it reached (1-based), when a step of its strategy
   * paused it rather than a person or an analysis.
   */
  | { state: 'paused'; progress: RolloutProgress; reason: string; step?: number; resumesAt?: string };

/** The controller gave up waiting for the rollout (a Deployment's ProgressDeadlineExceeded). */
export interface StalledRollout {
  /** The condition as the controller wrote it. */
  condition: { type: string; status: string; reason: string; message?: string };
  /** The revision that made no progress, as named ("web-5d8f7c9b4", or "the new ReplicaSet"). */
  revision: string;
  /** Ready pods of that revision, desired replicas, and the deadline in seconds. */
  ready: number;
  desired: number;
  deadlineSeconds: number;
  /** What the controller does about it, when not the Deployment controller's words. */
  explanation?: string;
}

/**
 * A rollout its controller halted, other than by its progress deadline: gave up
 * (an Argo Rollout aborted, or its spec refused) or paused on purpose (a pause step,
 * spec.paused), as the controller's own phase and conditions say.
 */
export interface RolloutHalt {
  code: 'RolloutDegraded' | 'RolloutPaused';
  phase: string;
  message: string;
  /** The condition reason or pause that says why (RolloutAborted, InvalidSpec, CanaryPauseStep, spec.paused). */
  reason: string;
  since?: string;
  /** The canary step it stands at ("step 2 of 4"), when it has steps. */
  step?: string;
  /** The same step as numbers (2 of 4), for the words of other languages. */
  stepAt?: { at: number; of: number };
  /** A timed canary pause step: when the controller goes on by itself (ISO time), and its duration in seconds. */
  endsAt?: string;
  lasts?: number;
  /** The condition the controller wrote for it, as the API server holds it (evidence). */
  condition?: { type: string; status: string; reason?: string; message?: string };
}

/** A revision whose pods the API server refuses to create (quota, admission): no pod exists to schedule or crash. */
export interface CreateFailure {
  /** The revision object's name ("web-7c9d8"). */
  revision: string;
  /** How a finding names it: "ReplicaSet web-7c9d8 (revision 3)". */
  label: string;
  /** The revision the workload rolls out to. */
  current: boolean;
  /** The API server's error as the controller recorded it (condition message, or the latest FailedCreate event). */
  message: string;
  source: 'condition' | 'event';
  /** When it was last seen. */
  at?: string;
  /** How many times the event was reported. */
  count?: number;
  /** Pods the revision wants and does not have. */
  missing: number;
}

/**
 * The pod an ordered controller waits for (a StatefulSet's rolling update,
 * stateful_set_control.go): it is not Running and Ready, and the controller neither
 * moves past it nor, when it is not Failed, replaces it.
 */
/**
 * Whether a pod's controller replaces it by itself (WorkloadKindModule `replacedByUpdate`):
 * known, with the revision its replacement runs and whether that happens at the next
 * sync; or not known, with why in a sentence (a feature gate the version read cannot
 * tell).
 */
export type ReplacedByUpdate =
  | {
      known: true;
      /** The revision its replacement runs. */
      updateRevision: string;
      /** Deleted at the controller's next sync: nothing is deleted or waited for before it. */
      now: boolean;
    }
  | {
      known: false;
      /** The revision its replacement would run, where the controller replaces it. */
      updateRevision: string;
      why: string;
    };

export interface OrderedBlock {
  pod: Pod;
  ordinal: number;
  /** The revision it runs (a ControllerRevision's name), and the one the update goes to. */
  revision: string;
  updateRevision: string;
  atUpdateRevision: boolean;
  /**
   * The update revision's template is known to work: it is the revision the current
   * pods run (the template was reverted), or one of its pods is Running and Ready.
   */
  updateRevisionProven: boolean;
  /** Only a deletion moves the rollout: OrderedReady waits for the pod and never replaces it (forced rollback). */
  needsDeletion: boolean;
  /** Pods below this ordinal keep the current revision on purpose. */
  partition: number;
  /**
   * The pod waited for is below the partition (kept at the current revision on purpose,
   * so deleting it brings the same revision back): the pods at or above the partition it
   * holds from their update.
   */
  heldAbovePartition?: string[];
  /** Where it is below the partition: the revision a deletion recreates it at (status.currentRevision). */
  recreatedAt?: string;
  policy: 'OrderedReady' | 'Parallel';
  /**
   * The container images that differ between the revision the rollout comes from (the
   * stuck pod's own when it is not at the update revision, else the current revision's)
   * and the update revision: what people know a release by. Empty when none differs or
   * the other revision's template was not read.
   */
  imageChanges: ImageChange[];
  /**
   * What the strategy does on this server, where that depends on it (a StatefulSet's
   * maxUnavailable and the MaxUnavailableStatefulSet gate), in words.
   */
  strategyNote?: string;
}

export interface ImageChange {
  container: string;
  from: string;
  to: string;
}

/**
 * One workload kind as a unit, typed for its own objects: `O` its workload object
 * (Deployment, DaemonSet, ...) and `R` the objects that hold its revisions (ReplicaSet,
 * ControllerRevision). The registry (workloads/index.ts) keeps one per kind and hands a
 * module only objects of its own kind (it is looked up by that kind), which is why the
 * registry may hold each as the plain `WorkloadKindModule` (methods take their
 * parameters bivariantly). Snapshots are checked at run time (each module's `objectsOf`).
 */
export interface WorkloadKindModule<
  O extends WorkloadObject = WorkloadObject,
  R extends RevisionObject = RevisionObject,
> {
  readonly kind: WorkloadKind;

  // Its words for people (messages, approval text, CLI output).
  readonly words: {
    /** What people call one ("Deployment", "Argo Rollout"). */
    kind: string;
    /** What its pods are called in counts: "replicas", or "pods" (a DaemonSet's, one per node). */
    pods: 'replicas' | 'pods';
    /** What a change of its pod template sets off, when more than a rollout (a Rollout's canary steps), or undefined. */
    templateChange?: string;
    /**
     * How a person takes the update back while the revision that serves is still there,
     * when not `kubectl rollout undo KIND/NAME` (an Argo Rollout's abort).
     */
    rollBack?: (name: string, namespace: string) => string;
  };

  // The cluster (whether it is served: its identity, workloads/kinds.ts).
  /**
   * Where its pod template comes from when its own spec has none (an Argo Rollout's
   * workloadRef to a Deployment), or undefined: `of` names that Deployment (or why it cannot
   * be followed), `resolved` is the workload as its controller sees it with that
   * object's template (and selector) filled in.
   */
  readonly templateRef?: {
    of(object: O): { name: string } | { unfollowable: string } | undefined;
    resolved(object: O, source: Deployment): O;
    /** The reference as the object names it, kept after resolving (a plan must not write a template the workload does not own). */
    named(object: O): { kind?: string; name?: string } | undefined;
  };
  /**
   * How it controls its pods: 'itself' (the pod's controller owner is the workload:
   * StatefulSet, DaemonSet) or 'replicasets' (through the ReplicaSets it owns).
   */
  readonly podOwner: 'itself' | 'replicasets';

  // Its strategy in a manifest and a patch.
  readonly strategyAt: {
    /** The spec field that holds it: spec.strategy, or spec.updateStrategy (DaemonSet, StatefulSet). */
    field: 'strategy' | 'updateStrategy';
    /** The JSON pointers a strategy fix may write (an Argo Rollout: the canary's bounds only). */
    patchPaths: readonly string[];
  };
  /**
   * How a fix that lets old pods go first is written: 'replicas' (RollingUpdate maxSurge 0
   * over all replicas), 'per-node' (a DaemonSet's, one pod per node), 'canary' (an Argo
   * Rollout's basic canary bounds); undefined: the kind never surges (StatefulSet).
   */
  readonly surgeFix?: 'replicas' | 'per-node' | 'canary';
  /** Recreate is one of its strategies (a Deployment's). */
  readonly recreate: boolean;
  /**
   * Its controller gives up on a rollout that makes no progress for a while (a
   * Deployment's progressDeadlineSeconds, an Argo Rollout's, then Degraded); a DaemonSet
   * and a StatefulSet have no such deadline, so a rollout of theirs that cannot finish
   * reads as under way for ever.
   */
  readonly progressDeadline: boolean;
  /**
   * A pod of it that terminates comes back: its controller keeps a fixed set of pods (a
   * StatefulSet's ordinals, a DaemonSet's nodes) and makes a deleted one again, so a
   * neighbour's terminating pod of this kind frees its room only for its replacement to
   * compete for it (forward/rivals.ts). A ReplicaSet's pods terminate mostly as it
   * scales down: they leave.
   */
  readonly deletedPodsReturn: boolean;
  /**
   * What kube-apiserver's own validation refuses of the object as an apply stores it
   * (`old`: the object stored now, none on a create): the whole apply fails and no rollout
   * starts (workloads/api-validation.ts). Absent for a custom resource (an Argo Rollout),
   * which the API server checks against its schema only.
   */
  apiRefusal?(object: O, old: O | undefined): ApiRefusal | undefined;
  /** A replaced pod is made again for the same node (DaemonSet): deleting it or excluding nodes moves nothing elsewhere. */
  readonly pinnedToNodes: boolean;
  /** A pause keeps a new template from running at all until resumed (a paused Deployment makes no ReplicaSet for it). */
  readonly pauseHoldsTemplate: boolean;
  /** Its controller runs AnalysisRuns it owns (an Argo Rollout's analysis), read as what guards it. */
  readonly analysisRuns?: true;
  /** The claim templates whose claims a pod keeps wherever it moves (a StatefulSet's volumeClaimTemplates). */
  claimTemplates(object: O): string[];
  /** The ordinal its replicas and partition count from: a StatefulSet's spec.ordinals.start, else 0. */
  firstOrdinal(object: O): number;
  /** A pod's place among the workload's as its controller counts replicas and the partition (a StatefulSet's ordinal less the start); absent for kinds without ordinals. */
  ordinalIndex?(object: O, pod: Pod): number | undefined;

  // The objects, as read (collector, scan, dump reader).
  /** The objects that hold its revisions, as the API lists them and a dump names them. */
  readonly revisionObjects:
    | { kind: 'ReplicaSet'; resource: 'replicasets' }
    | { kind: 'ControllerRevision'; resource: 'controllerrevisions' };
  /** The pod label naming a pod's revision: "pod-template-hash" (Deployment), "controller-revision-hash" (StatefulSet, DaemonSet). */
  readonly revisionLabel: string;
  /** The label selector of its pods (and revision objects): what the collector lists with. */
  selector(object: O): LabelSelector;
  podTemplate(object: O): PodTemplateSpec;
  /**
   * Its own revision objects and pods out of what was read, by controller owner
   * reference (by kind and name where a hand-written dump has no uids), newest first.
   */
  own(
    object: O,
    read: { revisions: readonly R[]; pods: readonly Pod[] },
    here: (meta: ObjectMeta) => boolean,
  ): { revisions: R[]; pods: Pod[] };
  /** The snapshot's kind fields: the object and its revision objects. */
  objects(object: O, revisions: R[]): WorkloadObjects;
  /** The workload object of a snapshot of this kind. */
  object(snapshot: WorkloadObjects): O;
  /**
   * The name of the workload of this kind a pod belongs to, from its owner reference and
   * labels alone (the early warning, without a read); the pod as a watch delivers it,
   * unvalidated. Undefined: not a pod of this kind.
   */
  nameFromPod(pod: unknown): string | undefined;
  /** Revision objects a dump lacks though its pods name them: they may be ours (coverage gaps). */
  missingRevisions(object: O, pods: readonly Pod[], revisions: readonly R[]): CoverageGap[];
  /** Pods the object's status counts (a dump holding fewer lacks some). */
  countedPods(object: O): number;

  // The facts analyzers and plan builders ask.
  /** Desired replicas, with the API default. */
  desiredReplicas(object: O): number;
  /** Rollouts stopped on purpose (a paused Deployment). */
  paused(object: O): boolean;
  /** The update strategy resolved to numbers, with where each value came from. */
  strategy(object: O): ResolvedStrategy;
  /**
   * How the controller replaces pods under this strategy. An Argo Rollout's basic canary
   * depends on the counts it observes too (its weighted target may keep every stable
   * pod), so the snapshot comes along.
   */
  replacement(strategy: ResolvedStrategy, snapshot: WorkloadSnapshot): Replacement;
  /** Which revision each pod belongs to, current first. */
  revisions(snapshot: WorkloadObjects & Pick<SnapshotCommon, 'pods'>): Revisions;
  /** `kubectl rollout status`: progressing, complete or failed, with kubectl's own line. */
  rolloutStatus(object: O, sinceGeneration?: number): RolloutVerdict;
  /** Why the workload is not in its steady state (a rollout or scale under way), or undefined. */
  underWay(snapshot: WorkloadSnapshot): string | undefined;
  /** The workload's own counts in a line ("1 of 3 replicas updated, ..."), and whether they say done. */
  statusSummary(object: O): { text: string; complete: boolean };
  /** Revisions whose pods the API server refuses to create now, the current one first. */
  createFailures(snapshot: WorkloadSnapshot): CreateFailure[];
  /**
   * The controller keeps every old pod until a new one is available, at the counts it
   * observes now: then a new pod refused for what the old pods use waits forever.
   * `startingNew`: that many new pods starting now counted available (they will be).
   */
  keepsOldPods(snapshot: WorkloadSnapshot, startingNew?: number): boolean;
  /**
   * Old pods the controller removes by itself, whatever the new pods do (an Argo
   * Rollout's ReplicaSet that nothing references any more, scaled down at its
   * scale-down deadline): their room comes free as a terminating pod's does.
   */
  leavingPods(snapshot: WorkloadSnapshot): Pod[];
  /** The controller gave up on the rollout, or undefined. */
  stalled(snapshot: WorkloadSnapshot): StalledRollout | undefined;
  /** What kubectl prints for this rollout that reads as if it were progressing (surge deadlock evidence). */
  misleadingSignals(object: O, strategy: ResolvedStrategy, replicas: number): string;
  /** The sentence a finding adds when rollouts are stopped on purpose, or ''. */
  pausedNote(object: O): string;
  /**
   * The way out of a surge deadlock in one sentence: how letting the old pods go first
   * is written for this kind ("RollingUpdate with maxSurge 0 (or Recreate), then restart
   * the rollout ..."), after "Letting the old pod go first frees room on NODE: ".
   */
  surgeWayOut(strategy: ResolvedStrategy): string;
  /**
   * How its controller makes deleted pods again (said by workloads/remade-words.ts, the
   * sentence a plan's impact starts with: "The ReplicaSet creates 2 replacements at
   * once"): who makes them, under which names, and in what order.
   */
  remadeBy(object: O): RemadeBy;
  /** The rollout halted by its controller (an Argo Rollout Degraded or Paused), or undefined; kinds without phases lack it. */
  halt?(snapshot: WorkloadSnapshot): RolloutHalt | undefined;
  /** The pod an ordered rollout waits for (StatefulSets), or undefined; kinds without an order lack it. */
  orderedBlock?(snapshot: WorkloadSnapshot): OrderedBlock | undefined;
  /**
   * Where the controller deletes `pod` by itself and makes its replacement at the update
   * revision, without waiting for `pod` to become Ready (a StatefulSet's Parallel rolling
   * update, at or above the partition); else undefined. Such a Pending pod holds nothing
   * up as it is: what its replacement needs is what counts. Not known: the pod is judged
   * as it is, and the finding says why it may not be.
   */
  replacedByUpdate?(snapshot: WorkloadSnapshot, pod: Pod): ReplacedByUpdate | undefined;
  /** Whether a verdict on this object depends on the API server's version (the collector then reads /version). */
  readsServerVersion?(object: O): boolean;

  // A manifest about to be applied (check, the admission webhook: src/check/candidate.ts).
  /**
   * The live status as the manifest's candidate object carries it: no revision of the
   * manifest's template exists yet (a StatefulSet's update revision, an Argo Rollout's pod
   * hash and step). Absent: the live status as it is.
   */
  candidateStatus?(status: Record<string, unknown>): Record<string, unknown>;
  /**
   * For a kind whose update the forward model does not follow step by step, the rolling
   * update the candidate's rollout keeps to, which the model runs instead (its 'candidate'
   * variant: forward/proxy-strategy.ts), or undefined where none stands in for it.
   * `settled`: every pod of the workload is Running and Ready.
   */
  candidateStrategy?(object: O, strategy: ResolvedStrategy, settled: boolean): ResolvedStrategy | undefined;
}
