/**
 * `scan`: finds Deployments that are stuck or at risk of a surge deadlock (DESIGN.md
 * §1 D) in a namespace or the whole cluster. Deployments are listed in pages; for
 * each page only the "interesting" ones (rollout unfinished, or a template asking
 * for something scarce) are diagnosed, on cheap snapshots built from per-namespace
 * lists, so the request count grows with pages and namespaces, not Deployments.
 */
import type {
  Deployment,
  KubeEvent,
  Node,
  PersistentVolumeClaim,
  Pod,
  ReplicaSet,
} from '../../diagnosis/k8s.js';
import { analyze } from '../../diagnosis/analyzers/analyze.js';
import { AnalysisContext } from '../../diagnosis/analysis-context.js';
import { deviceClassesMatter } from '../../diagnosis/dra/class-relevance.js';
import type { AccessProblem } from '../../diagnosis/snapshot.js';
import type { KubeClient } from '../client.js';
import { listObjects } from '../list.js';
import { backsExtendedResource, readDeviceClasses, readDra, usesClaims, type DraReads } from './dra-reads.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';
import { admittedSpec } from '../../diagnosis/workloads/admitted-spec.js';
import { isEligible } from '../../diagnosis/base/node-match.js';
import { asksForScarce, neighboursMatter } from '../../diagnosis/base/scarce.js';
import { selectWorkload } from '../../diagnosis/workloads/select-workload.js';
import { fullCoverage, type CoverageGap, type ReadState } from '../../diagnosis/snapshot.js';
import { nodesForOtherPods } from './node-queries.js';
import { readPodsOnNodes } from './node-reads.js';
import { namespacedListState, neighboursGap, nodeListState } from './read-coverage.js';
import { rolloutProgress } from '../rollout-status.js';
import { buildScanSnapshot, type NamespaceObjects, type NodeObjects } from './scan-snapshot.js';
import { secondaryRead } from './secondary-read.js';

export interface ScanEntry {
  namespace: string;
  name: string;
  /** stuck: rollout unfinished with a finding; at-risk: only a prediction; problems: other findings. */
  state: 'stuck' | 'at-risk' | 'problems';
  rollout: string;
  findings: { code: string; severity: string; summary: string }[];
}

export interface ScanReport {
  scope: { namespace?: string; allNamespaces: boolean };
  scanned: number;
  diagnosed: number;
  entries: ScanEntry[];
  /** Node list capped: at-risk predictions may miss capacity elsewhere. */
  nodesComplete: boolean;
  accessProblems: AccessProblem[];
}

export interface ScanOptions {
  namespace?: string;
  allNamespaces?: boolean;
  pageSize?: number;
  onProgress?: (done: number, total?: number) => void;
}

const NODE_PAGE = 500;
const NODE_PAGES = 20;
/** Nodes whose pods a whole scan may read to predict contention. */
const MAX_NODE_POD_LISTS = 50;

/**
 * @example
 * const report = await scanCluster(client, { allNamespaces: true });
 * for (const e of report.entries) console.log(e.state, `${e.namespace}/${e.name}`);
 */
export async function scanCluster(client: KubeClient, options: ScanOptions): Promise<ScanReport> {
  const namespace = options.allNamespaces ? undefined : (options.namespace ?? 'default');
  const accessProblems: AccessProblem[] = [];
  const entries: ScanEntry[] = [];
  let nodes: Promise<NodeObjects> | undefined;
  const podsOnNode = new Map<string, Promise<Pod[] | undefined>>();
  let scanned = 0;
  let diagnosed = 0;
  // A refused DeviceClass list is news only when some Deployment's verdict could depend on it.
  let classesMattered = false;
  let token: string | undefined;
  do {
    const page = await client.call<{
      items?: Deployment[] | null;
      metadata?: { continue?: string; remainingItemCount?: number };
    }>({
      verb: 'list',
      resource: 'deployments',
      namespace,
      query: { limit: options.pageSize ?? 250, continue: token },
    });
    token = page.metadata?.continue || undefined;
    const items = page.items ?? [];
    scanned += items.length;
    const remaining = page.metadata?.remainingItemCount;
    const interesting = items.filter(isInteresting);
    if (interesting.length > 0) {
      nodes ??= readNodes(client, accessProblems);
      const nodeList = await nodes;
      const byNamespace = groupBy(interesting, (d) => d.metadata.namespace ?? '');
      for (const [ns, deployments] of byNamespace) {
        const objects = await readNamespace(client, ns, deployments, accessProblems);
        const dra = await draOfNamespace(client, ns, deployments, accessProblems);
        for (const deployment of deployments) {
          const neighbours = await podsOnEligibleNodes(
            client,
            deployment,
            objects,
            nodeList,
            podsOnNode,
            accessProblems,
          );
          const snapshot = buildScanSnapshot(deployment, objects, nodeList, neighbours, accessProblems, {
            ...(dra?.dra ? { objects: dra.dra } : {}),
            ...(dra?.coverage ? { coverage: dra.coverage } : {}),
          });
          // Findings only: a scan lists verdicts and builds no plans it would throw away.
          const diagnosis = analyze(snapshot);
          diagnosed += 1;
          if (!classesMattered && accessProblems.some((p) => p.resource === 'deviceclasses'))
            classesMattered = deviceClassesMatter(new AnalysisContext(snapshot));
          const findings = diagnosis.findings
            .filter((f) => f.code !== 'AccessDenied')
            .map((f) => ({ code: f.code, severity: f.severity, summary: f.summary }));
          if (findings.length === 0) continue;
          const rollout = rolloutProgress(deployment);
          const onlyRisk = findings.every((f) => f.code === 'RolloutAtRisk');
          entries.push({
            namespace: ns,
            name: deployment.metadata.name ?? '',
            state: rollout.state !== 'complete' && !onlyRisk ? 'stuck' : onlyRisk ? 'at-risk' : 'problems',
            rollout: rollout.progress.message,
            findings,
          });
        }
      }
    }
    options.onProgress?.(
      scanned,
      remaining !== undefined ? scanned + remaining : token ? undefined : scanned,
    );
  } while (token);
  const nodeList = nodes ? await nodes : { state: 'complete' };
  return {
    scope: { ...(namespace !== undefined ? { namespace } : {}), allNamespaces: namespace === undefined },
    scanned,
    diagnosed,
    entries,
    nodesComplete: nodeList.state === 'complete',
    accessProblems: classesMattered
      ? accessProblems
      : accessProblems.filter((p) => p.resource !== 'deviceclasses'),
  };
}

