/**
 * Builds a WorkloadSnapshot from a live cluster with a fixed number of targeted
 * reads, independent of cluster size:
 *
 *   1. get the workload (a Deployment; its kind module says what else: workloads/)
 *   2. in parallel: list its revision objects (a Deployment's ReplicaSets) and Pods (label selector); list the
 *      namespace's events (all types: analyzers read Normal "Killing" events too;
 *      filtered to our objects' uids here, at most 3 pages of 500); list the nodes
 *      the template may select (label selector from nodeSelector / a single required
 *      affinity term, capped at 500) when the template constrains nodes or asks for
 *      something scarce, and always for a DaemonSet (the nodes it should run on, with a
 *      pod of ours or not); get the PVCs the template mounts; list the namespace's
 *      ResourceQuotas (quota-read.ts: optional and quiet); the API server's version
 *      (/version) only for a StatefulSet that sets maxUnavailable (server-version.ts)
 *   3. in parallel: the nodes our pods are bound to and the eligible list missed (one
 *      `kubernetes.io/hostname in (...)` list; after the eligible list when that is read
 *      in this round, and not at all when it held them); other workloads' pods on every node
 *      eligible for the pods as admitted (fieldSelector spec.nodeName, in parallel, at
 *      most MAX_NEIGHBOUR_NODES, only when a pod is Pending or the template asks for
 *      something scarce; for a crash loop that may be node-local, on the nodes that
 *      stay eligible once the crashing ones are excluded, so the exclude-node plan
 *      knows the room left); previous-container log tails of crashing
 *      containers (limitBytes/tailLines, one per node and container, at most 4)
 *      The nodes a Pending pod of an older template selects (its ReplicaSet recreated
 *      an evicted pod) when the template's selector may not list them: one list per
 *      distinct selection, at most 3, in round 3 (their other pods are not read).
 *   4. only for a template with no node constraint and a Pending pod: the eligible
 *      nodes are listed (capped) in round 3, so their other pods come in a fourth.
 *      With no constraint and a crash loop that may be node-local, they are listed in
 *      round 3 too (the exclusion's impact counts the nodes the template may use, issue
 *      29.7), with no fourth round: other pods are read where our healthy pods run.
 *
 * What guards the workload (guard-reads.ts) is read in round 2 as well: the namespace's
 * PodDisruptionBudgets and HorizontalPodAutoscalers (always), the StorageClasses (when the
 * pods mount claims), an Argo Rollout's AnalysisRuns; the PersistentVolumes follow their
 * claims (a GET by volumeName, claim-reads.ts lists a StatefulSet's per-pod claims) and
 * come back while round 3 runs, so no round is added.
 * Incident A takes 10 requests over a chain of 3 (7 before the quota, budget and
 * autoscaler lists); incident B 9 (its nodes come in the list of every node) plus one log
 * tail and one pod list per node its healthy pods run on (node-a, node-c): 12, still a
 * chain of 3.
 * DRA (dra-reads.ts): a template with resource claims adds 4 lists to round 2
 * (claims of every namespace, slices, classes, the namespace's claim templates), 5
 * when the cluster-wide claim list is refused; one with an extended resource adds the
 * DeviceClass list to round 2 and, only when a class backs the resource, the other 3
 * to round 3. Claim and slice lists grow by a page per 500 objects (at most 4 and 2).
 * The settings object of the workload's GitOps owner (the Argo CD Application, the
 * Flux Kustomization or HelmRelease: owner-settings-read.ts) is read in round 2 too:
 * its group-version's discovery (once per process and TTL) and one GET, optional.
 * What could not be read (forbidden, capped) is recorded in the snapshot's coverage,
 * and the objects are chosen by selectWorkload, as for scan and dumps.
 */
