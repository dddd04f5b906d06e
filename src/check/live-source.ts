/**
 * `check` against the live cluster: each namespace is read once (its workloads of the
 * kinds the manifests name, their revisions, pods, events, claims and quotas), nodes
 * once, and the pods on the nodes a workload may use once per node, shared by every
 * workload (past MAX_NODE_LISTS nodes, one paged list of every pod instead). So the
 * request count grows with namespaces and nodes that matter, not with manifests.
 */
import type { KubeEvent, PersistentVolumeClaim, Pod, ResourceQuota } from '../diagnosis/k8s.js';
import type {
  AccessProblem,
  CoverageGap,
  ReadState,
  RevisionObject,
  WorkloadObject,
  WorkloadSnapshot,
} from '../diagnosis/snapshot/types.js';
import { WORKLOAD_NAMES, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import type { KubeClient } from '../kube/client.js';
import { KubeApiError } from '../kube/errors.js';
import { listObjects } from '../kube/list.js';
import { readPodsOnNodes } from '../kube/read/node-reads.js';
import { readResourceQuotas } from '../kube/read/quota-read.js';
import { namespacedListState, type ListedKind } from '../kube/read/read-coverage.js';
import { draOfNamespace, readNodes } from '../kube/read/scan.js';
import { buildScanSnapshot, type NodeObjects } from '../kube/read/scan-snapshot.js';
import { secondaryRead } from '../kube/read/secondary-read.js';
import { withAllOccupants, type CheckSource, type LiveObject } from './source.js';

/** Nodes whose pods are read one list each; past this, one paged list of every pod. */
const MAX_NODE_LISTS = 50;
const PAGE = 500;
const MAX_PAGES = 200;

/** One namespace's lists, each read at most once, when first needed. */
interface NamespaceRead {
  workloads(kind: WorkloadKind): Promise<{ items: WorkloadObject[]; unknown?: string }>;
  revisions(resource: ListedKind): Promise<{ items: RevisionObject[]; state: ReadState }>;
  common: Promise<{
    pods: { items: Pod[]; state: ReadState };
    events: { items: KubeEvent[]; state: ReadState };
    pvcs: { items: PersistentVolumeClaim[]; state: ReadState };
    quotas?: ResourceQuota[];
  }>;
  gaps: CoverageGap[];
}

export function liveSource(client: KubeClient): CheckSource & { problems: AccessProblem[] } {
  const problems: AccessProblem[] = [];
  const namespaces = new Map<string, NamespaceRead>();
  const podsOnNode = new Map<string, Promise<Pod[] | undefined>>();
  let nodes: Promise<NodeObjects> | undefined;
  let allPods: Promise<Pod[] | undefined> | undefined;

  const namespace = (ns: string): NamespaceRead => {
    let read = namespaces.get(ns);
    if (!read) {
      read = readNamespace(client, ns, problems);
      namespaces.set(ns, read);
    }
    return read;
  };

  /** Pods on `names`, and where they were read. */
  const occupants = async (names: string[]): Promise<{ pods: Pod[]; readOn: string[] | 'all' }> => {
    if (names.length > MAX_NODE_LISTS || allPods) {
      allPods ??= secondaryRead(problems, undefined, async () => {
        const list = await listObjects<Pod>(
          client,
          { resource: 'pods', query: { fieldSelector: 'status.phase!=Succeeded,status.phase!=Failed' } },
          { limit: PAGE, maxPages: MAX_PAGES },
        );
        return list.truncated ? undefined : list.items;
      });
      const pods = await allPods;
      return pods ? { pods, readOn: 'all' } : { pods: [], readOn: [] };
    }
    const lists = await Promise.all(
      names.map((name) => {
        let pending = podsOnNode.get(name);
        if (!pending) {
          pending = readPodsOnNodes(client, [name], problems).then((r) =>
            r.readOn.length > 0 ? r.pods : undefined,
          );
          podsOnNode.set(name, pending);
        }
        return pending;
      }),
    );
    return { pods: lists.flatMap((l) => l ?? []), readOn: names.filter((_, i) => lists[i] !== undefined) };
  };

  return {
    problems,
    async live(kind, ns, name): Promise<LiveObject> {
      const read = await namespace(ns).workloads(kind);
      if (read.unknown) return { unknown: read.unknown };
      const object = read.items.find((o) => o.metadata.name === name);
      return object ? { object } : {};
    },
    async snapshot(kind, candidate): Promise<WorkloadSnapshot> {
      const ns = candidate.metadata.namespace ?? 'default';
      const read = namespace(ns);
      nodes ??= readNodes(client, problems);
      const nodeList = await nodes;
      const module = workloadKind(kind);
      const [revisions, common] = await Promise.all([
        read.revisions(module.revisionObjects.resource),
        read.common,
      ]);
      const objects = {
        revisions: revisions.items,
        pods: common.pods.items,
        events: common.events.items,
        pvcs: common.pvcs.items,
        states: { replicaSets: revisions.state, pods: common.pods.state, events: common.events.state },
        gaps: read.gaps,
      };
      const dra = await draOfNamespace(client, kind, ns, [candidate], problems);
      const draParts = {
        ...(dra?.dra ? { objects: dra.dra } : {}),
        ...(dra?.coverage ? { coverage: dra.coverage } : {}),
      };
      const empty = { pods: [], readOn: [], gaps: [] };
      const first = buildScanSnapshot(kind, candidate, objects, nodeList, empty, problems, draParts);
      const names = first.nodes.map((n) => n.metadata.name ?? '');
      const { pods, readOn } = await occupants(names);
      const unread = readOn === 'all' ? 0 : names.length - readOn.length;
      const gaps: CoverageGap[] =
        unread > 0
          ? [
              {
                about: 'neighbours',
                what: `pods on ${unread} of ${names.length} nodes`,
                reason: 'forbidden',
                settle: 'grant list on pods (cluster-wide)',
              },
            ]
          : [];
      const snapshot = buildScanSnapshot(
        kind,
        candidate,
        objects,
        nodeList,
        { pods, readOn: readOn === 'all' ? names : readOn, gaps },
        problems,
        draParts,
      );
      return {
        ...withAllOccupants(snapshot, pods),
        ...(common.quotas ? { resourceQuotas: common.quotas } : {}),
      };
    },
  };
}

function readNamespace(client: KubeClient, namespace: string, problems: AccessProblem[]): NamespaceRead {
  const gaps: CoverageGap[] = [];
  const list = async <T>(resource: ListedKind): Promise<{ items: T[]; state: ReadState }> => {
    const read = await secondaryRead(problems, undefined, () =>
      listObjects<T>(client, { resource, namespace }, { limit: PAGE, maxPages: 20 }),
    );
    return { items: read?.items ?? [], state: namespacedListState(read, resource, namespace, gaps) };
  };
  const once = <K, V>(make: (key: K) => Promise<V>): ((key: K) => Promise<V>) => {
    const made = new Map<K, Promise<V>>();
    return (key) => {
      let value = made.get(key);
      if (!value) {
        value = make(key);
        made.set(key, value);
      }
      return value;
    };
  };
  const common = Promise.all([
    list<Pod>('pods'),
    list<KubeEvent>('events'),
    list<PersistentVolumeClaim>('persistentvolumeclaims'),
    readResourceQuotas(client, namespace, gaps),
  ]).then(([pods, events, pvcs, quotas]) => ({ pods, events, pvcs, ...(quotas ? { quotas } : {}) }));
  return {
    workloads: once((kind: WorkloadKind) => listWorkloads(client, kind, namespace)),
    revisions: once((resource: ListedKind) => list<RevisionObject>(resource)),
    common,
    gaps,
  };
}

/**
 * The workloads of one kind in the namespace. The manifests' own kinds must be
 * readable: a refusal is the cluster's answer (exit 3), except for a kind the cluster
 * does not serve (Argo Rollouts not installed), which leaves those objects unknown.
 */
async function listWorkloads(
  client: KubeClient,
  kind: WorkloadKind,
  namespace: string,
): Promise<{ items: WorkloadObject[]; unknown?: string }> {
  try {
    const list = await listObjects<WorkloadObject>(
      client,
      { resource: WORKLOAD_NAMES[kind].resource, namespace },
      { limit: PAGE, maxPages: 20 },
    );
    return list.truncated
      ? {
          items: list.items,
          unknown: `more ${WORKLOAD_NAMES[kind].resource} in ${namespace} than one read holds`,
        }
      : { items: list.items };
  } catch (error) {
    if (error instanceof KubeApiError && error.status === 404 && WORKLOAD_NAMES[kind].crd)
      return {
        items: [],
        unknown: `this cluster serves no ${WORKLOAD_NAMES[kind].resource}.${WORKLOAD_NAMES[kind].group} (${WORKLOAD_NAMES[kind].title} is not installed)`,
      };
    throw error;
  }
}
