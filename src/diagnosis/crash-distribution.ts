/**
 * Where the pods of each pod template crash, node by node. Shared by the
 * CrashLoopOnNode and CrashLoop analyzers and the exclude-node plan builder, so the
 * verdict and the safety check behind the remediation cannot drift apart.
 */
import { classifyContainers, isHealthyPod, type ContainerReport } from './container-failures.js';
import type { NodeCrashRow } from './finding.js';
import type { Pod, ReplicaSet } from './k8s.js';
import type { WorkloadSnapshot } from './snapshot.js';

/** Failure kinds that mean "the container starts and dies again" (repeated failed starts). */
const CRASH_KINDS = new Set(['crash-loop', 'start-error']);

export interface TemplateCrashPicture {
  /** pod-template-hash shared by the pods ("" when the pods carry none). */
  hash: string;
  replicaSet?: ReplicaSet;
  /** The ReplicaSet with the highest revision: the template the Deployment rolls towards. */
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
  /**
   * Crashes are node-local: every crashing pod sits on a bad node, some healthy pod
   * runs on another node, and the bad nodes are the minority of the nodes in use.
   */
  nodeLocal: boolean;
}

/** One picture per pod template that has at least one crashing, scheduled pod. */
export function crashPictures(
  snapshot: WorkloadSnapshot,
  reports = classifyContainers(snapshot),
): TemplateCrashPicture[] {
  const currentHash = templateHash(newestReplicaSet(snapshot.replicaSets));
  const groups = new Map<string, Pod[]>();
  for (const pod of snapshot.pods) {
    if (!pod.spec.nodeName) continue;
    const hash = pod.metadata.labels?.['pod-template-hash'] ?? '';
    groups.set(hash, [...(groups.get(hash) ?? []), pod]);
  }
  const pictures: TemplateCrashPicture[] = [];
  for (const [hash, pods] of groups) {
    const podReports = reports.filter((r) => pods.some((p) => isReportOf(r, p)));
    const crashingPods = pods.filter((p) => isCrashingPod(p, podReports));
    if (crashingPods.length === 0) continue;
    const healthyPods = pods.filter((p) => isHealthyPod(p, podReports));
    const replicaSet = snapshot.replicaSets.find((rs) => templateHash(rs) === hash);
    pictures.push(
      picture(hash, replicaSet, hash === currentHash, pods, crashingPods, healthyPods, podReports),
    );
  }
  return pictures.sort((a, b) => Number(b.current) - Number(a.current));
}

function picture(
  hash: string,
  replicaSet: ReplicaSet | undefined,
  current: boolean,
  pods: Pod[],
  crashingPods: Pod[],
  healthyPods: Pod[],
  reports: ContainerReport[],
): TemplateCrashPicture {
  const nodes = [...new Set(pods.map((p) => p.spec.nodeName ?? ''))].sort();
  const crashNodes = new Set(crashingPods.map((p) => p.spec.nodeName ?? ''));
  const healthyNodes = new Set(healthyPods.map((p) => p.spec.nodeName ?? ''));
  const badNodes = nodes.filter((n) => crashNodes.has(n) && !healthyNodes.has(n));
  const goodNodes = nodes.filter((n) => healthyNodes.has(n) && !crashNodes.has(n));
  const mixedNodes = nodes.filter((n) => crashNodes.has(n) && healthyNodes.has(n));
  const rows = nodes.map((node) =>
    crashRow(
      node,
      pods.filter((p) => p.spec.nodeName === node),
      reports,
    ),
  );
  rows.sort((a, b) => b.crashing - a.crashing || a.node.localeCompare(b.node));
  const nodeLocal =
    badNodes.length > 0 &&
    goodNodes.length > 0 &&
    mixedNodes.length === 0 &&
    badNodes.length <= goodNodes.length;
  return {
    hash,
    ...(replicaSet ? { replicaSet } : {}),
    current,
    rows,
    badNodes,
    goodNodes,
    mixedNodes,
    crashingPods,
    healthyPods,
    reports,
    nodeLocal,
  };
}

function crashRow(node: string, pods: Pod[], reports: ContainerReport[]): NodeCrashRow {
  const mine = reports.filter((r) => pods.some((p) => isReportOf(r, p)));
  const crashing = mine.filter((r) => r.failures.some((f) => CRASH_KINDS.has(f)));
  const latest = [...crashing].sort(
    (a, b) => finishedAt(b) - finishedAt(a) || b.restartCount - a.restartCount,
  )[0];
  const term = latest?.lastTermination;
  const logTail = crashing.find((r) => r.logTail)?.logTail;
  return {
    node,
    pods: pods.length,
    ready: pods.filter((p) => p.status?.conditions?.find((c) => c.type === 'Ready')?.status === 'True')
      .length,
    restarts: mine.reduce((sum, r) => sum + r.restartCount, 0),
    crashing: pods.filter((p) => isCrashingPod(p, mine)).length,
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

export function isCrashingPod(pod: Pod, reports: readonly ContainerReport[]): boolean {
  return reports.some((r) => isReportOf(r, pod) && r.failures.some((f) => CRASH_KINDS.has(f)));
}

function isReportOf(report: ContainerReport, pod: Pod): boolean {
  return report.pod === pod.metadata.name && report.podUid === (pod.metadata.uid ?? '');
}

function finishedAt(report: ContainerReport): number {
  const t = Date.parse(report.lastTermination?.finishedAt ?? '');
  return Number.isNaN(t) ? 0 : t;
}

function templateHash(rs: ReplicaSet | undefined): string | undefined {
  return rs?.metadata.labels?.['pod-template-hash'];
}

/** Highest `deployment.kubernetes.io/revision`, as the Deployment controller orders them. */
export function newestReplicaSet(replicaSets: readonly ReplicaSet[]): ReplicaSet | undefined {
  const revision = (rs: ReplicaSet) =>
    Number.parseInt(rs.metadata.annotations?.['deployment.kubernetes.io/revision'] ?? '0', 10) || 0;
  return [...replicaSets].sort((a, b) => revision(b) - revision(a))[0];
}

/** "web-7c9d8 (revision 3)" or the hash alone when the ReplicaSet was not collected. */
export function templateLabel(p: TemplateCrashPicture): string {
  const rs = p.replicaSet;
  if (!rs) return p.hash ? `pod-template-hash ${p.hash}` : 'the pod template';
  const revision = rs.metadata.annotations?.['deployment.kubernetes.io/revision'];
  return `ReplicaSet ${rs.metadata.name ?? p.hash}${revision ? ` (revision ${revision})` : ''}`;
}
