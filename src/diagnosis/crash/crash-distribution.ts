/**
 * Where the pods of each pod template crash, node by node. Shared by the
 * CrashLoopOnNode and CrashLoop analyzers and the exclude-node plan builder, so the
 * verdict and the safety check behind the remediation cannot drift apart.
 *
 * Node dependence is decided by separation, not by head count: a crash depends on
 * the node when a node attribute (or a pair of them) takes values on every crashing
 * node that no healthy node of the same template has, whatever the counts (a pool
 * half-way through an OS image upgrade crashes on most of its nodes). Without such
 * an attribute, a minority of crashing nodes is blamed on the nodes themselves
 * (something the Node object does not show: a disk, the hardware, a kernel module)
 * only when the failure's own words point at the node (a crash clue other than
 * memory). A single crashing node whose failure has a cause of its own (OOMKilled, a
 * configuration error) is not blamed, whatever it differs in: one node always
 * differs in something. A node with both crashing and healthy pods of
 * the template, or no healthy pod anywhere, rules the node out.
 */
import { findCrashClue, type CrashClue } from './crash-clues.js';
import { podDevices } from '../dra/health.js';
import { classifyContainers, isHealthyPod, type ContainerReport } from './container-failures.js';
import type { CrashingContainer, NodeCrashRow } from '../finding.js';
import type { Node, Pod } from '../k8s.js';
import {
  diffNodes,
  fieldValue,
  findSeparator,
  isCauseCategory,
  sharesSeparator,
  type NodeDifference,
  type NodeSeparator,
} from './node-diff.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { podTemplateOf, workloadKind } from '../workloads/index.js';
import { isEligible } from '../base/node-match.js';

/** Failure kinds that mean "the container starts and dies again" (repeated failed starts). */
const CRASH_KINDS = new Set(['crash-loop', 'start-error']);

export interface TemplateCrashPicture {
  /** pod-template-hash shared by the pods ("" when the pods carry none). */
  hash: string;
  /** How findings name the template: "ReplicaSet web-7c9d8 (revision 3)", or its pods' hash label. */
  label: string;
  /** The Deployment's current ReplicaSet (its template is the Deployment's): the rollout target. */
  current: boolean;
  rows: NodeCrashRow[];
  /** Nodes with crashing pods of this template and no healthy one. */
  badNodes: string[];
  /** Nodes with healthy pods of this template and no crashing one. */
  goodNodes: string[];
  /** Nodes with both: a crash there cannot be blamed on the node. */
  mixedNodes: string[];
  crashingPods: Pod[];
  healthyPods: Pod[];
  reports: ContainerReport[];
  /** The containers that crash, application or not (init containers, sidecars, injected ones). */
  containers: CrashingContainer[];
  /** Bad or good nodes whose Node object is not in the snapshot: their attributes are unknown. */
  unreadNodes: string[];
  /**
   * Good nodes whose healthy pods have all run for less than the crashing container ran
   * before it failed (or, when the crashing nodes are the majority, less than 10 minutes):
   * too early to call them healthy.
   */
  unsettledNodes: string[];
  /** How long the crashing container last ran before it failed, when its last termination says. */
  crashAfterMs?: number;
  /** What differs between the bad and the good nodes, ranked (node-diff.ts). */
  differences: NodeDifference[];
  /** The attribute(s) that separate the bad nodes from the good ones, when some do. */
  separator?: NodeSeparator;
  /**
   * Nodes the template may use that run no pod of it yet (the rollout has not reached
   * them) and share what separates the crashing nodes (a pool label, a kernel, an OS
   * image): the crash follows the pods there. Only where an attribute is blamed.
   */
  sharingNodes: string[];
  /**
   * Nodes the template may use that run no pod of it yet and share what separates the
   * crashing nodes, where that is not proven: the value is seen on one crashing node
   * only (one node always differs in something). Named as a suspicion, never excluded.
   */
  suspectNodes: string[];
  /** A line of the failing container's message or log naming a node-related cause. */
  clue?: CrashClue;
  /**
   * The crash depends on the node: healthy pods run on other nodes, no node has both,
   * and either an attribute separates the bad nodes (`blame` 'attribute'; with the bad
   * nodes in the majority, a possible cause and healthy pods that have run 10 minutes)
   * or, with no such attribute, the bad nodes are no more than the good ones (`blame` 'node').
   */
  nodeLocal: boolean;
  blame?: 'attribute' | 'node';
}

