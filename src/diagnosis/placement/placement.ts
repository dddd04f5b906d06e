/**
 * Would this pod fit on that node, and if not, who holds what it needs? A model of
 * the kube-scheduler filters that matter for stuck rollouts: NodeResourcesFit (incl.
 * the pod count), NodePorts, InterPodAffinity (required anti-affinity, both ways),
 * and VolumeRestrictions/VolumeBinding (ReadWriteOncePod in use, unbound or missing
 * claims). Node selection and taints are base/node-match.ts. Pods are indexed by node
 * once per analysis context, so a check costs the node's pods, not the cluster's.
 */
import type { Node, Pod } from '../k8s.js';
import { hostPorts, portsConflict, requiredAntiAffinity, type HostPort } from '../base/pod-constraints.js';
import { spreadBlockers } from './topology-spread.js';
import { antiAffinityBlockers, volumeBlockers } from './placement-pod-rules.js';
import {
  nodeAllocatable,
  nodeCapacity,
  nonZero,
  podRequests,
  type ResourceAmounts,
} from '../base/resources.js';
import type { AnalysisContext } from '../analysis-context.js';
import { holdsResources } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';
import { deviceVerdict } from '../dra/blockers.js';
import { classForExtendedResource } from '../dra/needs.js';
import type { Blocker, HolderRef, IncomingProfile, PlacementContext } from './placement-types.js';

export { usesClaim } from './placement-pod-rules.js';
export type { Blocker, HolderRef, IncomingProfile, PlacementContext } from './placement-types.js';

/** The placement index of the context's snapshot, built once and shared by every analyzer. */
export function placementContext(analysis: AnalysisContext): PlacementContext {
  return analysis.once('placement', () => buildPlacementContext(analysis));
}

function buildPlacementContext(analysis: AnalysisContext): PlacementContext {
  const { snapshot } = analysis;
  const ours = new Set(snapshot.pods);
  const ourUids = new Set(snapshot.pods.map((p) => p.metadata.uid).filter(Boolean));
  const others = snapshot.otherPods.filter((p) => !p.metadata.uid || !ourUids.has(p.metadata.uid));
  const occupantsByNode = new Map<string, Pod[]>();
  const antiAffinityHolders: Pod[] = [];
  for (const pod of [...snapshot.pods, ...others]) {
    if (!holdsResources(pod) || !pod.spec.nodeName) continue;
    const list = occupantsByNode.get(pod.spec.nodeName) ?? [];
    list.push(pod);
    occupantsByNode.set(pod.spec.nodeName, list);
    if (requiredAntiAffinity(pod.spec).length > 0) antiAffinityHolders.push(pod);
  }
  // By the objects podRequests reads: pods made from one template (the forward model
  // makes many, and a bind copies the pod) share them, and their requests.
  const requestCache = new WeakMap<object, { init: unknown; overhead: unknown; amounts: ResourceAmounts }>();
  const requests = (pod: Pod): ResourceAmounts => {
    const { containers, initContainers, overhead } = pod.spec;
    const hit = requestCache.get(containers);
    if (hit && hit.init === initContainers && hit.overhead === overhead) return hit.amounts;
    const amounts = nonZero(podRequests(pod.spec));
    requestCache.set(containers, { init: initContainers, overhead, amounts });
    return amounts;
  };
  const allocatableCache = new Map<Node, ResourceAmounts>();
  return {
    analysis,
    snapshot,
    nodesByName: new Map(snapshot.nodes.map((n) => [n.metadata.name ?? '', n])),
    occupantsByNode,
    ours,
    leaving: new Set(workloadKind(snapshot).leavingPods(snapshot)),
    antiAffinityHolders,
    requests,
    allocatable: (node) => memo(allocatableCache, node, () => nodeAllocatable(node)),
    profiles: new WeakMap(),
    domainIndexes: new Map(),
    spreadCounts: new WeakMap(),
  };
}

function memo<K, V>(cache: Map<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}

const NONE: ReadonlySet<Pod> = new Set();

function profileOf(ctx: PlacementContext, incoming: Pod): IncomingProfile {
  let profile = ctx.profiles.get(incoming);
  if (!profile) {
    profile = { need: Object.entries(ctx.requests(incoming)), ports: hostPorts(incoming.spec) };
    ctx.profiles.set(incoming, profile);
  }
  return profile;
}

/** Who may run beside `incoming` on the node: its occupants but `incoming` and `removed`. */
function occupantsFor(ctx: PlacementContext, incoming: Pod, node: Node, removed: ReadonlySet<Pod>): Pod[] {
  return (ctx.occupantsByNode.get(node.metadata.name ?? '') ?? []).filter(
    (p) => p !== incoming && !removed.has(p),
  );
}

type Filter = (
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod>,
  occupants: Pod[],
) => Blocker[];