import type {
  KubeEvent,
  Node,
  PersistentVolumeClaim,
  Pod,
  PodSpec,
  ResourceQuota,
} from '../../diagnosis/k8s.js';
import { readResourceQuotas } from './quota-read.js';
import { admittedSpec } from '../../diagnosis/workloads/admitted-spec.js';
import { isEligible } from '../../diagnosis/base/node-match.js';
import { claimNames } from '../../diagnosis/base/pod-constraints.js';
import {
  asksForScarce,
  neighboursMatter,
  outgrowsOwnPods,
  runsBesideOld,
} from '../../diagnosis/base/scarce.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import { crashNodesOf, type CrashNodes } from '../../diagnosis/base/crash-nodes.js';
import {
  fullCoverage,
  type AccessProblem,
  type Coverage,
  type CoverageGap,
  type DeviceTaintApi,
  type OwnerSettingsRead,
  type ReadState,
  type RevisionObject,
  type WorkloadObject,
  type WorkloadRef,
  type WorkloadSnapshot,
} from '../../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, typeOfKind } from '../../diagnosis/workload-ref.js';
import { resolveWorkloadRef } from './rollout-crd.js';
import { kindServed, notServedSentence } from './kind-served.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import { isUnscheduled } from '../../diagnosis/base/pods.js';
import type { KubeClient } from '../client.js';
import { closestNames } from '../../text/closest-names.js';
import { KubeApiError, WorkloadNotFoundError } from '../errors.js';
import { labelSelectorString } from '../label-selector.js';
import { getObject, listObjects, type ListResult } from '../list.js';
import { collectLogTails } from './log-tails.js';
import {
  eligibleNodeSelector,
  nodesForOtherPods,
  olderPendingSelections,
  boundNodeNames,
} from './node-queries.js';
import { MAX_BOUND_NODES, readBoundNodes, readPodsOnNodes } from './node-reads.js';
import { readServerVersion } from './server-version.js';
import { namespacedListState, neighboursGap, nodeListState } from './read-coverage.js';
import { secondaryRead } from './secondary-read.js';
import { discoverDeviceTaintRules, reportsUnhealthyDevice } from './device-taint-api.js';
import { backsExtendedResource, readDeviceClasses, readDra, usesClaims } from './dra-reads.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import { detectOwner } from '../../diagnosis/ownership.js';
import { ownerGap } from '../../diagnosis/owner-target.js';
import { readOwnerSettings } from './owner-settings-read.js';
import { readClaims, type ClaimsRead } from './claim-reads.js';
import { readGuards } from './guard-reads.js';
import { mountsClaims } from '../../diagnosis/guards/select-guards.js';

export interface CollectOptions {
  onProgress?: (step: string) => void;
  /** Bytes of previous-container log kept per crashing container (default 4096). */
  logBytes?: number;
  /** Where Argo CD Applications live when the tracking id names no namespace (default argocd). */
  argocdNamespace?: string;
}

/** More eligible nodes than this and the snapshot's node list is marked incomplete. */
export const MAX_ELIGIBLE_NODES = 500;
/**
 * Eligible nodes whose pods (every namespace) are read, in parallel, when other
 * workloads matter. Past this the rest are recorded as not read: their occupancy is
 * unknown, never free.
 */
export const MAX_NEIGHBOUR_NODES = 50;
/** Our own pods per page, and pages: 20,000 pods at most. */
const OUR_PODS_PAGE = 10_000;
const OUR_PODS_PAGES = 2;
/** Node selections of older templates' Pending pods listed besides the template's. */
const MAX_OLDER_SELECTIONS = 3;
/** Event pages of 500 per namespace; a busier namespace keeps the first 1,500 events. */
const EVENT_PAGE = 500;
const EVENT_PAGES = 3;

/**
 * Collects the snapshot of one workload, in the rounds the module comment lists.
 *
 * @throws WorkloadNotFoundError when the workload does not exist.
 * @throws KubeApiError (a ClusterError) when the workload itself cannot be read.
 */