/** The nodes the pods run on: crashing only, healthy only, both; and a row per node, most crashes first. */
function nodeSides(
  pods: readonly Pod[],
  crashingPods: readonly Pod[],
  healthyPods: readonly Pod[],
  state: Map<Pod, PodState>,
): { badNodes: string[]; goodNodes: string[]; mixedNodes: string[]; rows: ReturnType<typeof crashRow>[] } {
  const byNode = new Map<string, Pod[]>();
  for (const pod of pods) {
    const node = pod.spec.nodeName ?? '';
    const list = byNode.get(node);
    if (list) list.push(pod);
    else byNode.set(node, [pod]);
  }
  const nodes = [...new Set(pods.map((p) => p.spec.nodeName ?? ''))].sort();
  const crashNodes = new Set(crashingPods.map((p) => p.spec.nodeName ?? ''));
  const healthyNodes = new Set(healthyPods.map((p) => p.spec.nodeName ?? ''));
  const rows = nodes.map((node) => crashRow(node, byNode.get(node) ?? [], state));
  rows.sort((a, b) => b.crashing - a.crashing || a.node.localeCompare(b.node));
  return {
    badNodes: nodes.filter((n) => crashNodes.has(n) && !healthyNodes.has(n)),
    goodNodes: nodes.filter((n) => healthyNodes.has(n) && !crashNodes.has(n)),
    mixedNodes: nodes.filter((n) => crashNodes.has(n) && healthyNodes.has(n)),
    rows,
  };
}

/** An instruction-set clue with nothing to point at, on nodes without CPU feature labels: say how to check the CPUs. */
function withCpuAdvice(
  found: ReturnType<typeof findCrashClue>,
  bad: readonly Node[],
  good: readonly Node[],
): ReturnType<typeof findCrashClue> {
  const noCpuLabels = ![...bad, ...good].some((n) =>
    Object.keys(n.metadata.labels ?? {}).some((k) => k.startsWith('feature.node.kubernetes.io/cpu-')),
  );
  return found?.kind === 'cpu-instructions' && !found.pointsAt && noCpuLabels && bad.length > 0
    ? {
        ...found,
        meaning: `${found.meaning}; the nodes carry no CPU feature labels (node-feature-discovery), so compare their CPU flags (lscpu) or machine types`,
      }
    : found;
}

/**
 * One picture per pod template that has at least one crashing, scheduled pod; the
 * current template first. The CrashLoop and CrashLoopOnNode analyzers and the
 * exclude-node plan builder all ask for them: computed once per analysis context and
 * shared (the array is frozen).
 */
export function crashPictures(ctx: AnalysisContext): readonly TemplateCrashPicture[] {
  return ctx.once('crash-pictures', () =>
    Object.freeze(computePictures(ctx.snapshot, classifyContainers(ctx))),
  );
}

function computePictures(
  snapshot: WorkloadSnapshot,
  reports: readonly ContainerReport[],
): TemplateCrashPicture[] {
  const byPod = new Map<string, ContainerReport[]>();
  for (const r of reports) {
    const list = byPod.get(podKey(r.pod, r.podUid));
    if (list) list.push(r);
    else byPod.set(podKey(r.pod, r.podUid), [r]);
  }
  // No crashing container, no picture: skip the grouping (a DaemonSet brings a pod per node).
  if (!reports.some((r) => r.failures.some((f) => CRASH_KINDS.has(f)))) return [];
  const kind = workloadKind(snapshot);
  const { current, old } = kind.revisions(snapshot);
  const claimed = new Set<Pod>();
  const groups: { hash: string; label: string; current: boolean; pods: Pod[] }[] = [];
  for (const revision of current ? [current, ...old] : old) {
    const pods = revision.pods.filter((p) => p.spec.nodeName && !claimed.has(p));
    pods.forEach((p) => claimed.add(p));
    groups.push({ hash: revision.hash, label: revision.label, current: revision === current, pods });
  }
  // Pods whose revision object was not collected are grouped by their revision label.
  const orphans = new Map<string, Pod[]>();
  for (const pod of snapshot.pods) {
    if (!pod.spec.nodeName || claimed.has(pod)) continue;
    const hash = pod.metadata.labels?.[kind.revisionLabel] ?? '';
    const list = orphans.get(hash);
    if (list) list.push(pod);
    else orphans.set(hash, [pod]);
  }
  for (const [hash, pods] of orphans)
    groups.push({
      hash,
      label: hash ? `${kind.revisionLabel} ${hash}` : 'the pod template',
      current: false,
      pods,
    });

  const state = new Map<Pod, PodState>();
  for (const pod of snapshot.pods) {
    const mine = byPod.get(podKey(pod.metadata.name ?? '', pod.metadata.uid ?? '')) ?? [];
    state.set(pod, { reports: mine, crashing: isCrashingPod(pod, mine), healthy: isHealthyPod(pod, mine) });
  }
  const pictures: TemplateCrashPicture[] = [];
  for (const { hash, label, current: isCurrent, pods } of groups) {
    const crashingPods = pods.filter((p) => state.get(p)?.crashing);
    if (crashingPods.length === 0) continue;
    pictures.push(picture(snapshot, hash, label, isCurrent, pods, state));
  }
  return pictures;
}

