/**
 * Where a pod may go, decided the way kube-scheduler's filters decide it:
 * nodeSelector, required node affinity (terms ORed, expressions ANDed), taints
 * with effect NoSchedule/NoExecute against tolerations, and spec.unschedulable.
 */
import type { Node, NodeSelectorRequirement, NodeSelectorTerm, PodSpec, Taint, Toleration } from '../k8s.js';

export function matchesRequirement(labels: Record<string, string>, req: NodeSelectorRequirement): boolean {
  const has = Object.hasOwn(labels, req.key);
  const value = labels[req.key];
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In':
      return has && values.includes(value ?? '');
    case 'NotIn':
      return !has || !values.includes(value ?? '');
    case 'Exists':
      return has;
    case 'DoesNotExist':
      return !has;
    case 'Gt':
    case 'Lt': {
      if (!has || values.length !== 1) return false;
      const left = Number.parseInt(value ?? '', 10);
      const right = Number.parseInt(values[0] ?? '', 10);
      if (Number.isNaN(left) || Number.isNaN(right)) return false;
      return req.operator === 'Gt' ? left > right : left < right;
    }
    default:
      return false;
  }
}

/** A term with no expressions and no fields matches nothing (as in the scheduler). */
function matchesTerm(node: Node, term: NodeSelectorTerm): boolean {
  const expressions = term.matchExpressions ?? [];
  const fields = term.matchFields ?? [];
  if (expressions.length === 0 && fields.length === 0) return false;
  const labels = node.metadata.labels ?? {};
  const fieldValues: Record<string, string> = { 'metadata.name': node.metadata.name ?? '' };
  return (
    expressions.every((req) => matchesRequirement(labels, req)) &&
    fields.every((req) => matchesRequirement(fieldValues, req))
  );
}

/** Terms are ORed; an absent or empty list places no constraint. */
export function matchesTerms(node: Node, terms: NodeSelectorTerm[] | undefined): boolean {
  if (!terms || terms.length === 0) return true;
  return terms.some((term) => matchesTerm(node, term));
}

function matchesNodeSelector(node: Node, spec: PodSpec): boolean {
  const labels = node.metadata.labels ?? {};
  return Object.entries(spec.nodeSelector ?? {}).every(([k, v]) => labels[k] === v);
}

export function matchesRequiredNodeAffinity(node: Node, spec: PodSpec): boolean {
  const required = spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution;
  return required ? matchesTerms(node, required.nodeSelectorTerms) : true;
}

/** Toleration.ToleratesTaint: an empty effect matches every effect, Exists without a key every taint. */
export function tolerates(toleration: Toleration, taint: Taint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === 'Exists') return !toleration.key || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? '') === (taint.value ?? '');
}

/**
 * Toleration.MatchToleration (k8s.io/api/core/v1/toleration.go): the same key, effect,
 * operator and value, literally (an unset operator is not "Equal" here).
 */
export function sameToleration(a: Toleration, b: Toleration): boolean {
  return (
    (a.key ?? '') === (b.key ?? '') &&
    (a.effect ?? '') === (b.effect ?? '') &&
    (a.operator ?? '') === (b.operator ?? '') &&
    (a.value ?? '') === (b.value ?? '')
  );
}

/**
 * AddOrUpdateTolerationInPodSpec (pkg/apis/core/v1/helper/helpers.go): a toleration
 * the spec holds already under `sameToleration` is replaced by `toleration` (its
 * tolerationSeconds go), any other is kept, and `toleration` is appended when none matched.
 */
export function withToleration(tolerations: readonly Toleration[], toleration: Toleration): Toleration[] {
  let updated = false;
  const next = tolerations.map((t) => {
    if (!sameToleration(t, toleration)) return t;
    updated = true;
    return toleration;
  });
  return updated ? next : [...next, toleration];
}

/** Taints that keep the pod off the node at scheduling time (PreferNoSchedule does not). */
export function untoleratedTaints(node: Node, spec: PodSpec): Taint[] {
  const tolerations = spec.tolerations ?? [];
  return (node.spec?.taints ?? []).filter(
    (taint) =>
      (taint.effect === 'NoSchedule' || taint.effect === 'NoExecute') &&
      !tolerations.some((t) => tolerates(t, taint)),
  );
}

/** The node passes the selector and affinity filters (ignoring resources, taints and cordons). */
export function selectsNode(node: Node, spec: PodSpec): boolean {
  return matchesNodeSelector(node, spec) && matchesRequiredNodeAffinity(node, spec);
}

const UNSCHEDULABLE_TAINT: Taint = { key: 'node.kubernetes.io/unschedulable', effect: 'NoSchedule' };

/**
 * The NodeUnschedulable filter: a cordoned node takes only pods that tolerate
 * `node.kubernetes.io/unschedulable:NoSchedule` (pkg/scheduler/framework/plugins/
 * nodeunschedulable), which the DaemonSet controller adds to every pod it makes.
 */
export function passesCordon(node: Node, spec: PodSpec): boolean {
  return !node.spec?.unschedulable || (spec.tolerations ?? []).some((t) => tolerates(t, UNSCHEDULABLE_TAINT));
}

/** Selected, not cordoned (or tolerating the cordon), and every NoSchedule/NoExecute taint tolerated. */
export function isEligible(node: Node, spec: PodSpec): boolean {
  return selectsNode(node, spec) && passesCordon(node, spec) && untoleratedTaints(node, spec).length === 0;
}