export async function collectSnapshot(
  client: KubeClient,
  ref: WorkloadRef,
  options: CollectOptions = {},
): Promise<WorkloadSnapshot> {
  const progress = options.onProgress ?? (() => undefined);
  progress(`reading ${typeOfKind(ref.kind)} ${ref.namespace}/${ref.name}`);
  const object = await readWorkload(client, ref);
  const capturedAt = new Date().toISOString();
  const reads = readsFor(client, ref.namespace);
  const plan = templatePlan(ref, object);
  progress('reading replica sets, pods, events, eligible nodes, volumes and what guards them');
  const claims = readClaims(client, ref.namespace, object, plan.template, reads.problems, reads.gaps);
  // Round 2 too; the volumes follow their claims and come back during round 3.
  const guardGaps: CoverageGap[] = [];
  const guardsRead = readGuards(client, ref, object, mountsClaims(plan.template, object), claims, guardGaps);
  // Awaited below; an earlier read that throws must not leave it unhandled.
  guardsRead.catch(() => undefined);
  const second = await readOurObjects(reads, ref, object, plan, options, claims);
  const ours = ourSideOf(ref, object, plan, second, capturedAt);
  progress('reading nodes, neighbouring pods and crash logs');
  const [around, guards] = await Promise.all([readAround(reads, plan, second, ours, options), guardsRead]);
  reads.gaps.push(...guardGaps);
  const coverage = coverageOf(reads, ref, plan, second, ours, around);
  const snapshot = selectWorkload(
    ref.kind,
    object,
    {
      revisions: second.revisionList?.items ?? [],
      pods: second.podList?.items ?? [],
      events: second.eventList?.items ?? [],
      pvcs: second.pvcs,
      nodes: [
        ...(around.eligibleList?.items ?? []),
        ...around.olderLists.flatMap((l) => l?.items ?? []),
        ...around.boundNodes,
      ],
      neighbours: [...around.neighbours.pods, ...(second.pendingList?.items ?? [])],
      ...(around.dra?.dra ? { dra: around.dra.dra } : {}),
    },
    { capturedAt, coverage, logs: around.logs, accessProblems: reads.problems },
  );
  progress('snapshot complete');
  return {
    ...snapshot,
    target: ref,
    ...(around.deviceTaintRules ? { deviceTaintRules: around.deviceTaintRules } : {}),
    ...(second.ownerSettings ? { ownerSettings: second.ownerSettings } : {}),
    ...(second.serverVersion ? { serverVersion: second.serverVersion } : {}),
    ...(second.resourceQuotas ? { resourceQuotas: second.resourceQuotas } : {}),
    guards,
  };
}

/** The client and what every read of one collection records: refusals and gaps, in order. */
interface Reads {
  client: KubeClient;
  namespace: string;
  problems: AccessProblem[];
  gaps: CoverageGap[];
  /** A secondary read: a refusal becomes an access problem, not a failed diagnosis. */
  optional<T>(read: () => Promise<T>): Promise<T | undefined>;
  /** Nodes by label selector, capped at MAX_ELIGIBLE_NODES. */
  listNodes(labelSelector: string | undefined): Promise<ListResult<Node> | undefined>;
}

function readsFor(client: KubeClient, namespace: string): Reads {
  const problems: AccessProblem[] = [];
  const optional = <T>(read: () => Promise<T>): Promise<T | undefined> =>
    secondaryRead(problems, undefined as T | undefined, read);
  return {
    client,
    namespace,
    problems,
    gaps: [],
    optional,
    listNodes: (labelSelector) =>
      optional(() =>
        listObjects<Node>(
          client,
          { resource: 'nodes', query: { labelSelector } },
          { limit: MAX_ELIGIBLE_NODES, maxPages: 1 },
        ),
      ),
  };
}

/** What the pod template alone says the collection needs. */
interface TemplatePlan {
  template: PodSpec;
  /** The pods' label selector, as a query string. */
  selector: string;
  /** The eligible nodes' label selector, when the template narrows them. */
  nodeSelector: string | undefined;
  /**
   * Known from the template alone: read the eligible nodes alongside the pods. Otherwise
   * only a Pending pod makes them worth reading (a later round). Webhooks only add
   * constraints, so the template's selector lists a superset of the eligible nodes.
   */
  eligibleEarly: boolean;
}

