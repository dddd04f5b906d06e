import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import type { PlanSaid } from './plan-said.js';

/** Stable remediation kinds (DESIGN.md §3). Add kinds; never rename these. */
export const REMEDIATION_KINDS = [
  'set-rolling-update',
  'set-recreate',
  'exclude-node',
  'rollout-restart',
  'delete-pods',
  'scale-old-replicaset',
  // Only as the Undo of scale-old-replicaset: scales that old ReplicaSet back up.
  'scale-back-old-replicaset',
  // A DeviceTaintRule on one Unhealthy device plus replacing the pods that hold it.
  'taint-device',
  // Only as the Undo of taint-device: deletes that DeviceTaintRule.
  'untaint-device',
  // An Argo Rollout's abort (status.abort), as `kubectl argo rollouts abort` patches it.
  'abort-rollout',
] as const;
export type RemediationKind = (typeof REMEDIATION_KINDS)[number];

/** Wire names of the three patch types the API server accepts. */
export type PatchType = 'strategic-merge' | 'merge' | 'json';

export const PATCH_CONTENT_TYPES: Record<PatchType, string> = {
  'strategic-merge': 'application/strategic-merge-patch+json',
  merge: 'application/merge-patch+json',
  json: 'application/json-patch+json',
};

export interface Patch {
  type: PatchType;
  body: unknown;
}

/**
 * What must still be true of the live object for the plan to apply. The executor
 * re-reads the Deployment and refuses, with the mismatching field named, when any
 * of these differ.
 */
export interface Preconditions {
  uid: string;
  generation: number;
  /** JSON pointers (RFC 6901) into the Deployment and the value the plan assumed (undefined = absent). */
  fields: { path: string; value: unknown }[];
  /**
   * The fields alone say whether the plan still holds, not the generation: an Undo,
   * which restores only those fields, is not stale because another field of the spec
   * changed since (a promote's spec.paused).
   */
  fieldsOnly?: true;
}

/**
 * The old ReplicaSet a scale-old-replicaset plan scales, as seen at diagnosis (for its
 * Undo, scale-back-old-replicaset: as the scale left it, `to` the count it had).
 */
export interface OldReplicaSetTarget {
  name: string;
  uid: string;
  /** Its pod-template-hash label (immutable with its selector): the template it runs. */
  podTemplateHash: string;
  /** spec.replicas at diagnosis, and what the plan sets. */
  replicas: number;
  to: number;
  /** The Deployment's new ReplicaSet at diagnosis: refused if the rollout moved on to another. */
  newReplicaSet: { name: string; uid: string };
  /**
   * Step down one replica at a time instead (replicas > 1): before each step the worker
   * marks the old pod whose release unblocks the surge pod with
   * controller.kubernetes.io/pod-deletion-cost, scales down by one and waits for the
   * new pod to be Ready. `patch` is the first step; `to` is 0.
   */
  stepped?: boolean;
}

/**
 * The DeviceTaintRule a taint-device plan creates (and its Undo deletes): cluster-scoped,
 * so it affects every tenant's claims on that device. Its name and body are derived
 * from these fields (src/remediation/device-taint.ts), which the seal covers.
 */
export interface DeviceTaintTarget {
  /** The version discovery found serving devicetaintrules (GA v1 in 1.37; beta v1beta2, off by default, in 1.36). */
  apiVersion: 'resource.k8s.io/v1' | 'resource.k8s.io/v1beta2';
  /** The rule's name: deviceTaintRuleName(driver, pool, device). */
  name: string;
  driver: string;
  pool: string;
  device: string;
  /** The node whose device it is (words, and the re-check). */
  node: string;
  /** The device as the kubelet reported it Unhealthy (re-checked on the live pods before apply). */
  resourceID: string;
  taint: { key: string; value: string; effect: 'NoSchedule' };
}

