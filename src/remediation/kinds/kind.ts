/**
 * What one remediation kind states about itself: a pure module per kind in this
 * folder, all listed in the registry (index.ts), as analyzers are. Everything that
 * used to branch on a kind's name (the executor, the patch allowlist, the watch after
 * applying, GitOps drift, the confirm dialog, the outcome, `cli apply`) looks the kind
 * up here instead. Types only.
 */
import type { AnalysisContext } from '../../diagnosis/analysis-context.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { Intervention } from '../../diagnosis/forward/model.js';
import type { ResolvedStrategy } from '../../diagnosis/resolved-strategy.js';
import type { WorkloadRef } from '../../diagnosis/snapshot/types.js';
import type { NotOffered, PlanOf, PodRef, RemediationKind, RemediationPlan, UncheckedPlan } from '../plan.js';
import type { Lang } from '../../i18n/lang.js';

/** The workload kinds a plan's target can be (the registry's: src/diagnosis/workloads/kinds.ts). */
export type WorkloadKind = WorkloadRef['kind'];

/**
 * A plan builder proposes remediations for one finding. Pure, like analyzers; it may
 * return nothing when no safe change exists (the safety rules live here). It gets the
 * AnalysisContext the analyzers were handed, so it reads the same derived values
 * (rollout assessment, crash pictures, placement index) the finding came from.
 */
export type PlanBuilder = (
  ctx: AnalysisContext,
  finding: Omit<Finding, 'remediations'>,
  /** Says why a plan kind is not offered here, so its absence is never silent. */
  notOffered?: NotOffered,
) => RemediationPlan[];

/**
 * The write a kind's plan comes to, one writer each in src/kube/write/: a patch of the
 * workload (workload-patcher.ts), of an old ReplicaSet's scale (replicaset-scaler.ts),
 * deleting pods by uid (pod-deleter.ts), creating or deleting a DeviceTaintRule
 * (device-taint-writer.ts; creating one also replaces the pods that hold the device).
 */
export type WriteOperation =
  | 'workload-patch'
  // The workload's status subresource (an Argo Rollout's abort).
  | 'workload-status-patch'
  | 'replicaset-scale'
  | 'pod-deletion'
  | 'device-taint-rule-creation'
  | 'device-taint-rule-deletion';

export type AllowlistVerdict = { ok: true } | { ok: false; reason: string };

/** What there is to watch after a plan is applied (watch-scope.ts). */
export type WatchScope =
  { kind: 'rollout' } | { kind: 'replacements'; pods: PodRef[] } | { kind: 'nothing'; why: string };

/**
 * Which fields GitOps drift (drift.ts) looks at: the fields the patch changes on the
 * live workload, each judged against its owner; or objects that are in no manifest
 * (a ReplicaSet's scale, pods, a DeviceTaintRule), which no owner reverts.
 */
export type DriftRule<P> =
  | { looksAt: 'patched-fields' }
  | {
      looksAt: 'objects-outside-the-manifest';
      /** The fields written and why no owner reverts them; `owner` undefined: none recognised. */
      verdict(plan: P, owner: string | undefined): { fields: string[]; why: string };
    };

/**
 * How the forward proof (src/engine/plan-proof.ts) holds a plan of this kind to what it
 * promises: its write is applied to the forward model, the controllers run forward, and
 * the plan stands only where it reaches its goal without taking serving pods below the
 * owners' floor.
 */
export interface ProofRule<P> {
  /**
   * Its write as the forward model takes it, where the write is not a patch of the
   * workload's spec (the proof applies such a patch to the object itself and runs the
   * strategy and template it leaves): the old ReplicaSet's new scale, the pods deleted.
   * Absent: the patched workload, or, with no such patch, nothing the model follows
   * (the plan's own counts are checked instead).
   */
  intervention?(ctx: AnalysisContext, plan: P): Intervention | undefined;
  /**
   * Where the model cannot run it: how many serving pods its own write takes down at
   * once; `serving` counts the Ready pods among those the plan names. Absent: as many as
   * the workload's strategy, as the patch leaves it, lets go (all of them for Recreate).
   */
  takesDown?(plan: P, serving: (pods: readonly PodRef[]) => number): number;
  /**
   * The pods it takes down come back from the workload's current template, so a
   * template that crashes on every node it ran on refuses it (not so for deleting the
   * crashing pods, an abort back to the stable pods, or moving off a device).
   */
  replacesWithTemplate: boolean;
  /**
   * Its write moves the rollout on while the workload is paused (scaling the old
   * ReplicaSet by hand: the controller scales the new one up as the old one goes down),
   * so it is refused on a paused workload it does not resume.
   */
  bypassesPause: boolean;
  /**
   * What the run must show, beyond no serving pod replaced by a crashing one:
   * 'rollout-completes'; or 'crash-off-its-nodes' (a node exclusion: no pod left
   * crash-looping where the template crashes and more pods serving, even where the
   * rollout does not finish). A relief kind (`reliefOnly`) promises no more than the
   * crashing pods taken away, whatever it says here.
   */
  goal: 'rollout-completes' | 'crash-off-its-nodes';
}

/** What an apply did, as the Undo is built from it. */
export interface Applied {
  /** The workload's generation after the write. */
  generation: number;
  /** Each field or object written, with its value after (src/kube/write/patch-effect.ts FieldChange). */
  changes: readonly { path: string; before?: unknown; after?: unknown }[];
}