function templatePlan(ref: WorkloadRef, object: WorkloadObject): TemplatePlan {
  const kind = workloadKind(ref.kind);
  const template = kind.podTemplate(object).spec;
  const nodeSelector = eligibleNodeSelector(template);
  return {
    template,
    selector: labelSelectorString(kind.selector(object)),
    nodeSelector,
    // A DaemonSet should run on every node its template selects: those with no pod of
    // ours (deleted, refused, never scheduled) are part of its rollout too.
    eligibleEarly:
      nodeSelector !== undefined ||
      asksForScarce(template, claimNames(template)) ||
      kind.strategy(object).per === 'node',
  };
}

/** Round 2's reads: the workload's revision objects, pods, events, volumes, early nodes, DRA, owner. */
interface OurObjects {
  revisionList?: ListResult<RevisionObject>;
  podList?: ListResult<Pod>;
  eventList?: ListResult<KubeEvent>;
  early?: ListResult<Node>;
  pvcs: PersistentVolumeClaim[];
  draReads?: Awaited<ReturnType<typeof readDra>> | Awaited<ReturnType<typeof readDeviceClasses>>;
  ownerSettings?: OwnerSettingsRead;
  serverVersion?: string;
  resourceQuotas?: ResourceQuota[];
  /** Other workloads' pods waiting for a node, every namespace (forward/rivals.ts). */
  pendingList?: ListResult<Pod>;
}

/** Pods waiting for a node, cluster-wide, at most this many (one page). */
const PENDING_PAGE = 500;

async function readOurObjects(
  reads: Reads,
  ref: WorkloadRef,
  object: WorkloadObject,
  plan: TemplatePlan,
  options: CollectOptions,
  claims: Promise<ClaimsRead>,
): Promise<OurObjects> {
  const { client, namespace, problems, gaps, optional } = reads;
  const { template, selector } = plan;
  const owner = detectOwner({
    group: WORKLOAD_NAMES[ref.kind].group,
    kind: ref.kind,
    metadata: object.metadata,
  });
  const asksVersion = workloadKind(ref.kind).readsServerVersion?.(object) === true;
  const [
    revisionList,
    podList,
    eventList,
    early,
    pvcList,
    draReads,
    ownerSettings,
    serverVersion,
    quotas,
    pendingList,
  ] = await Promise.all([
    optional(() =>
      listObjects<RevisionObject>(client, {
        resource: workloadKind(ref.kind).revisionObjects.resource,
        namespace,
        query: { labelSelector: selector },
      }),
    ),
    // Paged and bounded: a DaemonSet on 5,000 nodes has 5,000 pods (one page); past
    // OUR_PODS_PAGE × OUR_PODS_PAGES the pods are 'partial' and the gap says so.
    optional(() =>
      listObjects<Pod>(
        client,
        { resource: 'pods', namespace, query: { labelSelector: selector } },
        { limit: OUR_PODS_PAGE, maxPages: OUR_PODS_PAGES },
      ),
    ),
    optional(() =>
      listObjects<KubeEvent>(
        client,
        { resource: 'events', namespace },
        { limit: EVENT_PAGE, maxPages: EVENT_PAGES },
      ),
    ),
    plan.eligibleEarly ? reads.listNodes(plan.nodeSelector) : Promise.resolve(undefined),
    claims,
    usesClaims(template)
      ? readDra(client, namespace, template, problems, gaps)
      : extendedResources(template).length > 0
        ? readDeviceClasses(client, problems)
        : Promise.resolve(undefined),
    readOwnerSettings(client, owner, { argocdNamespace: options.argocdNamespace }),
    asksVersion ? readServerVersion(client) : Promise.resolve(undefined),
    readResourceQuotas(client, namespace, gaps),
    // Pods of any workload waiting for a node compete with ours for room: one list by
    // the apiserver's nodeName index (unbound pods only), not a read of every pod.
    optional(() =>
      listObjects<Pod>(
        client,
        { resource: 'pods', query: { fieldSelector: 'spec.nodeName=' } },
        { limit: PENDING_PAGE, maxPages: 1 },
      ),
    ),
  ]);
  if (pendingList?.truncated)
    gaps.push({
      about: 'neighbours',
      what: `pods waiting for a node past the first ${pendingList.items.length}`,
      reason: 'capped',
      settle: 'kubectl get pods -A --field-selector spec.nodeName= -o yaml, and diagnose from the dump',
    });
  const ownerSettingsGap = ownerSettings ? ownerGap(ownerSettings) : undefined;
  if (ownerSettingsGap) gaps.push(ownerSettingsGap);
  return {
    ...(revisionList ? { revisionList } : {}),
    ...(podList ? { podList } : {}),
    ...(eventList ? { eventList } : {}),
    ...(early ? { early } : {}),
    pvcs: pvcList.claims,
    ...(draReads ? { draReads } : {}),
    ...(ownerSettings ? { ownerSettings } : {}),
    ...(serverVersion ? { serverVersion } : {}),
    ...(quotas ? { resourceQuotas: quotas } : {}),
    ...(pendingList ? { pendingList } : {}),
  };
}

