/**
 * Which nodes a snapshot needs and how to ask for them without listing a 5,000-node
 * cluster: label selectors built from the pod template, and names where our pods run.
 */
import type { Node, NodeSelectorRequirement, Pod, PodSpec } from '../../diagnosis/k8s.js';
import { isEligible } from '../../diagnosis/base/node-match.js';
import { extendedResources } from '../../diagnosis/base/scarce.js';

const SET_OPERATORS = new Set(['In', 'NotIn', 'Exists', 'DoesNotExist']);
/** Label values and keys that a selector string can carry without quoting. */
const SAFE = /^[A-Za-z0-9._/-]*$/;

function requirementToSelector(req: NodeSelectorRequirement): string | undefined {
  if (!SET_OPERATORS.has(req.operator) || !SAFE.test(req.key)) return undefined;
  const values = req.values ?? [];
  if (!values.every((v) => SAFE.test(v))) return undefined;
  switch (req.operator) {
    case 'In':
      return values.length > 0 ? `${req.key} in (${values.join(',')})` : undefined;
    case 'NotIn':
      return values.length > 0 ? `${req.key} notin (${values.join(',')})` : undefined;
    case 'Exists':
      return req.key;
    default:
      return `!${req.key}`;
  }
}

/**
 * A label selector that returns a superset of the nodes the template may use, or
 * undefined when the template places no label constraint the API can express
 * (then "eligible" means the whole cluster). nodeSelector maps exactly; a required
 * node affinity with a single term adds its set-based expressions. Several terms are
 * ORed, which a label selector cannot say, so they are left to client-side filtering.
 */
export function eligibleNodeSelector(spec: PodSpec): string | undefined {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(spec.nodeSelector ?? {})) {
    if (SAFE.test(key) && SAFE.test(value)) parts.push(`${key}=${value}`);
  }
  const terms =
    spec.affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const [only] = terms;
  if (terms.length === 1 && only && (only.matchFields ?? []).length === 0) {
    for (const req of only.matchExpressions ?? []) {
      const selector = requirementToSelector(req);
      if (selector) parts.push(selector);
    }
  }
  return parts.length > 0 ? parts.join(',') : undefined;
}

/**
 * The node selections of Pending pods of older templates (an old ReplicaSet recreating
 * an evicted pod) that the template's own selector may not list: each distinct label
 * selector, undefined for a pod that may go anywhere. Pods of the current template
 * need none (admission only narrows what the template selects), nor does a template
 * with no selector (every node is listed then).
 */
export function olderPendingSelections(
  pods: readonly Pod[],
  current: ReadonlySet<Pod>,
  templateSelector: string | undefined,
): (string | undefined)[] {
  if (templateSelector === undefined) return [];
  const selections = new Set<string | undefined>();
  for (const pod of pods) {
    if (current.has(pod) || pod.spec.nodeName || pod.metadata.deletionTimestamp) continue;
    const selector = eligibleNodeSelector(pod.spec);
    if (selector !== templateSelector) selections.add(selector);
  }
  return [...selections];
}

/** Nodes our pods are bound to, sorted. */
function podNodeNames(pods: readonly Pod[]): string[] {
  const names = new Set<string>();
  for (const pod of pods) if (pod.spec.nodeName) names.add(pod.spec.nodeName);
  return [...names].sort();
}

/**
 * The nodes our pods are bound to, those of pods that are not Running and Ready first
 * (where a crash or a stuck pod is), then the others, each part by name.
 */
export function boundNodeNames(pods: readonly Pod[]): string[] {
  const troubled = new Set<string>();
  for (const pod of pods) {
    const ready = pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') === true;
    if (pod.spec.nodeName && (pod.status?.phase !== 'Running' || !ready)) troubled.add(pod.spec.nodeName);
  }
  const rest = podNodeNames(pods).filter((n) => !troubled.has(n));
  return [...[...troubled].sort(), ...rest];
}

/** `kubernetes.io/hostname in (a,b)`: one request for all pod nodes (the kubelet sets this label to the node name). */
export function hostnameSelector(names: readonly string[]): string | undefined {
  const safe = names.filter((n) => SAFE.test(n));
  return safe.length > 0 ? `kubernetes.io/hostname in (${safe.join(',')})` : undefined;
}

/**
 * The eligible nodes whose other pods we read, at most `cap`: nodes that offer the
 * template's extended resources first (they are where the contention is), then by name.
 */
export function nodesForOtherPods(nodes: readonly Node[], spec: PodSpec, cap: number): string[] {
  const wanted = extendedResources(spec);
  const eligible = nodes.filter((n) => isEligible(n, spec));
  const offers = (n: Node): boolean =>
    wanted.length === 0 || wanted.every((r) => Number(n.status?.allocatable?.[r] ?? 0) > 0);
  const ranked = [...eligible].sort(
    (a, b) =>
      Number(offers(b)) - Number(offers(a)) || (a.metadata.name ?? '').localeCompare(b.metadata.name ?? ''),
  );
  return ranked
    .slice(0, cap)
    .map((n) => n.metadata.name ?? '')
    .filter(Boolean);
}