/** The scheduler filters after resources, in the order blockers are listed. */
const FILTERS: readonly Filter[] = [
  (ctx, incoming, _node, _removed, occupants) => portBlockers(profileOf(ctx, incoming).ports, occupants),
  (ctx, incoming, node, removed) => antiAffinityBlockers(ctx, incoming, node, removed),
  (ctx, incoming, node, removed) => spreadBlockers(ctx, incoming, node, removed),
  (ctx, incoming, node, removed) => volumeBlockers(ctx, incoming, node, removed),
  (ctx, incoming, node, removed) => deviceVerdict(ctx.analysis, incoming, node, { removed })?.blockers ?? [],
];

/**
 * Everything that keeps `incoming` off `node` (selection and taints aside) with the
 * node's current occupants minus `removed`. Empty means it fits.
 */
export function blockersOn(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod> = NONE,
): Blocker[] {
  const occupants = occupantsFor(ctx, incoming, node, removed);
  return [
    ...resourceBlockers(ctx, incoming, node, occupants),
    ...FILTERS.flatMap((filter) => filter(ctx, incoming, node, removed, occupants)),
  ];
}

/**
 * `blockersOn(…)` is empty: the same filters, stopping at the first that blocks and
 * listing no holders (the search for a node asks this of every node).
 */
export function fitsOn(
  ctx: PlacementContext,
  incoming: Pod,
  node: Node,
  removed: ReadonlySet<Pod> = NONE,
): boolean {
  const occupants = occupantsFor(ctx, incoming, node, removed);
  return (
    shortfalls(ctx, incoming, node, occupants).length === 0 &&
    FILTERS.every((filter) => filter(ctx, incoming, node, removed, occupants).length === 0)
  );
}

/**
 * The released pods together hold at least everything `incoming` asks for (each
 * resource, a pod slot, each host port). Then it fits where they were, whatever else
 * runs on the node unseen: requests are never overcommitted, and no two pods hold
 * one host port.
 */
export function coversNeed(ctx: PlacementContext, incoming: Pod, released: readonly Pod[]): boolean {
  const profile = profileOf(ctx, incoming);
  for (const [resource, amount] of profile.need) {
    let held = 0;
    for (const pod of released) held += ctx.requests(pod)[resource] ?? 0;
    if (held < amount) return false;
  }
  return profile.ports.every((port) =>
    released.some((pod) => hostPorts(pod.spec).some((held) => portsConflict(port, held))),
  );
}

interface Shortfall {
  resource: string;
  need: number;
  available: number;
  used: number;
}

/** The resources (the pod count included) the node's occupants leave too little of. */
function shortfalls(ctx: PlacementContext, incoming: Pod, node: Node, occupants: Pod[]): Shortfall[] {
  const allocatable = ctx.allocatable(node);
  const need = profileOf(ctx, incoming).need;
  const out: Shortfall[] = [];
  for (const [resource, amount] of allocatable.pods !== undefined
    ? [...need, ['pods', 1] as [string, number]]
    : need) {
    // An extended resource a DeviceClass backs, on a node without a device plugin for
    // it, is served by DRA: the device blockers cover it.
    if (allocatable[resource] === undefined && draBacked(ctx, resource)) continue;
    let used = 0;
    for (const pod of occupants) used += resource === 'pods' ? 1 : (ctx.requests(pod)[resource] ?? 0);
    const available = allocatable[resource] ?? 0;
    if (amount > available - used) out.push({ resource, need: amount, available, used });
  }
  return out;
}

function resourceBlockers(ctx: PlacementContext, incoming: Pod, node: Node, occupants: Pod[]): Blocker[] {
  return shortfalls(ctx, incoming, node, occupants).map(({ resource, need, available, used }) => {
    // Only a blocked resource needs its holders listed.
    const holders: HolderRef[] = [];
    for (const pod of occupants) {
      const held = resource === 'pods' ? 1 : (ctx.requests(pod)[resource] ?? 0);
      if (held > 0) holders.push({ pod, amount: held });
    }
    return {
      kind: 'resource',
      resource,
      need,
      allocatable: available,
      capacity: nodeCapacity(node)[resource] ?? available,
      used,
      holders,
    };
  });
}

/** The host ports `wanted` that an occupant already holds, each with its holders. */
export function portBlockers(wanted: HostPort[], occupants: readonly Pod[]): Blocker[] {
  if (wanted.length === 0) return [];
  const blockers: Blocker[] = [];
  for (const port of wanted) {
    const holders = occupants
      .filter((pod) => hostPorts(pod.spec).some((held) => portsConflict(port, held)))
      .map((pod) => ({ pod, amount: 1 }));
    if (holders.length > 0) blockers.push({ kind: 'host-port', port, holders });
  }
  return blockers;
}

function draBacked(ctx: PlacementContext, resource: string): boolean {
  const classes = ctx.snapshot.dra?.classes;
  return (
    classes !== undefined &&
    resource.includes('/') &&
    classForExtendedResource(classes, resource) !== undefined
  );
}
