import type { AnalysisRun } from '../k8s-argo.js';
import type { DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice } from '../k8s-dra.js';
import type {
  HorizontalPodAutoscaler,
  PodDisruptionBudget,
  LimitRange,
  PriorityClass,
  ResourceQuota,
} from '../k8s-policy.js';
import type { KubeEvent, Node, Pod } from '../k8s.js';
import type { PersistentVolume, PersistentVolumeClaim, StorageClass } from '../k8s-storage.js';
import type { WorkloadRef } from '../workload-ref.js';
import {
  hasObjectsOf,
  type ObjectOf,
  type ObjectsOf,
  type RevisionOf,
  type WorkloadObjectsOf,
} from '../workload-api.js';
import type { WORKLOAD_APIS } from '../workloads/kinds.js';
import { daemonSetApi } from '../workloads/daemonset/api.js';
import { deploymentApi } from '../workloads/deployment/api.js';
import { rolloutApi } from '../workloads/rollout/api.js';
import { statefulSetApi } from '../workloads/statefulset/api.js';

export type { WorkloadKind, WorkloadRef } from '../workload-ref.js';

/**
 * A read the collector could not make (403/401, or a non-retryable failure). The
 * analyzers turn these into findings that say which permission is missing instead of
 * pretending the object does not exist.
 */
export interface AccessProblem {
  verb: 'get' | 'list' | 'watch';
  resource: string; // plural resource name: "events", "nodes", "pods/log", ...
  namespace?: string; // absent for cluster-scoped resources
  status: number; // HTTP status (401, 403, 0 for connection errors)
  message: string;
}

/**
 * The workload object and the objects that hold its revisions, under fields of its kind
 * (`target.kind` says which), one member per kind of the registry (workloads/kinds.ts:
 * each kind's identity names its fields, `snapshot`). Analyzers do not read these: they
 * ask the kind's module (src/diagnosis/workloads/), which knows what the fields mean.
 * The revision objects are those owned by the workload (ownerReferences uid), newest first.
 */
export type WorkloadObjects = WorkloadObjectsOf<typeof WORKLOAD_APIS>;

/** `{ deployment; replicaSets }` */
export type DeploymentObjects = ObjectsOf<typeof deploymentApi>;
/** `{ statefulSet; controllerRevisions }` */
export type StatefulSetObjects = ObjectsOf<typeof statefulSetApi>;
/** `{ daemonSet; controllerRevisions }` */
export type DaemonSetObjects = ObjectsOf<typeof daemonSetApi>;
/** `{ rollout; replicaSets }` */
export type RolloutObjects = ObjectsOf<typeof rolloutApi>;

/** A Deployment's snapshot (its kind fields with everything a snapshot holds). */
export type DeploymentSnapshot = SnapshotCommon & DeploymentObjects;

/** The snapshot's kind fields are a Deployment's. */
export function isDeploymentObjects<T extends WorkloadObjects>(
  snapshot: T,
): snapshot is T & DeploymentObjects {
  return hasObjectsOf(deploymentApi, snapshot);
}

/** The snapshot's kind fields are a DaemonSet's. */
export function isDaemonSetObjects<T extends WorkloadObjects>(snapshot: T): snapshot is T & DaemonSetObjects {
  return hasObjectsOf(daemonSetApi, snapshot);
}

/** The snapshot's kind fields are a StatefulSet's. */
export function isStatefulSetObjects<T extends WorkloadObjects>(
  snapshot: T,
): snapshot is T & StatefulSetObjects {
  return hasObjectsOf(statefulSetApi, snapshot);
}

/** The snapshot's kind fields are an Argo Rollout's. */
export function isRolloutObjects<T extends WorkloadObjects>(snapshot: T): snapshot is T & RolloutObjects {
  return hasObjectsOf(rolloutApi, snapshot);
}

/** The workload object itself, of whichever kind (what every kind has: metadata, a pod template). */
export type WorkloadObject = ObjectOf<(typeof WORKLOAD_APIS)[number]>;
/** The objects that hold a workload's revisions: ReplicaSets, ControllerRevisions. */
export type RevisionObject = RevisionOf<(typeof WORKLOAD_APIS)[number]>;

/**
 * Everything the analyzers may look at for one workload, gathered by the live
 * collector (src/kube/read/collector.ts) or assembled from a dump
 * (src/diagnosis/snapshot/dump/assemble.ts). Analyzers are pure functions of this value.
 */
export type WorkloadSnapshot = SnapshotCommon & WorkloadObjects;