/** Our side of the snapshot, and what it says the next round must read. */
interface OurSide {
  pods: Pod[];
  /** The pods' spec as admitted (admitted-spec.ts). */
  spec: PodSpec;
  /** Other workloads' pods matter: something scarce, or a pod waits for room. */
  scarce: boolean;
  /** A crash loop that may be node-local (its exclusion's room needs the staying nodes' pods). */
  crashNodes?: CrashNodes;
  /**
   * No node constraint in the template, and a Pending pod or a template that asks for
   * more than a pod of ours holds (outgrowsOwnPods): the eligible nodes are listed now.
   */
  lateEligible: boolean;
  /**
   * No node constraint in the template, and a crash loop that may be node-local: the
   * eligible nodes are listed in round 3 too, so the exclusion's impact counts the nodes
   * the template may use (their other pods are read only where our healthy pods run).
   */
  crashListing: boolean;
  /** Node selections of Pending pods of older templates the template's selector may not list. */
  older: (string | undefined)[];
}

function ourSideOf(
  ref: WorkloadRef,
  object: WorkloadObject,
  plan: TemplatePlan,
  second: OurObjects,
  capturedAt: string,
): OurSide {
  // Ours, chosen by the same function the dump and scan paths use.
  const ourSide = selectWorkload(
    ref.kind,
    object,
    {
      revisions: second.revisionList?.items ?? [],
      pods: second.podList?.items ?? [],
      events: [],
      pvcs: second.pvcs,
      nodes: [],
      neighbours: [],
    },
    { capturedAt, coverage: fullCoverage() },
  );
  const pods = ourSide.pods;
  const { spec } = admittedSpec(ourSide);
  const strategy = workloadKind(ref.kind).strategy(object);
  const scarce = neighboursMatter(spec, pods, second.pvcs, strategy);
  // A crash loop that may be node-local: the exclude-node plan counts the room left on
  // the nodes that stay eligible, so their other pods are read too (not the crashing ones').
  const crashNodes = scarce ? undefined : crashNodesOf(pods, workloadKind(ref.kind).revisionLabel);
  return {
    pods,
    spec,
    scarce,
    ...(crashNodes ? { crashNodes } : {}),
    lateEligible:
      !plan.eligibleEarly &&
      (pods.some(isUnscheduled) || outgrowsOwnPods(spec, pods) || runsBesideOld(strategy)),
    crashListing: !plan.eligibleEarly && !pods.some(isUnscheduled) && crashNodes !== undefined,
    // A Pending pod of an older template may select nodes the template's selector does not list.
    older: olderPendingSelections(
      pods,
      new Set(workloadKind(ref.kind).revisions(ourSide).current?.pods ?? []),
      plan.nodeSelector,
    ),
  };
}

