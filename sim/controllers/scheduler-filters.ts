/**
 * kube-scheduler's default Filter plugins, in their order, with the reason strings
 * they report: NodeUnschedulable, TaintToleration, NodeAffinity, NodePorts,
 * NodeResourcesFit, PodTopologySpread (topology-spread.ts), InterPodAffinity. Like the framework, a node's filtering stops
 * at the first plugin that rejects it. `unresolvable` marks
 * UnschedulableAndUnresolvable statuses, where preemption cannot help.
 */
import type {
  Node,
  NodeSelectorRequirement,
  NodeSelectorTerm,
  Pod,
  Taint,
  Toleration,
} from '../../src/diagnosis/k8s.js';
import { matchesLabels, requirementsOf } from '../selectors.js';
import { holdsNode } from './pods.js';
import { spreadFilter, type Counted } from './topology-spread.js';
import { schedulingAmount } from './quantity.js';

export interface FilterResult {
  reasons: string[];
  unresolvable: boolean;
}

/** Sum of container requests (max with each init container), in scheduling units. */
export function podRequests(pod: Pod): Map<string, number> {
  const total = new Map<string, number>();
  for (const c of pod.spec.containers) {
    for (const [k, v] of Object.entries(c.resources?.requests ?? {}))
      total.set(k, (total.get(k) ?? 0) + schedulingAmount(k, v));
  }
  for (const c of pod.spec.initContainers ?? []) {
    for (const [k, v] of Object.entries(c.resources?.requests ?? {}))
      total.set(k, Math.max(total.get(k) ?? 0, schedulingAmount(k, v)));
  }
  return total;
}

/** ToleratesTaint over a list: some toleration matches the taint (key, value, effect, operator). */
export function tolerates(tolerations: readonly Toleration[], taint: Taint): boolean {
  return tolerations.some((t) => {
    if (t.effect && t.effect !== taint.effect) return false;
    if (t.operator === 'Exists') return t.key === undefined || t.key === '' || t.key === taint.key;
    return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
  });
}

function matchRequirement(labels: Record<string, string>, r: NodeSelectorRequirement): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = labels[r.key];
  switch (r.operator) {
    case 'In':
      return has && v !== undefined && (r.values ?? []).includes(v);
    case 'NotIn':
      return !has || v === undefined || !(r.values ?? []).includes(v);
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
      return has && Number(v) > Number(r.values?.[0]);
    case 'Lt':
      return has && Number(v) < Number(r.values?.[0]);
    default:
      return false;
  }
}

/** nodeSelector AND required node affinity (terms ORed, expressions ANDed). */
export function matchesNodeAffinity(pod: Pod, node: Node): boolean {
  const labels = node.metadata.labels ?? {};
  for (const [k, v] of Object.entries(pod.spec.nodeSelector ?? {})) if (labels[k] !== v) return false;
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms;
  if (!terms) return true;
  return matchesNodeSelectorTerms(node, terms);
}

/** NodeSelectorTerms: terms ORed, a term's expressions and fields ANDed, an empty term matching nothing. */
export function matchesNodeSelectorTerms(node: Node, terms: readonly NodeSelectorTerm[]): boolean {
  const labels = node.metadata.labels ?? {};
  return terms.some((term) => {
    const exprs = term.matchExpressions ?? [];
    const fields = term.matchFields ?? [];
    if (exprs.length === 0 && fields.length === 0) return false;
    return (
      exprs.every((e) => matchRequirement(labels, e)) &&
      fields.every((f) => matchRequirement({ 'metadata.name': node.metadata.name ?? '' }, f))
    );
  });
}

/**
 * NodeAffinity's PreFilter (plugins/nodeaffinity PreFilter): when every required term
 * names nodes by `matchFields metadata.name In`, only those nodes are filtered (the
 * union over terms, the intersection within one); undefined when any term names none.
 */
export function nodeNamesFromAffinity(pod: Pod): Set<string> | undefined {
  const terms =
    pod.spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  if (terms.length === 0) return undefined;
  const names = new Set<string>();
  for (const term of terms) {
    let termNames: Set<string> | undefined;
    for (const f of term.matchFields ?? []) {
      if (f.key !== 'metadata.name' || f.operator !== 'In') continue;
      const values = new Set(f.values ?? []);
      termNames = termNames ? new Set([...termNames].filter((n) => values.has(n))) : values;
    }
    if (!termNames) return undefined;
    for (const n of termNames) names.add(n);
  }
  return names;
}

function hostPorts(pod: Pod): string[] {
  const out: string[] = [];
  for (const c of pod.spec.containers) {
    for (const p of c.ports ?? []) if (p.hostPort) out.push(`${p.protocol ?? 'TCP'}/${p.hostPort}`);
  }
  return out;
}

function allocatable(node: Node): Record<string, string | number> {
  return node.status?.allocatable ?? node.status?.capacity ?? {};
}

export interface NodeView {
  node: Node;
  pods: Pod[];
}

function antiAffinityViolated(
  pod: Pod,
  view: NodeView,
  allPodsInDomain: (key: string, node: Node) => Pod[],
): boolean {
  const terms = pod.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  for (const term of terms) {
    const reqs = requirementsOf(term.labelSelector);
    const namespaces = term.namespaces?.length ? term.namespaces : [pod.metadata.namespace ?? 'default'];
    for (const other of allPodsInDomain(term.topologyKey, view.node)) {
      if (namespaces.includes(other.metadata.namespace ?? '') && matchesLabels(reqs, other.metadata.labels))
        return true;
    }
  }
  // Existing pods' anti-affinity against the incoming pod (symmetry).
  for (const other of view.pods) {
    for (const term of other.spec.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution ??
      []) {
      if (term.topologyKey !== 'kubernetes.io/hostname') continue;
      const namespaces = term.namespaces?.length ? term.namespaces : [other.metadata.namespace ?? 'default'];
      if (
        namespaces.includes(pod.metadata.namespace ?? '') &&
        matchesLabels(requirementsOf(term.labelSelector), pod.metadata.labels)
      )
        return true;
    }
  }
  return false;
}