/**
 * Whether the owner of the Deployment (Argo CD, Flux, Helm, kubectl apply) will undo
 * this plan's write, worked out per field from what is in its desired manifest, its
 * revert behaviour and the field manager the write uses (`rollout-doctor`).
 */
export interface PlanDrift {
  /** 'unknown' when it depends on a setting that was not read (self-heal, drift detection). */
  reverted: true | false | 'unknown';
  /** Who would revert it (e.g. "Argo CD application shop"), or who owns the object. */
  by: string;
  /** The fields the write sets, as paths (spec.strategy, spec.replicas of ReplicaSet x). */
  fields: string[];
  /** One sentence: why. */
  why: string;
  /**
   * false when no owner was recognised (then `by` says so and `why` says what the
   * managedFields show: nothing that applies the object again, or writers we do not know).
   */
  ownerRecognised?: false;
}

/** A pod a plan deletes, named in target.namespace, with the uid seen at diagnosis. */
export interface PodRef {
  name: string;
  uid: string;
}

/**
 * What the forward model predicts a plan does (src/engine/plan-proof.ts), shown with it:
 * the serving replicas on the way and the steps. A plan that changes pods is offered
 * only with one.
 */
/**
 * One line of a run's steps, with repeats folded (`count`): "old pod web-1 goes",
 * "3 new pods become Ready", "the rollout completes", "… 4 more steps".
 */
export type ProofStep =
  | { say: 'gone' | 'old' | 'deleted'; count: number; pod: string }
  | { say: 'ready' | 'node-added'; count: number }
  | { say: 'admitted'; count: number; quota: string }
  | { say: 'preempted'; count: number; node: string; victims: number }
  | { say: 'crashed'; count: number; node: string }
  | { say: 'completes'; count: 1 }
  | { say: 'more'; count: number };

export interface PlanProof {
  /**
   * 'run': the plan's write applied to the forward model and the controllers run to the
   * end; 'checked': the model cannot follow this workload (`why`), and the plan's own
   * counts were held to the floor and the crash rule.
   */
  method: 'run' | 'checked';
  /** Serving (available) pods of the workload now, the fewest on the way, and the replicas it wants. */
  serving: { now: number; lowest: number; wanted: number };
  /**
   * The floor its owners set: the strictest PodDisruptionBudget over its pods, in this
   * workload's own serving pods; 'unknown' when the budgets were not read. Absent: none.
   */
  floor?: { budget: string; minServing: number; rule: string } | 'unknown';
  /** How many serving pods below that floor the plan goes (offered only as an outage, and only when no plan keeps it). */
  belowFloor?: number;
  /** What the run predicts, in order, in words (a few; English, as `said` says them). */
  steps: string[];
  /** The same steps as data, said in the reader's language (proof-text.ts); absent on plans stored before. */
  said?: ProofStep[];
  /** It acts once someone resumes the paused workload (proved as resumed; the plan does not resume it). */
  atResume?: true;
  /** Why the plan was checked rather than run. */
  why?: string;
  /**
   * It reaches its goal only where the scheduler places our pods before other
   * workloads' Pending pods of the same priority (forward/rivals.ts): which workloads,
   * and what happens when theirs go first.
   */
  dependsOnOrder?: { rivals: string; otherwise: string };
}

/**
 * What every plan carries, whatever its kind. A remediation is data: built by a pure
 * plan builder from a snapshot, stored with an id and an expiry, shown to the approver
 * exactly as it will be applied.
 */
interface PlanCommon<K extends RemediationKind> {
  /** Deterministic: the same snapshot and kind give the same id. No ':' (BullMQ job ids). */
  id: string;
  kind: K;
  target: WorkloadRef;
  /** One line: what the button does. */
  summary: string;
  /** Expected impact, plain words: "brief outage: 1 replica of 1 goes down before the new one starts". */
  impact: string;
  /** The impact as data, for readers of other languages (plan-words.ts planImpact); absent: English only. */
  impactSaid?: PlanSaid;
  /** Warnings that should make an approver think twice (few nodes left eligible, ...). */
  warnings: string[];
  /** Words of some warnings, for readers of other languages (plan-words.ts planWarnings); the rest English only. */
  warningsSaid?: PlanSaid[];
  preconditions: Preconditions;
  /** The finding code this plan addresses. */
  addresses: string;
  /** Whether the workload's owner will revert this write; absent when no owner was found. */
  drift?: PlanDrift;
  /** What running the plan forward predicts (plans that change pods). */
  proof?: PlanProof;
}