/** Rounds 3 and 4: the nodes, other workloads' pods on them, crash logs, late DRA, taint discovery. */
interface Around {
  eligibleList?: ListResult<Node>;
  olderLists: (ListResult<Node> | undefined)[];
  boundNodes: Node[];
  logs: Record<string, string>;
  neighbours: { pods: Pod[]; readOn: string[] };
  dra?: Awaited<ReturnType<typeof readDra>>;
  deviceTaintRules?: DeviceTaintApi;
}

async function readAround(
  reads: Reads,
  plan: TemplatePlan,
  second: OurObjects,
  ours: OurSide,
  options: CollectOptions,
): Promise<Around> {
  const { client, namespace, problems, gaps } = reads;
  const { template } = plan;
  const { pods } = ours;
  // Extended resources a DeviceClass backs come through DRA: read claims and slices now.
  const draReads = second.draReads;
  const classList = draReads && 'items' in draReads ? draReads : undefined;
  if (classList?.truncated && !backsExtendedResource(template, classList.items)) {
    // A class past the cap may back the extended resource: then it comes through DRA.
    gaps.push({
      about: 'dra',
      what: `DeviceClasses past the first ${classList.items.length} (one may serve ${extendedResources(template).join(', ')} through DRA)`,
      reason: 'capped',
      settle: 'kubectl get deviceclasses -o yaml, and diagnose from the dump',
    });
  }
  const neighboursOn = (list: ListResult<Node> | undefined): Promise<{ pods: Pod[]; readOn: string[] }> =>
    readNeighbours(reads, list, ours);
  const eligibleRead =
    ours.lateEligible || ours.crashListing
      ? reads.listNodes(plan.nodeSelector)
      : Promise.resolve(second.early);
  // The nodes our pods are bound to that the eligible list did not bring. When that list
  // is read now (an unconstrained template), the bound nodes wait for it: it usually
  // holds them all, and a node read twice is a request spent for nothing.
  const boundRead = eligibleRead.then((list) => {
    const listed = new Set((list?.items ?? []).map((n) => n.metadata.name ?? ''));
    return readBoundNodes(
      client,
      boundNodeNames(pods).filter((n) => !listed.has(n)),
      problems,
    );
  });
  const [eligibleList, olderLists, boundNodes, logs, earlyNeighbours, lateDra, deviceTaintRules] =
    await Promise.all([
      eligibleRead,
      Promise.all(ours.older.slice(0, MAX_OLDER_SELECTIONS).map(reads.listNodes)),
      boundRead,
      collectLogTails(client, pods, problems, options.logBytes ?? 4096),
      plan.eligibleEarly || ours.crashNodes
        ? neighboursOn(second.early)
        : Promise.resolve({ pods: [], readOn: [] }),
      classList && backsExtendedResource(template, classList.items)
        ? readDra(client, namespace, template, problems, gaps, classList)
        : Promise.resolve(undefined),
      // A device reported Unhealthy: whether a DeviceTaintRule can be offered (discovery).
      reportsUnhealthyDevice(pods) ? discoverDeviceTaintRules(client) : Promise.resolve(undefined),
    ]);
  const dra = lateDra ?? (draReads && !('items' in draReads) ? draReads : undefined);
  // Only an unconstrained template with a Pending pod needs a fourth round trip.
  const neighbours = ours.lateEligible ? await neighboursOn(eligibleList) : earlyNeighbours;
  return {
    ...(eligibleList ? { eligibleList } : {}),
    olderLists,
    boundNodes,
    logs,
    neighbours,
    ...(dra ? { dra } : {}),
    ...(deviceTaintRules ? { deviceTaintRules } : {}),
  };
}

