/**
 * `check` against the live cluster: each namespace is read once (its workloads of the
 * kinds the manifests name, their revisions, pods, events, claims and quotas), nodes
 * once, and the pods on the nodes a workload may use once per node, shared by every
 * workload (pod-reads.ts; past 50 nodes, one paged list of every pod instead). So the
 * request count grows with namespaces and nodes that matter, not with manifests.
 */
import type { KubeEvent, Pod } from '../diagnosis/k8s.js';
import type { LimitRange, PriorityClass, ResourceQuota } from '../diagnosis/k8s-policy.js';
import type { PersistentVolume, PersistentVolumeClaim } from '../diagnosis/k8s-storage.js';
import type {
  AccessProblem,
  CoverageGap,
  Guards,
  ReadState,
  RevisionObject,
  WorkloadObject,
} from '../diagnosis/snapshot/types.js';
import { WORKLOAD_KINDS, WORKLOAD_NAMES, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import type { KubeClient } from '../kube/client.js';
import { KubeApiError } from '../kube/errors.js';
import { listObjects } from '../kube/list.js';
import { readLimitRanges, readResourceQuotas } from '../kube/read/quota-read.js';
import { namespacedListState, type ListedKind } from '../kube/read/read-coverage.js';
import { draOfNamespace, readNodes } from '../kube/read/scan.js';
import { buildScanSnapshot, type NodeObjects } from '../kube/read/scan-snapshot.js';
import { secondaryRead } from '../kube/read/secondary-read.js';
import { withAllOccupants, type CheckSource, type LiveObject } from './source.js';
import { sampleable, sampleNodes } from './sampling.js';
import { occupancyCoverage, podReads } from './pod-reads.js';
import { Lru } from '../lru.js';
import { mountsClaims } from '../diagnosis/guards/select-guards.js';
import { readGrowth } from './growth/read.js';
import { namesClass, readPriorityClasses } from '../kube/read/priority-classes.js';
import type { NodeGrowth } from './growth/node-groups.js';

const PAGE = 500;

/** One namespace's lists, each read at most once, when first needed. */
interface NamespaceRead {
  workloads(kind: WorkloadKind): Promise<{ items: WorkloadObject[]; unknown?: string }>;
  revisions(resource: ListedKind): Promise<{ items: RevisionObject[]; state: ReadState }>;
  revisionsAsked(): ListedKind[];
  common: Promise<{
    pods: { items: Pod[]; state: ReadState };
    events: { items: KubeEvent[]; state: ReadState };
    pvcs: { items: PersistentVolumeClaim[]; state: ReadState };
    quotas?: ResourceQuota[];
    limitRanges?: LimitRange[];
  }>;
  gaps: CoverageGap[];
}

/** What a source read, so a fresh one can read the same before it is used (the webhook's next window). */
export interface ReadPlan {
  namespaces: { name: string; revisions: ListedKind[] }[];
  nodes: boolean;
  /** The PersistentVolumes were read (a template mounts claims). */
  volumes?: boolean;
  /** The PriorityClasses were read (a template names a class: kube/read/priority-classes.ts). */
  classes?: boolean;
  allPods: boolean;
  podsOnNodes: string[];
}

export interface LiveSource extends CheckSource {
  problems: AccessProblem[];
  /** What this source has read (or is reading). */
  plan(): ReadPlan;
  /** Reads what `plan` names; resolves when every read is done (failures included). */
  warm(plan: ReadPlan): Promise<void>;
  /**
   * The webhook's first read, before it is Ready: the nodes, the pods on them (every pod
   * past MAX_NODE_LISTS nodes, else each node's), and the namespaces where workloads of
   * the four kinds run pods, the busiest `maxNamespaces` first (their lists of check's
   * reads). So no review waits for a cold read of the nodes or of a namespace that has
   * workloads. Reads only what check reads (no list of namespaces: the pods name them).
   */
  warmStart(maxNamespaces: number, skip?: readonly string[]): Promise<void>;
  /** Whether this source has read (or is reading) the namespace. */
  holds(namespace: string): boolean;
}

export interface LiveSourceOptions {
  /**
   * At most this many namespaces' reads are kept, the least recently used forgotten
   * past it (`onEvict` told): the webhook's bound (cached-source.ts). Absent: all kept
   * (`check` reads the namespaces its manifests name, once).
   */
  maxNamespaces?: number;
  onEvict?: (namespace: string) => void;
}

export function liveSource(client: KubeClient, options: LiveSourceOptions = {}): LiveSource {
  const problems: AccessProblem[] = [];
  const namespaces = new Lru<string, NamespaceRead>(options.maxNamespaces ?? Number.MAX_SAFE_INTEGER, (ns) =>
    options.onEvict?.(ns),
  );
  let nodes: Promise<NodeObjects> | undefined;
  let volumes: Promise<VolumesRead> | undefined;
  let classes: Promise<PriorityClass[] | undefined> | undefined;
  let growth: Promise<NodeGrowth> | undefined;

  const namespace = (ns: string): NamespaceRead => {
    let read = namespaces.get(ns);
    if (!read) {
      read = readNamespace(client, ns, problems);
      namespaces.set(ns, read);
    }
    return read;
  };

  const occupants = podReads(client, problems);

  return {
    problems,
    plan: () => ({
      namespaces: namespaces.entries().map(([name, read]) => ({ name, revisions: read.revisionsAsked() })),
      nodes: nodes !== undefined,
      volumes: volumes !== undefined,
      classes: classes !== undefined,
      ...occupants.asked(),
    }),
    async warm(plan) {
      nodes ??= plan.nodes ? readNodes(client, problems) : undefined;
      volumes ??= plan.volumes ? readVolumes(client) : undefined;
      classes ??= plan.classes ? readPriorityClasses(client) : undefined;
      const reads: Promise<unknown>[] = [
        nodes ?? Promise.resolve(),
        volumes ?? Promise.resolve(),
        classes ?? Promise.resolve(),
        plan.allPods ? occupants.read([], true) : occupants.read(plan.podsOnNodes),
        ...plan.namespaces.flatMap(({ name, revisions }) => {
          const read = namespace(name);
          return [read.common, ...revisions.map((r) => read.revisions(r))];
        }),
      ];
      await Promise.allSettled(reads);
    },
    async warmStart(maxNamespaces, skip = []) {
      nodes ??= readNodes(client, problems);
      const names = (await nodes).items.map((n) => n.metadata.name ?? '');
      const { pods } = await occupants.read(names);
      const busiest = workloadNamespaces(pods, skip).slice(0, maxNamespaces);
      const revisions = [...new Set(WORKLOAD_KINDS.map((k) => workloadKind(k).revisionObjects.resource))];
      await Promise.allSettled(
        busiest.flatMap((name) => {
          const read = namespace(name);
          return [read.common, ...revisions.map((r) => read.revisions(r))];
        }),
      );
    },
    holds: (ns) => namespaces.has(ns),
    growth() {
      growth ??= (nodes ??= readNodes(client, problems)).then((read) => readGrowth(client, read.items));
      return growth;
    },
    async live(kind, ns, name): Promise<LiveObject> {
      const read = await namespace(ns).workloads(kind);
      if (read.unknown) return { unknown: read.unknown };
      const object = read.items.find((o) => o.metadata.name === name);
      return object ? { object } : {};
    },
    async snapshot(kind, candidate, options = {}) {
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
      // The PersistentVolumes the new pods' claims may be bound to: a volume's node affinity pins them.
      const pinned = mountsClaims(module.podTemplate(candidate).spec, candidate)
        ? await (volumes ??= readVolumes(client))
        : undefined;
      const priorityClasses = namesClass(module.podTemplate(candidate).spec)
        ? await (classes ??= readPriorityClasses(client))
        : undefined;
      const built = buildScanSnapshot(kind, candidate, objects, nodeList, empty, problems, draParts);
      const whole = pinned ? withVolumes(built, pinned) : built;
      const sampled = options.sample === true && sampleable(whole, common.quotas?.length);
      const first = sampled ? { ...whole, nodes: sampleNodes(whole) } : whole;
      const names = first.nodes.map((n) => n.metadata.name ?? '');
      const { pods, readOn } = await occupants.read(names);
      const snapshot = { ...first, coverage: occupancyCoverage(first.coverage, names, readOn) };
      return {
        snapshot: {
          ...withAllOccupants(snapshot, pods),
          ...(common.quotas ? { resourceQuotas: common.quotas } : {}),
          ...(common.limitRanges ? { limitRanges: common.limitRanges } : {}),
          ...(priorityClasses ? { priorityClasses } : {}),
        },
        sampled,
      };
    },
  };
}

/** Every PersistentVolume (cluster-scoped, one paged list per source), or why not. */
type VolumesRead = { items: PersistentVolume[] } | { gap: CoverageGap };

async function readVolumes(client: KubeClient): Promise<VolumesRead> {
  const gap = (reason: CoverageGap['reason']): VolumesRead => ({
    gap: {
      about: 'persistentVolumes',
      what: 'PersistentVolumes (cluster-wide)',
      reason,
      settle:
        reason === 'forbidden'
          ? 'grant list on persistentvolumes (cluster-wide)'
          : 'kubectl get persistentvolumes -o yaml',
    },
  });
  try {
    const list = await listObjects<PersistentVolume>(
      client,
      { resource: 'persistentvolumes' },
      { limit: PAGE, maxPages: 20 },
    );
    return list.truncated ? gap('capped') : { items: list.items };
  } catch (error) {
    if (!(error instanceof KubeApiError)) throw error;
    return gap(error.isAccessDenied ? 'forbidden' : 'failed');
  }
}

/** The snapshot with the volumes read (guards.persistentVolumes), or the gap that says they were not. */
function withVolumes<S extends { guards?: Guards; coverage: { gaps: CoverageGap[] } }>(
  snapshot: S,
  read: VolumesRead,
): S {
  if ('gap' in read)
    return { ...snapshot, coverage: { ...snapshot.coverage, gaps: [...snapshot.coverage.gaps, read.gap] } };
  return { ...snapshot, guards: { ...snapshot.guards, persistentVolumes: read.items } };
}

/** Namespaces of pods a workload controller owns, the most pods first. */
function workloadNamespaces(pods: readonly Pod[], skip: readonly string[]): string[] {
  const owners = new Set(['ReplicaSet', 'StatefulSet', 'DaemonSet']);
  const counts = new Map<string, number>();
  for (const pod of pods) {
    const ns = pod.metadata.namespace;
    if (!ns || skip.includes(ns)) continue;
    if (!(pod.metadata.ownerReferences ?? []).some((o) => o.controller && owners.has(o.kind))) continue;
    counts.set(ns, (counts.get(ns) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([ns]) => ns);
}

function readNamespace(client: KubeClient, namespace: string, problems: AccessProblem[]): NamespaceRead {
  const gaps: CoverageGap[] = [];
  const list = async <T>(resource: ListedKind): Promise<{ items: T[]; state: ReadState }> => {
    const read = await secondaryRead(problems, undefined, () =>
      listObjects<T>(client, { resource, namespace }, { limit: PAGE, maxPages: 20 }),
    );
    return { items: read?.items ?? [], state: namespacedListState(read, resource, namespace, gaps) };
  };
  const once = <K, V>(make: (key: K) => Promise<V>): ((key: K) => Promise<V>) & { keys: () => K[] } => {
    const made = new Map<K, Promise<V>>();
    const get = (key: K): Promise<V> => {
      let value = made.get(key);
      if (!value) {
        value = make(key);
        made.set(key, value);
      }
      return value;
    };
    return Object.assign(get, { keys: () => [...made.keys()] });
  };
  const revisions = once((resource: ListedKind) => list<RevisionObject>(resource));
  const common = Promise.all([
    list<Pod>('pods'),
    list<KubeEvent>('events'),
    list<PersistentVolumeClaim>('persistentvolumeclaims'),
    readResourceQuotas(client, namespace, gaps),
    readLimitRanges(client, namespace, gaps),
  ]).then(([pods, events, pvcs, quotas, limitRanges]) => ({
    pods,
    events,
    pvcs,
    ...(quotas ? { quotas } : {}),
    ...(limitRanges ? { limitRanges } : {}),
  }));
  return {
    workloads: once((kind: WorkloadKind) => listWorkloads(client, kind, namespace)),
    revisions,
    revisionsAsked: () => revisions.keys(),
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