/**
 * A kind's words. Renderers (src/chat/use-cases/confirm-text.ts, src/chat/use-cases/
 * outcome.ts, src/cli/commands/apply.ts) own layout and escaping; these say
 * what this kind does, from the plan's data.
 */
export interface KindWords<P> {
  /** The confirm dialog: the change, for a target phrase such as "deployment/web in ns shop", within `room` characters (best effort). */
  change(plan: P, target: string, room: number): string;
  /** An Undo of this kind: what it puts back ("the rollout strategy (Recreate)"), in `lang` (undo-words.ts). */
  restores(plan: P, lang: Lang): string;
  /** An Undo of this kind: one sentence on whether it starts a rollout, and why, in `lang`. */
  rollout(plan: P, lang: Lang): string;
  /** `cli apply`: the write, exactly (the object it patches, creates or deletes, and the patch). */
  write(plan: P): string[];
  /** `cli apply`: the first line after a successful write. */
  applied(plan: P, generation: number): string;
}

/** One remediation kind, as a unit. Pure. */
export interface RemediationKindModule<P extends RemediationPlan = RemediationPlan> {
  kind: P['kind'];
  /**
   * The finding codes it answers, each with its builder. Per finding, plans come in
   * registry order (best first). None for a kind that exists only as an Undo.
   */
  answers: Readonly<Partial<Record<string, PlanBuilder>>>;
  /** Only as the Undo of this kind (never offered by a builder). */
  undoes?: RemediationKind;
  /** The write its plans come to, and so its writer in src/kube/write/. */
  writes: WriteOperation;
  /** Writes a cluster-scoped object (every tenant's concern: approved under the policy's cluster-wide rules only). */
  clusterScoped: boolean;
  /**
   * The workload kinds a plan of this kind may target; absent: Deployments only. The
   * allowlist refuses any other target, whatever a stored plan says.
   */
  workloads?: readonly WorkloadKind[];
  /**
   * JSON pointers (RFC 6901) it may write at or below, in the object `writes` names
   * (the workload, or a ReplicaSet's Scale), for the workload kind of the plan's
   * target: a DaemonSet's strategy lives elsewhere than a Deployment's.
   */
  paths(workload: WorkloadKind): readonly string[];
  /**
   * What a stored plan of this kind must carry, and must not, beyond the paths: the
   * allowlist runs this first, whatever the plan's origin (Redis is data anyone with
   * write access could have shaped).
   */
  checkPayload(plan: UncheckedPlan): AllowlistVerdict;
  /**
   * When a plan of this kind is stale at apply time: once its workload was replaced
   * (uid), or also once its spec changed (generation).
   */
  staleWhen: 'replaced' | 'spec-changed';
  /**
   * Whether applying it takes serving pods down (old pods stopped first, Recreate, the
   * old ReplicaSet scaled down, pods deleted, a restart, an abort): such a plan is
   * offered for a stuck rollout only where the forward model shows it will not finish
   * by itself (src/engine/plan-gate.ts). Stated by every kind, so a new one decides.
   */
  spendsAvailability: boolean;
  /**
   * Whether this plan, of a kind that spends availability, takes no serving pod down after
   * all (pods deleted that fail on their own): the plan gate then offers it whatever the
   * forward model says of the rollout.
   */
  takesNoServingPod?(ctx: AnalysisContext, plan: P): boolean;
  /**
   * Whether applying it creates, deletes or moves pods (a workload patch that moves the
   * rollout, a ReplicaSet scaled down, pods deleted, a node or device tainted): such a
   * plan is run forward in the cluster it was made for before it is shown
   * (src/engine/plan-proof.ts). An Undo that only gives back what its plan took says no.
   */
  changesPods: boolean;
  /**
   * Whether the workload already has what a plan of this kind sets (its strategy), so
   * offering it would change nothing: the plan gate refuses it (src/engine/plan-gate.ts).
   * Absent: a plan of this kind always changes something.
   */
  alreadySet?(plan: P, current: ResolvedStrategy): boolean;
  /**
   * How the forward proof runs it before it is shown (ProofRule): stated by every kind
   * that `changesPods`, and by no other.
   */
  proof?: ProofRule<P>;
  /**
   * Its arithmetic turns on the workload's spec.replicas (a strategy's surge and
   * unavailability resolve against it; an old ReplicaSet's scale is spread with it):
   * under a HorizontalPodAutoscaler the plan says what the autoscaler does next and the
   * count it was run forward at (src/engine/proved-offer.ts, guards/autoscaler.ts).
   */
  turnsOnReplicas?: true;
  /**
   * Relief, not a fix (delete-pods, an Argo Rollout's abort): never ordered ahead of a
   * fix (plan-order.ts), held to no goal by the forward proof and never standing in for
   * a fix that keeps the owners' floor (src/engine/proved-offer.ts).
   */
  reliefOnly?: true;
  /**
   * Its plans write a node exclusion that ends itself: how long it lasts is
   * chosen at approval (the choice beside Approve in chat, `apply --lasts`).
   */
  lasts?: true;
  /** The Undo of an applied plan, or null when there is nothing to put back. */
  inverse(plan: P, applied: Applied): RemediationPlan | null;
  /** What to watch once applied: the rollout, the replacement pods, or nothing. */
  watch(plan: P): WatchScope;
  drift: DriftRule<P>;
  words: KindWords<P>;
}

/** The registry's shape: every kind, each with the module for its own plan type. */
export type KindRegistry = { [K in RemediationKind]: RemediationKindModule<PlanOf<K>> & { kind: K } };