/** Other workloads' pods on the nodes that matter (neighbourCandidates), at most MAX_NEIGHBOUR_NODES. */
async function readNeighbours(
  reads: Reads,
  list: ListResult<Node> | undefined,
  ours: OurSide,
): Promise<{ pods: Pod[]; readOn: string[] }> {
  const candidates = neighbourCandidates(list, ours.spec, ours.scarce, ours.crashNodes);
  if (!candidates) return { pods: [], readOn: [] };
  const names = candidates.names.slice(0, MAX_NEIGHBOUR_NODES);
  if (candidates.names.length > names.length) {
    reads.gaps.push(
      neighboursGap(
        candidates.names.length - names.length,
        candidates.names.length,
        `only ${MAX_NEIGHBOUR_NODES} nodes' pods are read; narrow the node selection, or diagnose a dump from kubectl get pods -A -o yaml`,
      ),
    );
  }
  return readPodsOnNodes(reads.client, names, reads.problems);
}

/** What was read completely and what was not, each gap once, in the order the reads found them. */
function coverageOf(
  reads: Reads,
  ref: WorkloadRef,
  plan: TemplatePlan,
  second: OurObjects,
  ours: OurSide,
  around: Around,
): Coverage {
  const { namespace, gaps } = reads;
  const eligibleRead = plan.eligibleEarly || ours.lateEligible || ours.crashListing;
  return {
    replicaSets: namespacedListState(
      second.revisionList,
      workloadKind(ref.kind).revisionObjects.resource,
      namespace,
      gaps,
    ),
    pods: namespacedListState(second.podList, 'pods', namespace, gaps),
    events: namespacedListState(second.eventList, 'events', namespace, gaps),
    nodes: olderNodesState(
      nodesState(eligibleRead, around.eligibleList, around.boundNodes, boundNodeNames(ours.pods), gaps),
      ours.older,
      around.olderLists,
      gaps,
    ),
    podsReadOn: around.neighbours.readOn,
    gaps,
    ...(around.dra?.coverage ? { dra: around.dra.coverage } : {}),
  };
}

/**
 * The nodes whose other pods to read, best first (the caller caps them): every node
 * eligible for the pods as admitted when the template asks for something scarce or a
 * pod waits for room; for a crash loop that may be node-local, the nodes that stay
 * eligible once the crashing ones are excluded (those our pods run on first, then
 * the rest of the eligible list when it was read). Undefined: none matter, or the
 * eligible nodes were not listed.
 */
function neighbourCandidates(
  list: ListResult<Node> | undefined,
  spec: PodSpec,
  scarce: boolean,
  crash: CrashNodes | undefined,
): { names: string[] } | undefined {
  const eligible = list?.items.filter((n) => isEligible(n, spec));
  if (scarce) return eligible ? { names: nodesForOtherPods(eligible, spec, eligible.length) } : undefined;
  if (!crash) return undefined;
  const excluded = new Set(crash.crashing);
  const listed = nodesForOtherPods(eligible ?? [], spec, eligible?.length ?? 0);
  const names = [...new Set([...crash.staying, ...listed])].filter((n) => !excluded.has(n));
  return { names };
}

