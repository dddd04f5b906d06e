/**
 * Rounds 3 and 4 of a collection (collector.ts): the eligible nodes (listed late when
 * only a Pending pod or a node-local crash loop makes them matter), the nodes of older
 * templates' Pending pods, the nodes our pods are bound to that no list brought, other
 * workloads' pods on the nodes that matter (at most MAX_NEIGHBOUR_NODES), previous-
 * container log tails, DRA objects an extended resource needs, and DeviceTaintRule
 * discovery.
 */
import type { Node, Pod, PodSpec } from '../../diagnosis/k8s.js';
import type { CrashNodes } from '../../diagnosis/base/crash-nodes.js';
import { isEligible } from '../../diagnosis/base/node-match.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import type { DeviceTaintApi } from '../../diagnosis/snapshot/types.js';
import { listObjects, type ListResult } from '../list.js';
import type { CollectOptions, Reads } from './collect-reads.js';
import { discoverDeviceTaintRules, reportsUnhealthyDevice } from './device-taint-api.js';
import { backsExtendedResource, readDra } from './dra-reads.js';
import { collectLogTails } from './log-tails.js';
import { boundNodeNames, nodesForOtherPods } from './node-queries.js';
import { readBoundNodes, readPodsOnNodes } from './node-reads.js';
import type { OurObjects } from './our-objects-read.js';
import type { OurSide } from './our-side.js';
import { neighboursGap } from './read-coverage.js';
import type { TemplatePlan } from './template-plan.js';

/**
 * Eligible nodes whose pods (every namespace) are read, in parallel, when other
 * workloads matter. Past this the rest are recorded as not read: their occupancy is
 * unknown, never free.
 */
const MAX_NEIGHBOUR_NODES = 50;
/**
 * The namespace's pods, read whole when it has a ResourceQuota (what the quota charges,
 * on any node): one list, past this many pods left unread (the quota then counts as
 * its refusal said).
 */
const NAMESPACE_PODS_PAGE = 2_000;
/** Node selections of older templates' Pending pods listed besides the template's. */
const MAX_OLDER_SELECTIONS = 3;

/** Rounds 3 and 4: the nodes, other workloads' pods on them, crash logs, late DRA, taint discovery. */
export interface Around {
  eligibleList?: ListResult<Node>;
  olderLists: (ListResult<Node> | undefined)[];
  boundNodes: Node[];
  logs: Record<string, string>;
  neighbours: { pods: Pod[]; readOn: string[] };
  /** Every pod of the namespace, when it has a quota and one page held them all. */
  namespacePods?: Pod[];
  dra?: Awaited<ReturnType<typeof readDra>>;
  deviceTaintRules?: DeviceTaintApi;
}

export async function readAround(
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
  const [
    eligibleList,
    olderLists,
    boundNodes,
    logs,
    earlyNeighbours,
    lateDra,
    deviceTaintRules,
    inNamespace,
  ] = await Promise.all([
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
    (second.resourceQuotas ?? []).length > 0
      ? reads.optional(() =>
          listObjects<Pod>(
            client,
            { resource: 'pods', namespace },
            { limit: NAMESPACE_PODS_PAGE, maxPages: 1 },
          ),
        )
      : Promise.resolve(undefined),
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
    ...(inNamespace && !inNamespace.truncated ? { namespacePods: inNamespace.items } : {}),
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
