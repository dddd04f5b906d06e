/**
 * PodTopologySpread's filter (kubernetes pkg/scheduler/framework/plugins/podtopologyspread,
 * filtering.go), for the DoNotSchedule constraints of the incoming pod:
 * - the selector is the constraint's labelSelector plus, for each `matchLabelKeys` key,
 *   `key In [the incoming pod's value]` (the API server merges them into the selector
 *   of pods it admits from 1.34; a template's next pod gets them merged here);
 * - domains are the values of `topologyKey` on nodes that carry it and pass the
 *   policies: `nodeAffinityPolicy` Honor (default) keeps nodes the pod's nodeSelector and
 *   required node affinity admit, `nodeTaintsPolicy` Ignore (default) keeps tainted ones
 *   too (Honor drops those with a taint the pod does not tolerate);
 * - pods counted: bound, not terminating, in the pod's namespace, matching the selector;
 * - the minimum is over those domains, 0 when there are fewer than `minDomains`;
 * - a node fails when it lacks the key, or when `count(its domain) + (1 if the pod
 *   matches its own selector) − minimum > maxSkew`.
 * Counts are taken once per incoming pod and constraint; a release only takes pods away.
 */
import { matchesLabelSelector } from '../base/pod-constraints.js';
import { selectsNode, untoleratedTaints } from '../base/node-match.js';
import { isTerminating } from '../base/pods.js';
import type { LabelSelector, Node, Pod, TopologySpreadConstraint } from '../k8s.js';
import type { Blocker, PlacementContext, SpreadDomains } from './placement-types.js';

/** The constraints the filter enforces. */
function filteringConstraints(pod: Pod): TopologySpreadConstraint[] {
  return (pod.spec.topologySpreadConstraints ?? []).filter((c) => c.whenUnsatisfiable === 'DoNotSchedule');
}

/** The constraint's selector with its matchLabelKeys merged in (the incoming pod's values). */
function spreadSelector(c: TopologySpreadConstraint, pod: Pod): LabelSelector {
  const base = c.labelSelector ?? {};
  const labels = pod.metadata.labels ?? {};
  const extra = (c.matchLabelKeys ?? [])
    .filter((key) => labels[key] !== undefined)
    .map((key) => ({ key, operator: 'In', values: [labels[key] ?? ''] }));
  return extra.length === 0
    ? base
    : { ...base, matchExpressions: [...(base.matchExpressions ?? []), ...extra] };
}

function isDomainNode(c: TopologySpreadConstraint, node: Node, pod: Pod): boolean {
  if (node.metadata.labels?.[c.topologyKey] === undefined) return false;
  if ((c.nodeAffinityPolicy ?? 'Honor') === 'Honor' && !selectsNode(node, pod.spec)) return false;
  if (c.nodeTaintsPolicy === 'Honor' && untoleratedTaints(node, pod.spec).length > 0) return false;
  return true;
}

function domainsOf(
  ctx: PlacementContext,
  incoming: Pod,
  index: number,
  c: TopologySpreadConstraint,
): SpreadDomains {
  let perPod = ctx.spreadCounts.get(incoming);
  if (!perPod) {
    perPod = new Map();
    ctx.spreadCounts.set(incoming, perPod);
  }
  const known = perPod.get(index);
  if (known) return known;
  const selector = spreadSelector(c, incoming);
  const pods = new Map<string, Pod[]>();
  const nodes = new Map<string, Node[]>();
  for (const node of ctx.snapshot.nodes) {
    if (!isDomainNode(c, node, incoming)) continue;
    const value = node.metadata.labels?.[c.topologyKey] ?? '';
    nodes.set(value, [...(nodes.get(value) ?? []), node]);
    const counted = (ctx.occupantsByNode.get(node.metadata.name ?? '') ?? []).filter(
      (p) =>
        p !== incoming &&
        !isTerminating(p) &&
        p.metadata.namespace === incoming.metadata.namespace &&
        matchesLabelSelector(p.metadata.labels ?? {}, selector),
    );
    pods.set(value, [...(pods.get(value) ?? []), ...counted]);
  }
  const domains = { pods, nodes };
  perPod.set(index, domains);
  return domains;
}

/** The spread constraints that keep `incoming` off `node`, with `removed` gone. */
export function spreadBlockers(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod>,
): Blocker[] {
  const constraints = filteringConstraints(incoming);
  if (constraints.length === 0) return [];
  const blockers: Blocker[] = [];
  constraints.forEach((c, index) => {
    const value = node.metadata.labels?.[c.topologyKey];
    if (value === undefined) {
      blockers.push({
        kind: 'topology-spread',
        topologyKey: c.topologyKey,
        domain: '',
        maxSkew: c.maxSkew,
        skew: 0,
        missingLabel: true,
        holders: [],
      });
      return;
    }
    const domains = domainsOf(ctx, incoming, index, c);
    const { pods } = domains;
    const count = (list: readonly Pod[]): number => list.filter((p) => !removed.has(p)).length;
    const counts = [...pods.values()].map(count);
    const min = counts.length < (c.minDomains ?? 1) ? 0 : Math.min(...counts, Number.MAX_SAFE_INTEGER);
    const here = pods.get(value) ?? [];
    const self = matchesLabelSelector(incoming.metadata.labels ?? {}, spreadSelector(c, incoming)) ? 1 : 0;
    const skew = count(here) + self - (Number.isFinite(min) && min !== Number.MAX_SAFE_INTEGER ? min : 0);
    if (skew <= c.maxSkew) return;
    const holders = here.filter((p) => !removed.has(p));
    const fix = lastingFix(c, incoming, domains, count, holders);
    blockers.push({
      kind: 'topology-spread',
      topologyKey: c.topologyKey,
      domain: value,
      maxSkew: c.maxSkew,
      skew,
      ...(fix ? { lastingFix: fix } : {}),
      holders: holders.map((pod) => ({ pod, amount: 1 })),
    });
  });
  return blockers;
}

const HASH = 'pod-template-hash';

/**
 * The manifest change that keeps the constraint from blocking again: the minimum comes
 * only from domains whose nodes the pod cannot use for a taint (counted while
 * nodeTaintsPolicy is Ignore), or pods of another revision count against this one
 * (no pod-template-hash in matchLabelKeys).
 */
function lastingFix(
  c: TopologySpreadConstraint,
  incoming: Pod,
  domains: SpreadDomains,
  count: (list: readonly Pod[]) => number,
  holders: readonly Pod[],
): 'nodeTaintsPolicy' | 'matchLabelKeys' | undefined {
  const counts = [...domains.pods.entries()].map(([value, list]) => [value, count(list)] as const);
  const min = Math.min(...counts.map(([, n]) => n));
  const minDomains = counts.filter(([, n]) => n === min).map(([value]) => value);
  const tainted = (value: string): boolean =>
    (domains.nodes.get(value) ?? []).every((n) => untoleratedTaints(n, incoming.spec).length > 0);
  if (c.nodeTaintsPolicy !== 'Honor' && minDomains.length > 0 && minDomains.every(tainted))
    return 'nodeTaintsPolicy';
  const own = incoming.metadata.labels?.[HASH];
  if (!(c.matchLabelKeys ?? []).includes(HASH) && holders.some((p) => p.metadata.labels?.[HASH] !== own))
    return 'matchLabelKeys';
  return undefined;
}
