/**
 * Builds a WorkloadSnapshot from a live cluster with a fixed number of targeted
 * reads, independent of cluster size:
 *
 *   1. get the Deployment
 *   2. in parallel: list its ReplicaSets and Pods (label selector); list the
 *      namespace's events (all types: analyzers read Normal "Killing" events too;
 *      filtered to our objects' uids here, at most 3 pages of 500); list the nodes
 *      the template may select (label selector from nodeSelector / a single required
 *      affinity term, capped at 500) when the template constrains nodes or asks for
 *      something scarce; get the PVCs the template mounts
 *   3. in parallel: the nodes our pods are bound to and the eligible list missed (one
 *      `kubernetes.io/hostname in (...)` list); other workloads' pods on at most 2
 *      eligible nodes (fieldSelector spec.nodeName, only when a pod is Pending or the
 *      template asks for something scarce); previous-container log tails of crashing
 *      containers (limitBytes/tailLines, one per node and container, at most 4)
 *   4. only for a template with no node constraint and a Pending pod: the eligible
 *      nodes are listed (capped) in round 3, so their other pods come in a fourth.
 *
 * Incident A takes 6 requests over a chain of 3; incident B 5 plus one log tail.
 */
import type {
  Deployment,
  KubeEvent,
  Node,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
} from '../diagnosis/k8s.js';
import type { AccessProblem, WorkloadRef, WorkloadSnapshot } from '../diagnosis/snapshot.js';
import type { KubeClient } from './client.js';
import { KubeApiError, WorkloadNotFoundError } from './errors.js';
import { labelSelectorString } from './label-selector.js';
import { getObject, listObjects, type ListResult } from './list.js';
import { collectLogTails } from './log-tails.js';
import { asksForScarce, eligibleNodeSelector, nodesForOtherPods, podNodeNames } from './node-queries.js';
import { ownedBy, revisionOf } from './owner-references.js';
import { readBoundNodes, readPodsOnNodes } from './node-reads.js';
import { secondaryRead } from './secondary-read.js';

export interface CollectOptions {
  onProgress?: (step: string) => void;
  /** Bytes of previous-container log kept per crashing container (default 4096). */
  logBytes?: number;
}

/** More eligible nodes than this and the snapshot's node list is marked incomplete. */
export const MAX_ELIGIBLE_NODES = 500;
/** Nodes whose other pods we read when contention matters. */
export const MAX_OTHER_POD_NODES = 2;
/** Event pages of 500 per namespace; a busier namespace keeps the first 1,500 events. */
const EVENT_PAGE = 500;
const EVENT_PAGES = 3;

/**
 * Collects the snapshot of one Deployment.
 *
 * @throws WorkloadNotFoundError when the Deployment does not exist.
 * @throws KubeApiError (a ClusterError) when the Deployment itself cannot be read.
 */