interface PodState {
  reports: ContainerReport[];
  crashing: boolean;
  healthy: boolean;
}

function podKey(name: string, uid: string): string {
  return `${name}/${uid}`;
}

function picture(
  snapshot: WorkloadSnapshot,
  hash: string,
  label: string,
  current: boolean,
  pods: Pod[],
  state: Map<Pod, PodState>,
): TemplateCrashPicture {
  const crashingPods = pods.filter((p) => state.get(p)?.crashing);
  const healthyPods = pods.filter((p) => state.get(p)?.healthy);
  const reports = pods.flatMap((p) => state.get(p)?.reports ?? []);
  const { badNodes, goodNodes, mixedNodes, rows } = nodeSides(pods, crashingPods, healthyPods, state);

  const known = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
  const objects = (names: string[]): Node[] => names.flatMap((n) => known.get(n) ?? []);
  const unreadNodes = [...badNodes, ...goodNodes].filter((n) => !known.has(n));
  const bad = objects(badNodes);
  const good = objects(goodNodes);
  const differences = diffNodes(bad, good);
  const failing = failingReports(crashingPods, state, new Set(badNodes));
  const clue = withCpuAdvice(findCrashClue(failing, differences), bad, good);
  // Every bad and good node must be known for an attribute to separate them.
  // The healthy side must be solid: every good node has a pod that has run longer than
  // the crashing container ran before it failed (a younger one may simply not have
  // crashed yet), and with the crashing nodes in the majority for 10 minutes too; there
  // the attribute must also be a possible cause, not a team label or a zone that
  // happens to set one or two nodes apart.
  const majority = badNodes.length > goodNodes.length;
  const now = Date.parse(snapshot.capturedAt);
  const crashAfterMs = crashRunMs(failing);
  const proofMs = Math.max(majority ? SETTLED_MS : 0, crashAfterMs ?? 0);
  const unsettledNodes =
    proofMs > 0
      ? goodNodes.filter((n) => !healthyPods.some((p) => p.spec.nodeName === n && settled(p, now, proofMs)))
      : [];
  const separator =
    unreadNodes.length === 0
      ? findSeparator(
          bad,
          good,
          clue?.pointsAt ? (f) => f === clue.pointsAt : undefined,
          majority ? isCauseCategory : undefined,
        )
      : undefined;
  const candidate = badNodes.length > 0 && goodNodes.length > 0 && mixedNodes.length === 0;
  // A crash with a cause of its own (out of memory, a configuration error) on one node
  // is that cause, unless its own words point at what sets the node apart: one node
  // always differs from the others in something.
  const ownCause =
    badNodes.length === 1 && !clue?.pointsAt && failing.length > 0 && failing.every(hasOwnCause);
  // Without a separating attribute only the failure's own words may blame the node, or
  // the kubelet reporting a device of a crashing pod Unhealthy.
  const nodeClue =
    (clue !== undefined && clue.kind !== 'out-of-memory') ||
    crashingPods.some((p) => podDevices(p).some((d) => d.health === 'Unhealthy'));
  const blame =
    !candidate || ownCause
      ? undefined
      : separator && unsettledNodes.length === 0
        ? ('attribute' as const)
        : !majority && nodeClue
          ? ('node' as const)
          : undefined;
  return {
    hash,
    label,
    current,
    rows,
    badNodes,
    goodNodes,
    mixedNodes,
    crashingPods,
    healthyPods,
    reports,
    containers: crashingContainers(snapshot, failing, crashingPods),
    unreadNodes,
    unsettledNodes,
    ...(crashAfterMs !== undefined ? { crashAfterMs } : {}),
    differences,
    ...(separator ? { separator } : {}),
    ...groupOf(blame === 'attribute' ? separator : undefined, snapshot, rows, bad),
    ...(clue ? { clue } : {}),
    nodeLocal: blame !== undefined,
    ...(blame ? { blame } : {}),
  };
}