/** What a snapshot holds whatever the workload's kind. */
export interface SnapshotCommon {
  target: WorkloadRef;
  /** The instant the snapshot was taken (RFC 3339); analyzers use it as "now". */
  capturedAt: string;
  /** Pods of the workload (owned by its revisions). */
  pods: Pod[];
  /** Events whose involvedObject is the workload, one of its revision objects or pods. */
  events: KubeEvent[];
  /**
   * Nodes that matter: every node a pod of the workload runs or ran on, every
   * node the pod template could select (nodeSelector / required node affinity), and
   * every node a Pending pod of an older template could select.
   * When `nodesComplete` is false the collector capped the list (for example a
   * template that may go anywhere in a 5,000-node cluster): analyzers must not claim
   * "no node anywhere" from an incomplete list.
   */
  nodes: Node[];
  nodesComplete: boolean;
  /** PVCs mounted by the pod template, by claim name. */
  pvcs: PersistentVolumeClaim[];
  /**
   * Pods of other workloads on nodes the template may use, collected only when it
   * matters: a pod of ours is Pending, or the template asks for something scarce
   * (an extended resource, a hostPort, a ReadWriteOnce volume, a required hostname
   * anti-affinity). They hold some of what the new pod needs, so analyzers can tell
   * "held by our old pods" from "held by someone else", and predict whether one
   * more pod fits (RolloutAtRisk).
   */
  otherPods: Pod[];
  /**
   * Live pods of the workload's namespace that are not ours, on any node (what its
   * ResourceQuotas charge). Every one of them where `coverage.podsReadOn` is 'all'.
   */
  namespacePods?: Pod[];
  /**
   * Other workloads' pods waiting for a node (unbound, not terminating), of any
   * namespace read: they compete with ours for room the scheduler finds or a plan
   * frees (DESIGN.md §4e; forward/rivals.ts). Absent: not read.
   */
  pendingPods?: Pod[];
  /**
   * Pods the other workloads of the same checked change will create (check, several
   * objects applied at once): not admitted yet, they wait in the scheduler's queue with
   * ours, each through quota admission first (forward/rivals.ts). Absent: none.
   */
  changePods?: { pod: Pod; owner: string; perNode?: true }[];
  /**
   * Other Deployments read ("namespace/name"), whether each is paused and its replicas: a
   * paused neighbour mid-rollout gives its old pods back only once its newest ReplicaSet
   * holds every replica (forward/job-wait.ts). A dump's Deployments; live, those of
   * neighbours mid-rollout (kube/read/neighbour-deployments-read.ts). Absent: none read;
   * a Deployment missing from the list was not read.
   */
  neighbourDeployments?: { name: string; paused: boolean; replicas: number; deleting?: true }[];
  /**
   * The HorizontalPodAutoscalers of other Deployments ("namespace/name" of the target),
   * their minReplicas and maxReplicas: a neighbour's autoscaler may raise its replicas up
   * to its max at any sync and lowers a count above it at the next
   * (forward/scale-down-wait.ts). A dump's; live, those of the workload's namespace (the
   * guards' read). Absent: not read, and a neighbour's autoscaler is not known.
   */
  neighbourAutoscalers?: { target: string; min: number; max: number }[];
  /**
   * Argo Rollouts of the neighbour pods, as a dump holds them or as read for those
   * mid-rollout (kube/read/neighbour-deployments-read.ts): whether each one's update goes
   * on to its end by itself (workloads/rollout/neighbours.ts), so that its old ReplicaSets
   * are scaled down; its replicas, which its newest ReplicaSet must hold before that end;
   * and the ReplicaSet it keeps (status.currentPodHash: after a rollback to the stable one,
   * not the newest). Absent: none read; a Rollout missing from the list was not read.
   */
  neighbourRollouts?: {
    name: string;
    endsByItself: boolean;
    replicas: number;
    currentPodHash?: string;
    deleting?: true;
  }[];
  /**
   * Other controllers of the namespace a ResourceQuota refuses now (their latest
   * FailedCreate, none made since; base/quota-refusals.ts): they race ours for quota that
   * frees (forward/quota-race.ts). Absent: none.
   */
  quotaRefusals?: { object: string; quota: string }[];
  /** Previous-container log tails of crashing containers, keyed `pod/container`. */
  logs: Record<string, string>;
  /** Reads that failed for lack of permission; empty when everything was readable. */
  accessProblems: AccessProblem[];
  /** What was read completely, and what was not (forbidden, capped, absent from a dump). */
  coverage: Coverage;
  /**
   * Dynamic Resource Allocation objects, read when the template uses resource claims
   * or asks for an extended resource (which a DeviceClass may back). Absent: not read.
   */
  dra?: DraObjects;
  /**
   * Which version of resource.k8s.io serves DeviceTaintRule (discovery), asked only
   * when a pod reports a device Unhealthy; 'not-served' when none does. Absent: not
   * asked or not known (a dump, a failed discovery), and no taint-device plan is offered.
   */
  deviceTaintRules?: DeviceTaintApi;
  /**
   * The settings object of the workload's GitOps owner (the Argo CD Application, the
   * Flux Kustomization or HelmRelease), read where RBAC and the cluster allow: whether
   * the owner reverts a live change depends on it (self-heal, suspension, drift
   * detection). Absent: no owner with settings, or not asked.
   */
  ownerSettings?: OwnerSettingsRead;
  /**
   * The API server's gitVersion (/version), read only where a verdict depends on it (a
   * StatefulSet that sets maxUnavailable: the kind module's readsServerVersion). Absent:
   * not asked, not answered, or a dump.
   */
  serverVersion?: string;
  /**
   * The ResourceQuotas of the workload's namespace, as the API server holds them (hard
   * and used in their status). Absent: not read (a dump without them, a refused or
   * failed list; `coverage.gaps` says which), and then only a quota's own refusal of a
   * pod (its event) tells the verdicts about it: an unread quota is never counted as
   * refusing, nor as proof that nothing refuses.
   */
  resourceQuotas?: ResourceQuota[];
  /**
   * The LimitRanges of the workload's namespace (check reads them: their defaults fill a
   * template's missing requests before quota admission looks). Absent: not read.
   */
  limitRanges?: LimitRange[];
  /**
   * The cluster's PriorityClasses (scheduling/priority-class.ts: what priority a new
   * template's pods are admitted with). Absent: not read, and then a template's class is
   * resolved only from pods admitted under it.
   */
  priorityClasses?: PriorityClass[];
  /** check: PriorityClasses the checked change creates (a manifest among those checked). */
  createdPriorityClasses?: PriorityClass[];
  /** check: PriorityClasses of the change the API server refuses, and why (check/stored-classes.ts). */
  refusedPriorityClasses?: { name: string; why: string }[];
  /**
   * check: LimitRanges the checked change applies in the namespace (check/created-objects.ts):
   * their defaults and bounds hold for the new pods beside those read (`limitRanges`).
   */
  createdLimitRanges?: LimitRange[];
  /**
   * The ConfigMaps, Secrets and ServiceAccounts the same change creates in the namespace
   * (check/new-references.ts): a template may need them.
   */
  createdNames?: NamedObject[];
  /**
   * What guards the workload (DESIGN.md §4d), each read where RBAC allows.
   * Absent: not read (forbidden, failed, a dump without it: `coverage.gaps` says which),
   * and then unknown, never "none": a plan is not proved against a budget nobody read.
   */
  guards?: Guards;
}