function affinityUnmet(
  pod: Pod,
  view: NodeView,
  allPodsInDomain: (key: string, node: Node) => Pod[],
): boolean {
  const terms = pod.spec.affinity?.podAffinity?.requiredDuringSchedulingIgnoredDuringExecution ?? [];
  return terms.some((term) => {
    const reqs = requirementsOf(term.labelSelector);
    const namespaces = term.namespaces?.length ? term.namespaces : [pod.metadata.namespace ?? 'default'];
    return !allPodsInDomain(term.topologyKey, view.node).some(
      (o) => namespaces.includes(o.metadata.namespace ?? '') && matchesLabels(reqs, o.metadata.labels),
    );
  });
}

/**
 * Runs the filters for one node; an empty reasons list means the pod fits.
 * `draBacked`: extended resources a DeviceClass maps; NodeResourcesFit leaves them to
 * DynamicResources on a node whose allocatable has none of them.
 */
export function filterNode(
  pod: Pod,
  view: NodeView,
  allPodsInDomain: (key: string, node: Node) => Pod[],
  draBacked: ReadonlySet<string> = new Set(),
  spread?: { state: readonly Counted[]; removed?: readonly Pod[] },
): FilterResult {
  const { node } = view;
  const tolerations = pod.spec.tolerations ?? [];
  // NodeInfo keeps a pod until it is deleted: a terminating pod still holds its
  // requests, host ports and pod slot (framework.NodeInfo, removed on the delete event).
  const active = view.pods.filter(holdsNode);
  if (
    node.spec?.unschedulable &&
    !tolerates(tolerations, { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' })
  ) {
    return { reasons: ['node(s) were unschedulable'], unresolvable: true };
  }
  for (const taint of node.spec?.taints ?? []) {
    if (taint.effect !== 'NoSchedule' && taint.effect !== 'NoExecute') continue;
    if (!tolerates(tolerations, taint)) {
      return {
        reasons: [`node(s) had untolerated taint {${taint.key}: ${taint.value ?? ''}}`],
        unresolvable: true,
      };
    }
  }
  if (!matchesNodeAffinity(pod, node))
    return { reasons: ["node(s) didn't match Pod's node affinity/selector"], unresolvable: true };
  const wanted = hostPorts(pod);
  if (wanted.length > 0) {
    const used = new Set(active.flatMap(hostPorts));
    if (wanted.some((p) => used.has(p)))
      return { reasons: ["node(s) didn't have free ports for the requested pod ports"], unresolvable: false };
  }
  const alloc = allocatable(node);
  const reasons: string[] = [];
  const maxPods = schedulingAmount('pods', alloc['pods'] ?? 110);
  if (active.length + 1 > maxPods) reasons.push('Too many pods');
  const requests = podRequests(pod);
  const used = new Map<string, number>();
  for (const p of active) for (const [k, v] of podRequests(p)) used.set(k, (used.get(k) ?? 0) + v);
  const order = [
    'cpu',
    'memory',
    'ephemeral-storage',
    ...[...requests.keys()].filter((k) => !['cpu', 'memory', 'ephemeral-storage'].includes(k)).sort(),
  ];
  for (const k of order) {
    const want = requests.get(k) ?? 0;
    if (want <= 0) continue;
    const cap = schedulingAmount(k, alloc[k]);
    if (cap === 0 && draBacked.has(k)) continue;
    if (cap < want + (used.get(k) ?? 0)) reasons.push(`Insufficient ${k}`);
  }
  if (reasons.length > 0) return { reasons, unresolvable: false };
  const skewed = spread && spreadFilter(pod, node, spread.state, spread.removed);
  if (skewed) return skewed;
  if (affinityUnmet(pod, view, allPodsInDomain))
    return { reasons: ["node(s) didn't match pod affinity rules"], unresolvable: true };
  if (antiAffinityViolated(pod, view, allPodsInDomain))
    return { reasons: ["node(s) didn't match pod anti-affinity rules"], unresolvable: false };
  return { reasons: [], unresolvable: false };
}

/**
 * FitError.Error() as kube-scheduler 1.30 and later write it
 * (pkg/scheduler/framework/types.go): "0/N nodes are available:", then " " + the
 * histogram of reasons ("<count> <reason>", sorted as strings, joined with ", ") + ".",
 * then " " + the PostFilter plugins' message as they wrote it, with no period added.
 * Before 1.30 that message went through the same " %v." as the histogram, hence the
 * ".." at the end of older events (DESIGN.md §4); the parser reads both.
 */
export function fitErrorMessage(
  total: number,
  perNode: readonly FilterResult[],
  postFilter?: string,
): string {
  if (total === 0) return 'no nodes available to schedule pods';
  const counts = new Map<string, number>();
  for (const r of perNode) for (const reason of r.reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const histogram = [...counts].map(([reason, n]) => `${n} ${reason}`).sort();
  let msg = `0/${total} nodes are available:`;
  if (histogram.length > 0) msg += ` ${histogram.join(', ')}.`;
  if (postFilter) msg += ` ${postFilter}`;
  return msg;
}