function nodesState(
  eligibleRead: boolean,
  eligible: ListResult<Node> | undefined,
  bound: readonly Node[],
  boundNames: readonly string[],
  gaps: CoverageGap[],
): ReadState {
  const gotBound = new Set([...(eligible?.items ?? []), ...bound].map((n) => n.metadata.name ?? ''));
  const early = new Set((eligible?.items ?? []).map((n) => n.metadata.name ?? ''));
  // Past MAX_BOUND_NODES (readBoundNodes): not asked for, not failed.
  const asked = new Set(boundNames.filter((n) => !early.has(n)).slice(0, MAX_BOUND_NODES));
  const capped = boundNames.filter((n) => !gotBound.has(n) && !early.has(n) && !asked.has(n));
  const missingBound = boundNames.filter((n) => !gotBound.has(n) && !capped.includes(n));
  if (capped.length > 0) {
    gaps.push({
      about: 'nodes',
      what: `${capped.length} node(s) our pods run on past the first ${MAX_BOUND_NODES} read (${capped.slice(0, 3).join(', ')}${capped.length > 3 ? ', …' : ''}; their pods are Running and Ready)`,
      reason: 'capped',
      settle: 'kubectl get nodes -o yaml and the workload, and diagnose from the dump',
    });
  }
  if (eligibleRead && !eligible) {
    const state = nodeListState(eligible, gaps);
    return gotBound.size > 0 ? 'partial' : state;
  }
  if (eligible?.truncated) return nodeListState(eligible, gaps);
  if (capped.length > 0 && missingBound.length === 0) return 'partial';
  if (missingBound.length > 0) {
    gaps.push({
      about: 'nodes',
      what: `nodes ${missingBound.slice(0, 3).join(', ')}`,
      reason: 'failed',
      settle: `kubectl get node ${missingBound[0]} -o yaml`,
    });
    return 'partial';
  }
  return eligible ? 'complete' : 'partial';
}

/**
 * The node lists of older templates' Pending pods (olderPendingSelections): a refused or
 * capped one, or selections past MAX_OLDER_SELECTIONS, leave those pods' nodes partly
 * unread, never "no node matches".
 */
function olderNodesState(
  state: ReadState,
  selections: readonly (string | undefined)[],
  lists: readonly (ListResult<Node> | undefined)[],
  gaps: CoverageGap[],
): ReadState {
  const unread = selections.flatMap((selection, i) => {
    const list = lists[i];
    if (list && !list.truncated) return [];
    const reason: CoverageGap['reason'] = i >= lists.length || list ? 'capped' : 'forbidden';
    return [{ selection, reason }];
  });
  const [first] = unread;
  if (!first) return state;
  const named = unread.map((u) => (u.selection === undefined ? 'every node' : `nodes ${u.selection}`));
  gaps.push({
    about: 'nodes',
    what: `${named.slice(0, 3).join('; ')} (selected by Pending pods of an older template)`,
    reason: first.reason,
    settle: `kubectl get nodes${first.selection !== undefined ? ` -l '${first.selection}'` : ''} -o yaml`,
  });
  return state === 'unread' ? state : 'partial';
}

async function readWorkload(client: KubeClient, ref: WorkloadRef): Promise<WorkloadObject> {
  const { resource } = WORKLOAD_NAMES[ref.kind];
  let object: WorkloadObject;
  try {
    object = await getObject<WorkloadObject>(client, { resource, namespace: ref.namespace, name: ref.name });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      // A cluster without the kind's CRD (Argo Rollouts) 404s every object: say that, not "not found".
      if ((await kindServed(client, WORKLOAD_NAMES[ref.kind])) === false) {
        const sentence = notServedSentence(WORKLOAD_NAMES[ref.kind]);
        throw new WorkloadNotFoundError(sentence, [ref.namespace], [], typeOfKind(ref.kind));
      }
      throw new WorkloadNotFoundError(
        `${typeOfKind(ref.kind)} "${ref.name}" not found in namespace "${ref.namespace}"`,
        [ref.namespace],
        await nearbyNames(client, ref),
        typeOfKind(ref.kind),
      );
    }
    throw error;
  }
  return resolveWorkloadRef(client, workloadKind(ref.kind), object);
}

/**
 * Workloads of the kind and namespace whose names are close to the one asked for (a
 * typo in a slash command). One list, a few hundred names at most; a refused or failed
 * list gives no suggestion rather than another error.
 */
async function nearbyNames(client: KubeClient, ref: WorkloadRef): Promise<string[]> {
  try {
    const list = await listObjects<WorkloadObject>(
      client,
      { resource: WORKLOAD_NAMES[ref.kind].resource, namespace: ref.namespace },
      { limit: 500, maxPages: 1 },
    );
    return closestNames(
      ref.name,
      list.items.map((d) => d.metadata.name ?? '').filter((n) => n !== ''),
    );
  } catch {
    return [];
  }
}