/**
 * The objects that decide what a fix does to a workload. Each member is absent when it
 * was not read (a coverage gap names it), and an empty array when it was read and none
 * exists.
 */
export interface Guards {
  /** Every PodDisruptionBudget of the workload's namespace (matched to the pods by their selectors). */
  podDisruptionBudgets?: PodDisruptionBudget[];
  /** The HorizontalPodAutoscalers of the namespace that target the workload. */
  horizontalPodAutoscalers?: HorizontalPodAutoscaler[];
  /** The PersistentVolumes bound to the pods' claims. */
  persistentVolumes?: PersistentVolume[];
  /** The StorageClasses the pods' claims name. */
  storageClasses?: StorageClass[];
  /** An Argo Rollout's AnalysisRuns (owned by the Rollout). */
  analysisRuns?: AnalysisRun[];
}

/** Which member of `Guards` a coverage gap leaves open. */
export type GuardKind = keyof Guards;

/** The owner's settings object: which one, and whether it was read (coverage says why not). */
export interface OwnerSettingsRead {
  kind: 'Application' | 'Kustomization' | 'HelmRelease';
  /** "argoproj.io/v1alpha1", "kustomize.toolkit.fluxcd.io/v1", "helm.toolkit.fluxcd.io/v2". */
  apiVersion: string;
  /** "applications.argoproj.io": the resource RBAC and kubectl name. */
  resource: string;
  namespace: string;
  name: string;
  /**
   * read; forbidden (403/401); not-served (discovery: the cluster has no such CRD);
   * not-found (served, but no such object here: the owner may run in another cluster);
   * failed; not-in-dump.
   */
  state: 'read' | 'forbidden' | 'not-served' | 'not-found' | 'failed' | 'not-in-dump';
  /** The object as read (state 'read'). */
  object?: unknown;
  /**
   * A Flux owner's GitRepository (its spec.sourceRef, or its chart's), where it was read
   * with the owner (owner-settings-read.ts): the repository a pull request goes to.
   */
  source?: unknown;
  /** The read that settles it: "kubectl get applications.argoproj.io shop -n argocd -o yaml". */
  settle: string;
}

