/**
 * `scan`: finds workloads (Deployments) that are stuck or at risk of a surge deadlock
 * (DESIGN.md §1 D) in a namespace or the whole cluster. Each kind of the registry is
 * listed in pages; for each page only the "interesting" ones (rollout unfinished, or a
 * template asking for something scarce) are diagnosed, on cheap snapshots built from
 * per-namespace lists, so the request count grows with pages and namespaces, not
 * workloads.
 */
import type { KubeEvent, Node, Pod } from '../../diagnosis/k8s.js';
import type { PersistentVolumeClaim } from '../../diagnosis/k8s-storage.js';
import { analyze } from '../../diagnosis/analyzers/analyze.js';
import type { Finding } from '../../diagnosis/finding.js';
import type { FindingWords } from '../../diagnosis/finding-words.js';
import { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { deviceClassesMatter } from '../../diagnosis/dra/class-relevance.js';
import type { AccessProblem, RevisionObject, WorkloadObject } from '../../diagnosis/snapshot/types.js';
import {
  DEFAULT_WORKLOAD_KIND,
  WORKLOAD_KINDS,
  WORKLOAD_NAMES,
  typeOfKind,
  type WorkloadKind,
} from '../../diagnosis/workload-ref.js';
import { workloadKind } from '../../diagnosis/workloads/index.js';
import type { KubeClient } from '../client.js';
import { KubeApiError } from '../errors.js';
import { listObjects } from '../list.js';
import { resolveWorkloadRef } from './rollout-crd.js';
import { kindServed } from './kind-served.js';
import { backsExtendedResource, readDeviceClasses, readDra, usesClaims, type DraReads } from './dra-reads.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import { admittedSpec } from '../../diagnosis/workloads/admitted-spec.js';
import { isEligible } from '../../diagnosis/base/node-match.js';
import { asksForScarce, neighboursMatter } from '../../diagnosis/base/scarce.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import { fullCoverage, type CoverageGap, type ReadState } from '../../diagnosis/snapshot/types.js';
import { nodesForOtherPods } from './node-queries.js';
import { readPodsOnNodes } from './node-reads.js';
import { namespacedListState, neighboursGap, nodeListState } from './read-coverage.js';
import { buildScanSnapshot, type NamespaceObjects, type NodeObjects } from './scan-snapshot.js';
import { secondaryRead } from './secondary-read.js';
import { readNeighbourDeployments, type NeighbourReads } from './neighbour-deployments-read.js';
import { liveExclusionOf, scanExclusion, type ScanExclusion } from './exclusion-reads.js';

export interface ScanEntry {
  kind: WorkloadKind;
  namespace: string;
  name: string;
  /**
   * stuck: rollout unfinished with a finding; at-risk: only a prediction; problems: other
   * findings; paused: nothing but a pause, which waits for a person (not a problem, as
   * `diagnose` exits 0 for it, but never left out as if finished).
   */
  state: 'stuck' | 'at-risk' | 'problems' | 'paused';
  rollout: string;
  findings: { code: string; severity: string; summary: string; says?: FindingWords }[];
}

export interface ScanReport {
  scope: { namespace?: string; allNamespaces: boolean };
  scanned: number;
  diagnosed: number;
  entries: ScanEntry[];
  /** Node list capped: at-risk predictions may miss capacity elsewhere. */
  nodesComplete: boolean;
  accessProblems: AccessProblem[];
  /**
   * Kinds the cluster does not serve (Argo Rollouts where its CRD is not installed):
   * said once, not an access problem; none of that kind exist to scan.
   */
  notServed?: WorkloadKind[];
  /** The node exclusions rollout-doctor set on the workloads scanned, with their age and end. */
  exclusions?: ScanExclusion[];
}

export interface ScanOptions {
  namespace?: string;
  allNamespaces?: boolean;
  pageSize?: number;
  onProgress?: (done: number, total?: number) => void;
  /** The clock an exclusion's age and end are told by; absent: this machine's. */
  now?: () => number;
}

const NODE_PAGE = 500;
const NODE_PAGES = 20;
/** Nodes whose pods a whole scan may read to predict contention. */
const MAX_NODE_POD_LISTS = 50;

/** What one scan gathers as it goes: read once and shared by every workload of the scan. */
interface ScanState {
  client: KubeClient;
  accessProblems: AccessProblem[];
  entries: ScanEntry[];
  nodes?: Promise<NodeObjects>;
  podsOnNode: Map<string, Promise<Pod[] | undefined>>;
  /** Neighbour Deployments and Rollouts read once per scan, whichever workload asks first. */
  neighbourObjects: NeighbourReads;
  scanned: number;
  diagnosed: number;
  /** A refused DeviceClass list is news only when some workload's verdict could depend on it. */
  classesMattered: boolean;
  notServed: WorkloadKind[];
  exclusions: ScanExclusion[];
}

/**
 * @example
 * const report = await scanCluster(client, { allNamespaces: true });
 * for (const e of report.entries) console.log(e.state, `${e.namespace}/${e.name}`);
 */
export async function scanCluster(client: KubeClient, options: ScanOptions): Promise<ScanReport> {
  const namespace = options.allNamespaces ? undefined : (options.namespace ?? 'default');
  const scan: ScanState = {
    client,
    accessProblems: [],
    entries: [],
    podsOnNode: new Map(),
    neighbourObjects: new Map(),
    scanned: 0,
    diagnosed: 0,
    classesMattered: false,
    notServed: [],
    exclusions: [],
  };
  for (const kind of WORKLOAD_KINDS) await scanKind(scan, kind, namespace, options);
  const nodeList = scan.nodes ? await scan.nodes : { state: 'complete' };
  return {
    scope: { ...(namespace !== undefined ? { namespace } : {}), allNamespaces: namespace === undefined },
    scanned: scan.scanned,
    diagnosed: scan.diagnosed,
    entries: scan.entries,
    nodesComplete: nodeList.state === 'complete',
    accessProblems: scan.classesMattered
      ? scan.accessProblems
      : scan.accessProblems.filter((p) => p.resource !== 'deviceclasses'),
    ...(scan.notServed.length > 0 ? { notServed: scan.notServed } : {}),
    exclusions: scan.exclusions,
  };
}

interface WorkloadPage {
  items?: WorkloadObject[] | null;
  metadata?: { continue?: string; remainingItemCount?: number };
}

/** Lists the workloads of one kind page by page and diagnoses the interesting ones of each page. */
async function scanKind(
  scan: ScanState,
  kind: WorkloadKind,
  namespace: string | undefined,
  options: ScanOptions,
): Promise<void> {
  let token: string | undefined;
  do {
    const list = (): Promise<WorkloadPage> =>
      scan.client.call<WorkloadPage>({
        verb: 'list',
        resource: WORKLOAD_NAMES[kind].resource,
        namespace,
        query: { limit: options.pageSize ?? 250, continue: token },
      });
    // Deployments are the scan's own right: without it the scan fails and says so. A kind
    // granted later (a worker upgraded before its RBAC) is reported unread and skipped.
    const page =
      kind === DEFAULT_WORKLOAD_KIND
        ? await list()
        : WORKLOAD_NAMES[kind].crd
          ? await listServed(scan, kind, list)
          : await secondaryRead(scan.accessProblems, undefined, list);
    if (!page) return;
    token = page.metadata?.continue || undefined;
    const items = (await Promise.all((page.items ?? []).map((o) => withTemplate(scan, kind, o)))).filter(
      (o): o is WorkloadObject => o !== undefined,
    );
    scan.scanned += items.length;
    const now = (options.now ?? Date.now)();
    for (const object of items) {
      const live = liveExclusionOf(kind, object);
      if (live) scan.exclusions.push(scanExclusion(live, now));
    }
    const remaining = page.metadata?.remainingItemCount;
    const interesting = items.filter((object) => isInteresting(kind, object));
    if (interesting.length > 0) {
      scan.nodes ??= readNodes(scan.client, scan.accessProblems);
      const nodeList = await scan.nodes;
      const byNamespace = groupBy(interesting, (d) => d.metadata.namespace ?? '');
      for (const [ns, objects] of byNamespace) await scanNamespace(scan, kind, ns, objects, nodeList);
    }
    options.onProgress?.(
      scan.scanned,
      remaining !== undefined ? scan.scanned + remaining : token ? undefined : scan.scanned,
    );
  } while (token);
}

/**
 * A kind served only where its CRD is installed (Argo Rollouts), where the cluster
 * serves it: a 404 with discovery saying no is noted once as not served, not an access
 * problem.
 */
async function listServed(
  scan: ScanState,
  kind: WorkloadKind,
  list: () => Promise<WorkloadPage>,
): Promise<WorkloadPage | undefined> {
  try {
    return await list();
  } catch (error) {
    if (
      error instanceof KubeApiError &&
      error.status === 404 &&
      (await kindServed(scan.client, WORKLOAD_NAMES[kind])) === false
    ) {
      scan.notServed.push(kind);
      return undefined;
    }
    return secondaryRead(scan.accessProblems, undefined, () => Promise.reject(error));
  }
}

/** The scan entry of a workload whose pod template could not be read (a Rollout's workloadRef): IncompleteEvidence, not judged. */
export function unjudgedWorkload(
  kind: WorkloadKind,
  object: WorkloadObject,
  why: string,
): ScanReport['entries'][number] {
  return {
    kind,
    namespace: object.metadata.namespace ?? '',
    name: object.metadata.name ?? '',
    state: 'problems',
    rollout: workloadKind(kind).rolloutStatus(object).progress.message,
    findings: [
      {
        code: 'IncompleteEvidence',
        severity: 'warning',
        summary: `Its pod template was not read, so it was not judged: ${why}`,
      },
    ],
  };
}

/**
 * A workload whose kind takes its template from another object (a Rollout's
 * workloadRef), its template filled in from that object. One whose template cannot be
 * read is not judged on an empty one: it is listed as IncompleteEvidence saying why, and
 * left out of the diagnosis.
 */
async function withTemplate(
  scan: ScanState,
  kind: WorkloadKind,
  object: WorkloadObject,
): Promise<WorkloadObject | undefined> {
  const module = workloadKind(kind);
  if (!module.templateRef?.named(object)) return object;
  try {
    return await resolveWorkloadRef(scan.client, module, object);
  } catch (error) {
    scan.scanned += 1;
    scan.entries.push(unjudgedWorkload(kind, object, error instanceof Error ? error.message : String(error)));
    return undefined;
  }
}

/** Diagnoses (findings only) the interesting workloads of one namespace on snapshots cut from its lists. */
async function scanNamespace(
  scan: ScanState,
  kind: WorkloadKind,
  ns: string,
  workloads: readonly WorkloadObject[],
  nodeList: NodeObjects,
): Promise<void> {
  const { client, accessProblems } = scan;
  const objects = await readNamespace(client, kind, ns, workloads, accessProblems);
  const dra = await draOfNamespace(client, kind, ns, workloads, accessProblems);
  for (const object of workloads) {
    const neighbours = await podsOnEligibleNodes(
      client,
      kind,
      object,
      objects,
      nodeList,
      scan.podsOnNode,
      accessProblems,
    );
    const cut = buildScanSnapshot(kind, object, objects, nodeList, neighbours, accessProblems, {
      ...(dra?.dra ? { objects: dra.dra } : {}),
      ...(dra?.coverage ? { coverage: dra.coverage } : {}),
    });
    const optional = <T>(read: () => Promise<T>): Promise<T | undefined> =>
      secondaryRead(accessProblems, undefined as T | undefined, read);
    const snapshot = {
      ...cut,
      ...(await readNeighbourDeployments({ client, optional }, cut, scan.neighbourObjects)),
    };
    // Findings only: a scan lists verdicts and builds no plans it would throw away.
    const diagnosis = analyze(snapshot);
    scan.diagnosed += 1;
    if (!scan.classesMattered && accessProblems.some((p) => p.resource === 'deviceclasses'))
      scan.classesMattered = deviceClassesMatter(new AnalysisContext(snapshot));
    const entry = scanEntry(kind, object, ns, diagnosis.findings);
    if (entry) scan.entries.push(entry);
  }
}

/**
 * The scan's line for one analysed workload, or undefined when nothing needs attention:
 * nothing found, an AccessDenied alone (reported once, in `accessProblems`), or only
 * what is no problem (info: a preemption under way), as `diagnose` exits 0 for those; a
 * pause alone (info RolloutPaused: it waits for a person) is an entry of its own state.
 * Shared with `scan --from-file`.
 */
export function scanEntry(
  kind: WorkloadKind,
  object: WorkloadObject,
  namespace: string,
  found: readonly Pick<Finding, 'code' | 'severity' | 'summary' | 'says'>[],
): ScanEntry | undefined {
  // `says`: the summary's facts for a reader of another language; the JSON leaves it out (commands/scan.ts).
  const findings = found
    .filter((f) => f.code !== 'AccessDenied')
    .map((f) => ({
      code: f.code,
      severity: f.severity,
      summary: f.summary,
      ...(f.says ? { says: f.says } : {}),
    }));
  const rollout = workloadKind(kind).rolloutStatus(object);
  if (findings.every((f) => f.severity === 'info')) {
    if (!findings.some((f) => f.code === 'RolloutPaused')) return undefined;
    const name = object.metadata.name ?? '';
    return { kind, namespace, name, state: 'paused', rollout: rollout.progress.message, findings };
  }
  const onlyRisk = findings.every((f) => f.code === 'RolloutAtRisk');
  return {
    kind,
    namespace,
    name: object.metadata.name ?? '',
    state: rollout.state !== 'complete' && !onlyRisk ? 'stuck' : onlyRisk ? 'at-risk' : 'problems',
    rollout: rollout.progress.message,
    findings,
  };
}

/** Worth a diagnosis: the rollout has not finished, or the template could deadlock the next one. */
export function isInteresting(kind: WorkloadKind, object: WorkloadObject): boolean {
  const module = workloadKind(kind);
  const spec = module.podTemplate(object).spec;
  const claims = (spec.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
  );
  return module.rolloutStatus(object).state !== 'complete' || asksForScarce(spec, claims);
}

export async function readNodes(client: KubeClient, problems: AccessProblem[]): Promise<NodeObjects> {
  const list = await secondaryRead(problems, undefined, () =>
    listObjects<Node>(client, { resource: 'nodes' }, { limit: NODE_PAGE, maxPages: NODE_PAGES }),
  );
  const gaps: CoverageGap[] = [];
  const state = nodeListState(list, gaps);
  return { items: list?.items ?? [], state, gaps };
}

async function readNamespace(
  client: KubeClient,
  kind: WorkloadKind,
  namespace: string,
  workloads: readonly WorkloadObject[],
  problems: AccessProblem[],
): Promise<NamespaceObjects> {
  const module = workloadKind(kind);
  const mountsClaims = workloads.some((d) =>
    (module.podTemplate(d).spec.volumes ?? []).some((v) => v.persistentVolumeClaim),
  );
  const gaps: CoverageGap[] = [];
  const list = async <T>(
    resource: 'replicasets' | 'controllerrevisions' | 'pods' | 'persistentvolumeclaims' | 'events',
  ): Promise<{ items: T[]; state: ReadState }> => {
    const read = await secondaryRead(problems, undefined, () =>
      listObjects<T>(client, { resource, namespace }, { limit: 500, maxPages: 20 }),
    );
    return { items: read?.items ?? [], state: namespacedListState(read, resource, namespace, gaps) };
  };
  // Every event type: the kubelet's Killing events are Normal, and the analyzers read them.
  const [revisions, pods, events, pvcs] = await Promise.all([
    list<RevisionObject>(module.revisionObjects.resource),
    list<Pod>('pods'),
    list<KubeEvent>('events'),
    mountsClaims ? list<PersistentVolumeClaim>('persistentvolumeclaims') : Promise.resolve({ items: [] }),
  ]);
  return {
    revisions: revisions.items,
    pods: pods.items,
    events: events.items,
    pvcs: pvcs.items,
    states: { replicaSets: revisions.state, pods: pods.state, events: events.state },
    gaps,
  };
}

/**
 * Other workloads' pods on the nodes eligible for this workload's pods as admitted,
 * read once per node for the whole scan (at most MAX_NODE_POD_LISTS nodes); past that
 * cap, or where the read is refused, occupancy is recorded as unknown.
 */
async function podsOnEligibleNodes(
  client: KubeClient,
  kind: WorkloadKind,
  object: WorkloadObject,
  objects: NamespaceObjects,
  nodes: NodeObjects,
  cache: Map<string, Promise<Pod[] | undefined>>,
  problems: AccessProblem[],
): Promise<{ pods: Pod[]; readOn: string[]; gaps: CoverageGap[] }> {
  const ours = selectWorkload(
    kind,
    object,
    { ...objects, nodes: [], neighbours: [] },
    { capturedAt: '', coverage: fullCoverage() },
  );
  const { spec } = admittedSpec(ours);
  if (!neighboursMatter(spec, ours.pods, ours.pvcs, workloadKind(kind).strategy(object)))
    return { pods: [], readOn: [], gaps: [] };
  const eligible = nodes.items.filter((n) => isEligible(n, spec));
  const names = nodesForOtherPods(eligible, spec, eligible.length);
  const reads = names.map((name) => {
    let pending = cache.get(name);
    if (!pending && cache.size < MAX_NODE_POD_LISTS) {
      pending = readPodsOnNodes(client, [name], problems).then((r) =>
        r.readOn.length > 0 ? r.pods : undefined,
      );
      cache.set(name, pending);
    }
    return pending ?? Promise.resolve(undefined);
  });
  const lists = await Promise.all(reads);
  const readOn = names.filter((_, i) => lists[i] !== undefined);
  const unread = names.length - readOn.length;
  const gaps =
    unread > 0
      ? [
          neighboursGap(
            unread,
            names.length,
            `diagnose ${typeOfKind(kind)}/${object.metadata.name ?? ''} on its own, which reads every eligible node`,
          ),
        ]
      : [];
  return { pods: lists.flatMap((l) => l ?? []), readOn, gaps };
}

/**
 * The DRA objects for a namespace's workloads, read as the collector reads them
 * (dra-reads.ts) when one of them lists resource claims, or asks for an extended
 * resource a DeviceClass backs. The gaps go into the coverage of each snapshot.
 */
export async function draOfNamespace(
  client: KubeClient,
  kind: WorkloadKind,
  namespace: string,
  workloads: readonly WorkloadObject[],
  problems: AccessProblem[],
): Promise<DraReads | undefined> {
  const specs = workloads.map((d) => workloadKind(kind).podTemplate(d).spec);
  const claimed = specs.find(usesClaims);
  if (claimed) return readDra(client, namespace, claimed, problems, []);
  const extended = specs.find((s) => extendedResources(s).length > 0);
  if (!extended) return undefined;
  const classes = await readDeviceClasses(client, problems);
  const backed = classes ? specs.find((s) => backsExtendedResource(s, classes.items)) : undefined;
  return backed ? readDra(client, namespace, backed, problems, [], classes) : undefined;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