export async function collectSnapshot(
  client: KubeClient,
  ref: WorkloadRef,
  options: CollectOptions = {},
): Promise<WorkloadSnapshot> {
  const progress = options.onProgress ?? (() => undefined);
  const namespace = ref.namespace;
  progress(`reading deployment ${namespace}/${ref.name}`);
  const deployment = await readDeployment(client, ref);
  const capturedAt = new Date().toISOString();
  const spec = deployment.spec.template.spec;
  const accessProblems: AccessProblem[] = [];
  const claimNames = (spec.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
  );
  const selector = labelSelectorString(deployment.spec.selector);
  const nodeSelector = eligibleNodeSelector(spec);
  const listEligible = (): Promise<ListResult<Node>> =>
    secondaryRead(accessProblems, { items: [] as Node[], truncated: true, requests: 0 }, () =>
      listObjects<Node>(
        client,
        { resource: 'nodes', query: { labelSelector: nodeSelector } },
        { limit: MAX_ELIGIBLE_NODES, maxPages: 1 },
      ),
    );
  // Known from the template alone: read the eligible nodes alongside the pods. Otherwise
  // only a Pending pod makes them worth reading (a later round).
  const eligibleEarly = nodeSelector !== undefined || asksForScarce(spec, claimNames);

  progress('reading replica sets, pods, events, eligible nodes and volumes');
  const [replicaSetList, podList, eventList, eligible, pvcs] = await Promise.all([
    secondaryRead(
      accessProblems,
      [] as ReplicaSet[],
      async () =>
        (
          await listObjects<ReplicaSet>(client, {
            resource: 'replicasets',
            namespace,
            query: { labelSelector: selector },
          })
        ).items,
    ),
    secondaryRead(
      accessProblems,
      [] as Pod[],
      async () =>
        (await listObjects<Pod>(client, { resource: 'pods', namespace, query: { labelSelector: selector } }))
          .items,
    ),
    secondaryRead(
      accessProblems,
      [] as KubeEvent[],
      async () =>
        (
          await listObjects<KubeEvent>(
            client,
            { resource: 'events', namespace },
            { limit: EVENT_PAGE, maxPages: EVENT_PAGES },
          )
        ).items,
    ),
    eligibleEarly ? listEligible() : Promise.resolve(undefined),
    Promise.all(
      claimNames.map((name) =>
        secondaryRead(accessProblems, undefined as PersistentVolumeClaim | undefined, async () => {
          try {
            return await getObject<PersistentVolumeClaim>(client, {
              resource: 'persistentvolumeclaims',
              namespace,
              name,
            });
          } catch (error) {
            if (error instanceof KubeApiError && error.status === 404) return undefined;
            throw error;
          }
        }),
      ),
    ),
  ]);

  const deploymentUid = deployment.metadata.uid ?? '';
  const replicaSets = replicaSetList
    .filter((rs) => ownedBy(rs, deploymentUid))
    .sort((a, b) => revisionOf(b) - revisionOf(a));
  const rsUids = new Set(replicaSets.map((rs) => rs.metadata.uid ?? ''));
  const pods = podList.filter((pod) =>
    (pod.metadata.ownerReferences ?? []).some((o) => o.controller && rsUids.has(o.uid)),
  );
  const podUids = new Set(pods.map((p) => p.metadata.uid ?? ''));
  const ours = new Set([deploymentUid, ...rsUids, ...podUids]);
  const events = eventList.filter(
    (e) => e.involvedObject.uid !== undefined && ours.has(e.involvedObject.uid),
  );
  const presentPvcs = pvcs.filter((p): p is PersistentVolumeClaim => p !== undefined);
  const rwoClaims = presentPvcs.filter((p) => (p.spec.accessModes ?? []).includes('ReadWriteOnce'));

  const pending = pods.some((p) => p.status?.phase === 'Pending' && !p.metadata.deletionTimestamp);
  const wantOthers =
    pending ||
    asksForScarce(
      spec,
      rwoClaims.map((p) => p.metadata.name ?? ''),
    );
  const podNodes = podNodeNames(pods);

  const others = (nodes: readonly Node[]): Promise<Pod[]> =>
    readPodsOnNodes(
      client,
      wantOthers ? nodesForOtherPods(nodes, spec, MAX_OTHER_POD_NODES) : [],
      accessProblems,
    );
  const earlyNames = new Set((eligible?.items ?? []).map((n) => n.metadata.name ?? ''));
  const lateEligible = eligible === undefined && pending;

  progress('reading nodes, neighbouring pods and crash logs');
  const [eligibleNodes, boundNodes, logs, earlyOthers] = await Promise.all([
    lateEligible ? listEligible() : Promise.resolve(eligible),
    readBoundNodes(
      client,
      podNodes.filter((n) => !earlyNames.has(n)),
      accessProblems,
    ),
    collectLogTails(client, pods, accessProblems, options.logBytes ?? 4096),
    eligible ? others(eligible.items) : Promise.resolve([]),
  ]);
  // Only an unconstrained template with a Pending pod needs a fourth round trip.
  const otherPodList = lateEligible && eligibleNodes ? await others(eligibleNodes.items) : earlyOthers;

  const nodes = mergeNodes(eligibleNodes?.items ?? [], boundNodes);
  const otherPods = otherPodList.filter((p) => !podUids.has(p.metadata.uid ?? ''));
  progress('snapshot complete');
  return {
    target: ref,
    capturedAt,
    deployment,
    replicaSets,
    pods,
    events,
    nodes,
    nodesComplete: eligibleNodes !== undefined && !eligibleNodes.truncated,
    pvcs: presentPvcs,
    otherPods,
    logs,
    accessProblems,
  };
}

async function readDeployment(client: KubeClient, ref: WorkloadRef): Promise<Deployment> {
  try {
    return await getObject<Deployment>(client, {
      resource: 'deployments',
      namespace: ref.namespace,
      name: ref.name,
    });
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404) {
      throw new WorkloadNotFoundError(`deployment "${ref.name}" not found in namespace "${ref.namespace}"`, [
        ref.namespace,
      ]);
    }
    throw error;
  }
}

function mergeNodes(a: readonly Node[], b: readonly Node[]): Node[] {
  const byName = new Map<string, Node>();
  for (const node of [...a, ...b]) byName.set(node.metadata.name ?? '', node);
  return [...byName.values()].sort((x, y) => (x.metadata.name ?? '').localeCompare(y.metadata.name ?? ''));
}