/** Worth a diagnosis: the rollout has not finished, or the template could deadlock the next one. */
export function isInteresting(deployment: Deployment): boolean {
  const spec = deployment.spec.template.spec;
  const claims = (spec.volumes ?? []).flatMap((v) =>
    v.persistentVolumeClaim ? [v.persistentVolumeClaim.claimName] : [],
  );
  return rolloutProgress(deployment).state !== 'complete' || asksForScarce(spec, claims);
}

async function readNodes(client: KubeClient, problems: AccessProblem[]): Promise<NodeObjects> {
  const list = await secondaryRead(problems, undefined, () =>
    listObjects<Node>(client, { resource: 'nodes' }, { limit: NODE_PAGE, maxPages: NODE_PAGES }),
  );
  const gaps: CoverageGap[] = [];
  const state = nodeListState(list, gaps);
  return { items: list?.items ?? [], state, gaps };
}

async function readNamespace(
  client: KubeClient,
  namespace: string,
  deployments: readonly Deployment[],
  problems: AccessProblem[],
): Promise<NamespaceObjects> {
  const mountsClaims = deployments.some((d) =>
    (d.spec.template.spec.volumes ?? []).some((v) => v.persistentVolumeClaim),
  );
  const gaps: CoverageGap[] = [];
  const list = async <T>(
    resource: 'replicasets' | 'pods' | 'persistentvolumeclaims' | 'events',
  ): Promise<{ items: T[]; state: ReadState }> => {
    const read = await secondaryRead(problems, undefined, () =>
      listObjects<T>(client, { resource, namespace }, { limit: 500, maxPages: 20 }),
    );
    return { items: read?.items ?? [], state: namespacedListState(read, resource, namespace, gaps) };
  };
  // Every event type: the kubelet's Killing events are Normal, and the analyzers read them.
  const [replicaSets, pods, events, pvcs] = await Promise.all([
    list<ReplicaSet>('replicasets'),
    list<Pod>('pods'),
    list<KubeEvent>('events'),
    mountsClaims ? list<PersistentVolumeClaim>('persistentvolumeclaims') : Promise.resolve({ items: [] }),
  ]);
  return {
    replicaSets: replicaSets.items,
    pods: pods.items,
    events: events.items,
    pvcs: pvcs.items,
    states: { replicaSets: replicaSets.state, pods: pods.state, events: events.state },
    gaps,
  };
}

/**
 * Other workloads' pods on the nodes eligible for this Deployment's pods as admitted,
 * read once per node for the whole scan (at most MAX_NODE_POD_LISTS nodes); past that
 * cap, or where the read is refused, occupancy is recorded as unknown.
 */
async function podsOnEligibleNodes(
  client: KubeClient,
  deployment: Deployment,
  objects: NamespaceObjects,
  nodes: NodeObjects,
  cache: Map<string, Promise<Pod[] | undefined>>,
  problems: AccessProblem[],
): Promise<{ pods: Pod[]; readOn: string[]; gaps: CoverageGap[] }> {
  const ours = selectWorkload(
    deployment,
    { ...objects, nodes: [], neighbours: [] },
    { capturedAt: '', coverage: fullCoverage() },
  );
  const { spec } = admittedSpec(ours);
  if (!neighboursMatter(spec, ours.pods, ours.pvcs)) return { pods: [], readOn: [], gaps: [] };
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
            `diagnose deployment/${deployment.metadata.name ?? ''} on its own, which reads every eligible node`,
          ),
        ]
      : [];
  return { pods: lists.flatMap((l) => l ?? []), readOn, gaps };
}

/**
 * The DRA objects for a namespace's Deployments, read as the collector reads them
 * (dra-reads.ts) when one of them lists resource claims, or asks for an extended
 * resource a DeviceClass backs. The gaps go into the coverage of each snapshot.
 */
async function draOfNamespace(
  client: KubeClient,
  namespace: string,
  deployments: readonly Deployment[],
  problems: AccessProblem[],
): Promise<DraReads | undefined> {
  const specs = deployments.map((d) => d.spec.template.spec);
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