export type DeviceTaintApi = 'resource.k8s.io/v1' | 'resource.k8s.io/v1beta2' | 'not-served';

export interface DraObjects {
  /** Claims of every namespace when `coverage.dra.claims` is 'all', else of ours only. */
  claims: ResourceClaim[];
  templates: ResourceClaimTemplate[];
  slices: ResourceSlice[];
  classes: DeviceClass[];
}

/**
 * What was read of DRA. Devices are consumed by claims of any namespace, so device
 * occupancy is known only with `claims: 'all'`; 'namespace' (RBAC allows only ours)
 * or 'unread' leave it unknown, never free.
 */
export interface DraCoverage {
  claims: 'all' | 'namespace' | 'unread';
  slices: ReadState;
  classes: ReadState;
  templates: ReadState;
}

/** How much of one kind of object was read. */
export type ReadState = 'complete' | 'partial' | 'unread';

/**
 * What the snapshot saw (DESIGN.md §2: what was not read is unknown, never empty).
 * Analyzers consult it before treating a missing object as absent or a node as free.
 */
export interface Coverage {
  /** The workload's revision objects (a Deployment's ReplicaSets), its pods, and the events about them. */
  replicaSets: ReadState;
  pods: ReadState;
  events: ReadState;
  /** Node objects: every node the pods may use or run on, some of them (capped), or none. */
  nodes: ReadState;
  /**
   * Nodes whose pods of every workload were read, so their occupancy is known; 'all'
   * when pods were read cluster-wide. Elsewhere other workloads may hold anything.
   */
  podsReadOn: string[] | 'all';
  /**
   * Every live pod of the workload's namespace was read, on any node ('complete'), so
   * what its ResourceQuotas charge can be recounted even where other namespaces' pods
   * were not read. Absent: only as far as `podsReadOn` says.
   */
  namespacePods?: 'complete';
  /** Each read that was not made or not finished, and what would settle it. */
  gaps: CoverageGap[];
  /** DRA reads; absent when the snapshot did not need them (no claims, no extended resources). */
  dra?: DraCoverage;
}

export interface CoverageGap {
  /** Which part of the snapshot it leaves open. */
  about:
    | 'replicaSets'
    | 'pods'
    | 'events'
    | 'nodes'
    | 'neighbours'
    | 'pvcs'
    | 'dra'
    | 'owner'
    | 'quotas'
    | GuardKind;
  /** "nodes", "pods on gpu-node-3", "events in vision". */
  what: string;
  reason: 'forbidden' | 'capped' | 'not-in-dump' | 'failed' | 'not-served' | 'not-found';
  /** The read or grant that settles it: "kubectl get nodes -o yaml", "grant list on nodes". */
  settle: string;
}

/** Everything read: what tests and hand-built snapshots assume. */
export function fullCoverage(): Coverage {
  return {
    replicaSets: 'complete',
    pods: 'complete',
    events: 'complete',
    nodes: 'complete',
    podsReadOn: 'all',
    gaps: [],
    dra: { claims: 'all', slices: 'complete', classes: 'complete', templates: 'complete' },
  };
}

/** Every pod on the node was read: what is not in the snapshot does not hold anything there. */
export function occupancyKnown(coverage: Coverage, node: string): boolean {
  return coverage.podsReadOn === 'all' || coverage.podsReadOn.includes(node);
}

/** Every live pod of the workload's namespace was read: what its quotas charge is known. */
export function namespacePodsKnown(coverage: Coverage): boolean {
  return coverage.podsReadOn === 'all' || coverage.namespacePods === 'complete';
}

/**
 * The PersistentVolumeClaims the pods mount were read whole: each one asked for by name
 * (the collector's GET, where 404 proves it absent) or the namespace's list complete. A
 * refused or failed read, a capped list or a dump without the claims leaves one the
 * snapshot lacks unknown, never deleted.
 */
export function pvcsRead(snapshot: Pick<WorkloadSnapshot, 'accessProblems' | 'coverage'>): boolean {
  return (
    !snapshot.accessProblems.some((p) => p.resource === 'persistentvolumeclaims') &&
    !snapshot.coverage.gaps.some((g) => g.about === 'pvcs')
  );
}

export function logKey(pod: string, container: string): string {
  return `${pod}/${container}`;
}

/** An object a pod needs by name alone (check/new-references.ts): a ConfigMap, Secret or ServiceAccount. */
export interface NamedObject {
  kind: 'ConfigMap' | 'Secret' | 'ServiceAccount';
  name: string;
}
