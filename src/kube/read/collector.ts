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
 *      round 3 too (the exclusion's impact counts the nodes the template may use),
 *      with no fourth round: other pods are read where our healthy pods run.
 *   5. only where a neighbour Deployment is mid-rollout (its pods under two ReplicaSets):
 *      one GET per such Deployment, at most 8 (neighbour-deployments-read.ts), whether
 *      it is paused and its replicas.
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
 * Each step is a module of its own: the workload (workload-read.ts), what the template
 * asks for (template-plan.ts), round 2 (our-objects-read.ts) and what it says of our
 * pods (our-side.ts), rounds 3 and 4 (around-read.ts), and the coverage
 * (collect-coverage.ts); what the reads share is in collect-reads.ts.
 */
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import type { CoverageGap, WorkloadRef, WorkloadSnapshot } from '../../diagnosis/snapshot/types.js';
import { typeOfKind } from '../../diagnosis/workload-ref.js';
import { mountsClaims } from '../../diagnosis/guards/select-guards.js';
import type { KubeClient } from '../client.js';
import { readAround } from './around-read.js';
import { readClaims } from './claim-reads.js';
import { coverageOf } from './collect-coverage.js';
import { readsFor, type CollectOptions } from './collect-reads.js';
import { readGuards } from './guard-reads.js';
import { readNeighbourDeployments } from './neighbour-deployments-read.js';
import { readOurObjects } from './our-objects-read.js';
import { ourSideOf } from './our-side.js';
import { templatePlan } from './template-plan.js';
import { readWorkload } from './workload-read.js';

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
  const [around, { guards, neighbours: neighbourAutoscalers }] = await Promise.all([
    readAround(reads, plan, second, ours, options),
    guardsRead,
  ]);
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
      neighbours: [
        ...around.neighbours.pods,
        ...(second.pendingList?.items ?? []),
        ...(around.namespacePods ?? []),
      ],
      ...(around.dra?.dra ? { dra: around.dra.dra } : {}),
    },
    { capturedAt, coverage, logs: around.logs, accessProblems: reads.problems },
  );
  // A neighbour mid-rollout: whether it is paused decides whether its old pods go.
  const neighbours = await readNeighbourDeployments(reads, snapshot);
  const neighboursRead = Object.keys(neighbours).length > 0;
  progress('snapshot complete');
  return {
    ...snapshot,
    target: ref,
    ...(neighboursRead ? { ...neighbours, accessProblems: [...reads.problems] } : {}),
    ...(around.deviceTaintRules ? { deviceTaintRules: around.deviceTaintRules } : {}),
    ...(second.ownerSettings ? { ownerSettings: second.ownerSettings } : {}),
    ...(second.serverVersion ? { serverVersion: second.serverVersion } : {}),
    ...(second.resourceQuotas ? { resourceQuotas: second.resourceQuotas } : {}),
    ...(second.priorityClasses ? { priorityClasses: second.priorityClasses } : {}),
    guards,
    ...(neighbourAutoscalers ? { neighbourAutoscalers } : {}),
  };
}