/** Kinds that patch the workload object itself (its strategy, pod template). */
type WorkloadPatchKind =
  'set-rolling-update' | 'set-recreate' | 'rollout-restart' | 'exclude-node' | 'abort-rollout';

/** A patch of the workload; its Undo patches it back with `inverse`, where one makes sense. */
export interface WorkloadPatchPlan extends PlanCommon<WorkloadPatchKind> {
  patch: Patch;
  /** The patch that undoes this one. */
  inverse: Patch | null;
  replicaSet?: undefined;
  deviceTaint?: undefined;
  pods?: undefined;
}

/**
 * scale-old-replicaset and its Undo: `patch` is a JSON patch of the old ReplicaSet's
 * scale subresource (testing /metadata/uid and /spec/replicas), never of the workload.
 */
export interface ReplicaSetScalePlan extends PlanCommon<
  'scale-old-replicaset' | 'scale-back-old-replicaset'
> {
  patch: Patch;
  replicaSet: OldReplicaSetTarget;
  inverse: null;
  deviceTaint?: undefined;
  pods?: undefined;
}

/** delete-pods: no patch; the pods to delete, each with the uid seen at diagnosis. */
export interface DeletePodsPlan extends PlanCommon<'delete-pods'> {
  patch: null;
  pods: PodRef[];
  inverse: null;
  replicaSet?: undefined;
  deviceTaint?: undefined;
}

/** taint-device: the DeviceTaintRule it creates, then the pods holding the device it deletes. */
export interface TaintDevicePlan extends PlanCommon<'taint-device'> {
  patch: null;
  deviceTaint: DeviceTaintTarget;
  pods: PodRef[];
  inverse: null;
  replicaSet?: undefined;
}

/** untaint-device, only as the Undo of taint-device: deletes that DeviceTaintRule. */
export interface UntaintDevicePlan extends PlanCommon<'untaint-device'> {
  patch: null;
  deviceTaint: DeviceTaintTarget;
  inverse: null;
  replicaSet?: undefined;
  pods?: undefined;
}

/**
 * A plan, by kind: each kind carries the payload it writes (a patch, a ReplicaSet's
 * scale, pods, a DeviceTaintRule) and no other. A plan read back from Redis is only
 * believed to have this shape: the allowlist (patch-allowlist.ts) checks it before any
 * write.
 */
export type RemediationPlan =
  WorkloadPatchPlan | ReplicaSetScalePlan | DeletePodsPlan | TaintDevicePlan | UntaintDevicePlan;

/**
 * What the allowlist reads of a plan before it has checked it: read back from Redis,
 * any kind may carry any payload. Every RemediationPlan is one.
 */
export interface UncheckedPlan {
  kind: RemediationKind;
  target: WorkloadRef;
  patch: Patch | null;
  inverse?: Patch | null;
  replicaSet?: OldReplicaSetTarget;
  deviceTaint?: DeviceTaintTarget;
  pods?: PodRef[];
}

/** The member of the union whose kinds include K. */
type MemberFor<P, K> = P extends { kind: infer PK } ? (K extends PK ? P : never) : never;

/** The plan type of one kind (several kinds may share one: the workload patches). */
export type PlanOf<K extends RemediationKind> = MemberFor<RemediationPlan, K>;

/** Records a plan kind a builder weighed and did not offer, with why (Diagnosis.notOffered). */
export type NotOffered = (kind: RemediationKind, reason: string) => void;
