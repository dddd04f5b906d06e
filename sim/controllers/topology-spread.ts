/**
 * kube-scheduler's PodTopologySpread Filter for `whenUnsatisfiable: DoNotSchedule`
 * (pkg/scheduler/framework/plugins/podtopologyspread/filtering.go), written for the
 * simulator apart from the engine's own reading (src/diagnosis/placement/topology-spread.ts)
 * so the generated-state test does not agree with the diagnosis by construction.
 *
 * PreFilter (calPreFilterState): the nodes counted are those that carry every
 * constraint's topology key and pass the node inclusion policies (nodeAffinityPolicy
 * Honor, the default: the pod's nodeSelector and required node affinity; nodeTaintsPolicy
 * Honor only when set: NoSchedule/NoExecute taints tolerated). Each such node's domain
 * counts the pods there of the pod's namespace that the constraint's selector matches
 * (its matchLabelKeys merged in with the incoming pod's values), terminating pods
 * bypassed (#87621). The minimum is over those domains, 0 when there are fewer than
 * minDomains.
 * Filter: a node missing a key is UnschedulableAndUnresolvable ("… (missing required
 * label)"); otherwise matchNum + selfMatch - min > maxSkew is Unschedulable.
 * Preemption's RemovePod takes a victim out of its domain's count.
 */
import type { LabelSelector, Node, Pod, Taint, TopologySpreadConstraint } from '../../src/diagnosis/k8s.js';
import { matchesLabels, requirementsOf, type LabelRequirement } from '../selectors.js';
import { isPodActive } from './pods.js';
import type { FilterResult, NodeView } from './scheduler-filters.js';

export interface Counted {
  constraint: TopologySpreadConstraint;
  selector: LabelRequirement[];
  /** Matching pods per domain value, every counted domain present (0 included). */
  counts: Map<string, number>;
}

/** The PreFilter state for `pod` over every node, or undefined when it has no DoNotSchedule constraint. */
export function spreadState(
  pod: Pod,
  all: readonly NodeView[],
  inclusion: { affinity: (pod: Pod, node: Node) => boolean; tolerated: (pod: Pod, taint: Taint) => boolean },
): Counted[] | undefined {
  const constraints = (pod.spec.topologySpreadConstraints ?? []).filter(
    (c) => c.whenUnsatisfiable === 'DoNotSchedule',
  );
  if (constraints.length === 0) return undefined;
  const counted: Counted[] = constraints.map((constraint) => ({
    constraint,
    selector: selectorOf(constraint, pod),
    counts: new Map(),
  }));
  for (const view of all) {
    const labels = view.node.metadata.labels ?? {};
    if (!constraints.every((c) => labels[c.topologyKey] !== undefined)) continue;
    for (const entry of counted) {
      const c = entry.constraint;
      if ((c.nodeAffinityPolicy ?? 'Honor') === 'Honor' && !inclusion.affinity(pod, view.node)) continue;
      if (c.nodeTaintsPolicy === 'Honor' && !taintsTolerated(pod, view.node, inclusion.tolerated)) continue;
      const domain = labels[c.topologyKey] as string;
      const n = view.pods.filter((p) => matches(entry.selector, p, pod)).length;
      entry.counts.set(domain, (entry.counts.get(domain) ?? 0) + n);
    }
  }
  return counted;
}

/** The Filter on one node, with `removed` (preemption victims there) taken out of the counts. */
export function spreadFilter(
  pod: Pod,
  node: Node,
  state: readonly Counted[],
  removed: readonly Pod[] = [],
): FilterResult | undefined {
  const labels = node.metadata.labels ?? {};
  if (!state.every((s) => labels[s.constraint.topologyKey] !== undefined))
    return {
      reasons: ["node(s) didn't match pod topology spread constraints (missing required label)"],
      unresolvable: true,
    };
  for (const { constraint: c, selector, counts } of state) {
    const domain = labels[c.topologyKey] as string;
    const gone = removed.filter((p) => matches(selector, p, pod)).length;
    const adjusted = new Map(counts);
    if (adjusted.has(domain)) adjusted.set(domain, Math.max(0, (adjusted.get(domain) ?? 0) - gone));
    const values = [...adjusted.values()];
    const min = values.length < (c.minDomains ?? 1) ? 0 : Math.min(...values, Number.MAX_SAFE_INTEGER);
    const self = matchesLabels(selector, pod.metadata.labels) ? 1 : 0;
    if ((adjusted.get(domain) ?? 0) + self - min > c.maxSkew)
      return { reasons: ["node(s) didn't match pod topology spread constraints"], unresolvable: false };
  }
  return undefined;
}

function selectorOf(c: TopologySpreadConstraint, pod: Pod): LabelRequirement[] {
  const own = pod.metadata.labels ?? {};
  const merged: LabelSelector = {
    ...c.labelSelector,
    matchLabels: {
      ...c.labelSelector?.matchLabels,
      ...Object.fromEntries(
        (c.matchLabelKeys ?? []).filter((k) => own[k] !== undefined).map((k) => [k, own[k] as string]),
      ),
    },
  };
  // No selector matches nothing (LabelSelectorAsSelector(nil) is labels.Nothing()).
  return c.labelSelector ? requirementsOf(merged) : [{ key: '', op: 'in', values: [] }];
}

function matches(selector: LabelRequirement[], other: Pod, pod: Pod): boolean {
  return (
    isPodActive(other) &&
    other.metadata.namespace === pod.metadata.namespace &&
    matchesLabels(selector, other.metadata.labels)
  );
}

function taintsTolerated(pod: Pod, node: Node, tolerated: (pod: Pod, taint: Taint) => boolean): boolean {
  return (node.spec?.taints ?? [])
    .filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute')
    .every((t) => tolerated(pod, t));
}