/**
 * The nodes read that run no pod of the template, that it may use (selector, affinity,
 * taints, cordon), and that share the separating attribute's crashing values.
 */
function sharingNodesOf(
  snapshot: WorkloadSnapshot,
  separator: NodeSeparator,
  rows: readonly NodeCrashRow[],
): string[] {
  const reached = new Set(rows.map((r) => r.node));
  const spec = podTemplateOf(snapshot).spec;
  return snapshot.nodes
    .filter(
      (n) => !reached.has(n.metadata.name ?? '') && isEligible(n, spec) && sharesSeparator(separator, n),
    )
    .map((n) => n.metadata.name ?? '')
    .sort();
}

/**
 * A crash is generalised to nodes that run no pod of the template only on evidence: at
 * least two crashing nodes hold the node's value of the separating attribute (every
 * field of a pair), and healthy nodes of the template (at least one; the separator keeps
 * the value off every one of them) do not. Otherwise the node is a suspect, named only.
 */
function groupOf(
  separator: NodeSeparator | undefined,
  snapshot: WorkloadSnapshot,
  rows: readonly NodeCrashRow[],
  bad: readonly Node[],
): { sharingNodes: string[]; suspectNodes: string[] } {
  if (!separator) return { sharingNodes: [], suspectNodes: [] };
  const candidates = sharingNodesOf(snapshot, separator, rows);
  const byName = new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n]));
  const proven = (name: string): boolean => {
    const node = byName.get(name);
    return (
      node !== undefined &&
      bad.filter((b) => separator.fields.every((f) => fieldValue(f, b) === fieldValue(f, node))).length >= 2
    );
  };
  return {
    sharingNodes: candidates.filter(proven),
    suspectNodes: candidates.filter((n) => !proven(n)),
  };
}

/** The container fails for a reason of its own: the kernel killed it for memory, or its configuration is wrong. */
function hasOwnCause(report: ContainerReport): boolean {
  return report.failures.includes('oom-killed') || report.failures.includes('config-error');
}

const SETTLED_MS = 10 * 60 * 1000;

/** Every container has been running for `ms` or more (10 minutes: the kubelet's back-off reset window). */
function settled(pod: Pod, now: number, ms: number): boolean {
  const statuses = pod.status?.containerStatuses ?? [];
  if (statuses.length === 0) return false;
  return statuses.every((s) => {
    const started = Date.parse(s.state?.running?.startedAt ?? '');
    if (Number.isNaN(started)) return false;
    return Number.isNaN(now) || now - started >= ms;
  });
}

/** How long the crashing containers last ran before they failed (the longest), when their last termination says. */
function crashRunMs(failing: readonly ContainerReport[]): number | undefined {
  const runs = failing.flatMap((r) => {
    const ran =
      Date.parse(r.lastTermination?.finishedAt ?? '') - Date.parse(r.lastTermination?.startedAt ?? '');
    return Number.isFinite(ran) && ran > 0 ? [ran] : [];
  });
  return runs.length > 0 ? Math.max(...runs) : undefined;
}

/** Crashing containers of the crashing pods, those on bad nodes first, the latest termination first. */
function failingReports(
  crashingPods: readonly Pod[],
  state: Map<Pod, PodState>,
  badNodes: ReadonlySet<string>,
): ContainerReport[] {
  const list = crashingPods.flatMap((p) =>
    (state.get(p)?.reports ?? []).filter((r) => r.failures.some((f) => CRASH_KINDS.has(f))),
  );
  const onBad = (r: ContainerReport): number => (badNodes.has(r.node ?? '') ? 0 : 1);
  return list.sort(
    (a, b) =>
      onBad(a) - onBad(b) ||
      finishedAt(b) - finishedAt(a) ||
      b.restartCount - a.restartCount ||
      (a.node ?? '').localeCompare(b.node ?? '') ||
      a.pod.localeCompare(b.pod),
  );
}

/** Which containers crash, and whether each is an init container, a sidecar, or was injected at admission. */
function crashingContainers(
  snapshot: WorkloadSnapshot,
  failing: readonly ContainerReport[],
  crashingPods: readonly Pod[],
): CrashingContainer[] {
  const template = podTemplateOf(snapshot).spec;
  const declared = new Set([
    ...template.containers.map((c) => c.name),
    ...(template.initContainers ?? []).map((c) => c.name),
  ]);
  const out = new Map<string, CrashingContainer>();
  for (const report of failing) {
    if (out.has(report.container)) continue;
    const pod = crashingPods.find((p) => p.metadata.name === report.pod);
    const spec = report.init ? pod?.spec.initContainers?.find((c) => c.name === report.container) : undefined;
    const kind = !report.init ? 'container' : spec?.restartPolicy === 'Always' ? 'sidecar' : 'init';
    out.set(report.container, { name: report.container, kind, injected: !declared.has(report.container) });
  }
  return [...out.values()];
}

/** "container checkout", "init container istio-init (injected at admission)", "sidecar log-shipper". */
function describeContainer(c: CrashingContainer): string {
  const what =
    c.kind === 'init'
      ? `init container ${c.name}`
      : c.kind === 'sidecar'
        ? `sidecar container ${c.name} (a restartable init container)`
        : `container ${c.name}`;
  return c.injected ? `${what}, injected at admission (not in the Deployment's pod template)` : what;
}

/** The crashing containers in words: "container a", "init container b and container c". */
export function describeContainers(list: readonly CrashingContainer[]): string {
  const parts = list.map(describeContainer);
  if (parts.length <= 1) return parts[0] ?? 'its containers';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1] ?? ''}`;
}

function crashRow(node: string, pods: Pod[], state: Map<Pod, PodState>): NodeCrashRow {
  const mine = pods.flatMap((p) => state.get(p)?.reports ?? []);
  const crashing = mine.filter((r) => r.failures.some((f) => CRASH_KINDS.has(f)));
  const latest = [...crashing].sort(
    (a, b) => finishedAt(b) - finishedAt(a) || b.restartCount - a.restartCount,
  )[0];
  const term = latest?.lastTermination;
  const logTail = crashing.find((r) => r.logTail)?.logTail;
  return {
    node,
    ...(latest ? { container: latest.container } : {}),
    pods: pods.length,
    ready: pods.filter((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True')
      .length,
    restarts: mine.reduce((sum, r) => sum + r.restartCount, 0),
    crashing: pods.filter((p) => state.get(p)?.crashing).length,
    ...(term ? { lastExitCode: term.exitCode } : {}),
    ...(term?.reason
      ? { lastReason: term.reason }
      : latest?.waitingReason
        ? { lastReason: latest.waitingReason }
        : {}),
    ...(term?.message ? { lastMessage: term.message.trim() } : {}),
    ...(logTail ? { logTail } : {}),
  };
}

function isCrashingPod(pod: Pod, reports: readonly ContainerReport[]): boolean {
  return reports.some((r) => isReportOf(r, pod) && r.failures.some((f) => CRASH_KINDS.has(f)));
}

function isReportOf(report: ContainerReport, pod: Pod): boolean {
  return report.pod === pod.metadata.name && report.podUid === (pod.metadata.uid ?? '');
}

function finishedAt(report: ContainerReport): number {
  const t = Date.parse(report.lastTermination?.finishedAt ?? '');
  return Number.isNaN(t) ? 0 : t;
}

/** "ReplicaSet web-7c9d8 (revision 3)", or the hash alone when its revision object was not collected. */
export function templateLabel(p: TemplateCrashPicture): string {
  return p.label;
}
