/**
 * A surge deadlock proved from the scheduler's own counts when the nodes themselves
 * could not be read (a namespace-scoped user, a dump without Node objects).
 *
 * The proof holds only when the message pins the eligible nodes down: every node
 * fails for exactly one reason (the counts add up to the total), the nodes failing
 * for capacity are as many as the nodes our live old pods run on, every capacity
 * reason names something those old pods hold, the old pods were placed under the
 * same constraints as the new pod, and on each of their nodes they hold at least
 * everything the new pod asks for. Then the new pod fits where they are once they go.
 */
import type { Pod, PodSpec } from '../k8s.js';
import { coversNeed, type PlacementContext } from '../placement/placement.js';
import { hostPorts } from '../placement/pod-constraints.js';
import type { ParsedSchedulingMessage, SchedulingReason } from './scheduling-message.js';
import { isTerminating } from '../rollout/workload.js';
import { deviceVerdict } from '../dra/blockers.js';

/** Reasons that say the node was not a candidate at all. */
const SELECTION = new Set(['node-selection', 'taints', 'node-unschedulable']);

export interface MessageProof {
  /** Nodes where the old pods hold what the new pod needs. */
  nodes: string[];
  /** Why it is not a proof, when it is not. */
  missing?: string;
}

export function messageProof(
  ctx: PlacementContext,
  pending: Pod,
  parsed: ParsedSchedulingMessage | null,
  oldPods: readonly Pod[],
): MessageProof {
  if (!parsed) return { nodes: [], missing: 'the scheduler left no FailedScheduling message to count from' };
  const live = oldPods.filter((p) => p.spec.nodeName && !isTerminating(p));
  const byNode = new Map<string, Pod[]>();
  for (const pod of live)
    byNode.set(pod.spec.nodeName ?? '', [...(byNode.get(pod.spec.nodeName ?? '') ?? []), pod]);
  // A count-less PreFilter reason ("resourceclaim in use") applies to every node at once.
  const counted = parsed.reasons.every((r) => typeof r.count === 'number' && !r.countless);
  const sum = parsed.reasons.reduce((n, r) => n + (r.count ?? 0), 0);
  if (!counted || sum !== parsed.total) {
    return { nodes: [], missing: 'the message does not say which single reason failed each node' };
  }
  const capacity = parsed.reasons.filter((r) => !SELECTION.has(r.category));
  const capacityNodes = capacity.reduce((n, r) => n + (r.count ?? 0), 0);
  if (capacityNodes === 0 || capacityNodes !== byNode.size) {
    return {
      nodes: [],
      missing: `the message counts ${capacityNodes} node(s) without room, and old pods run on ${byNode.size}`,
    };
  }
  if (!capacity.every((r) => oldPodsHold(ctx, r, live))) {
    return { nodes: [], missing: 'a reason in the message names something the old pods do not hold' };
  }
  if (!live.every((p) => sameConstraints(p.spec, pending.spec))) {
    return { nodes: [], missing: 'the old pods were placed under other node constraints than the new pod' };
  }
  if (![...byNode.values()].every((pods) => coversNeed(ctx, pending, pods))) {
    return { nodes: [], missing: 'the new pod asks for more than the old pods on a node hold' };
  }
  if (capacity.some((r) => r.category === 'devices')) {
    const short = [...byNode.entries()].find(([node, pods]) => !devicesCovered(ctx, pending, node, pods));
    if (short) {
      return {
        nodes: [],
        missing: `the devices the old pods' claims hold on ${short[0]} do not serve every device request of the new pod (or the claims were not read)`,
      };
    }
  }
  return { nodes: [...byNode.keys()].sort() };
}

/**
 * DRA: the devices the old pods' claims free on `node` serve every device request of
 * the new pod by themselves. The Node object is not needed for node-local slices
 * (`nodeName`); a slice chosen by node labels is not matched without it, which only
 * makes the proof fail.
 */
function devicesCovered(ctx: PlacementContext, pending: Pod, node: string, pods: readonly Pod[]): boolean {
  const known = ctx.nodesByName.get(node) ?? {
    metadata: { name: node, labels: { 'kubernetes.io/hostname': node } },
  };
  const verdict = deviceVerdict(ctx.analysis, pending, known, {
    removed: new Set(pods),
    onlyFreedByRemoved: true,
  });
  return verdict !== undefined && verdict.blockers.length === 0 && verdict.unknown.length === 0;
}

function oldPodsHold(ctx: PlacementContext, reason: SchedulingReason, live: readonly Pod[]): boolean {
  switch (reason.category) {
    case 'resources':
    case 'pod-count': {
      const resource = reason.category === 'pod-count' ? 'pods' : reason.resource;
      if (resource === 'pods') return true;
      return resource !== undefined && live.some((p) => (ctx.requests(p)[resource] ?? 0) > 0);
    }
    case 'ports':
      return live.some((p) => hostPorts(p.spec).length > 0);
    case 'devices': {
      // Only a node without free matching devices; a claim allocated elsewhere or in use is no capacity.
      if (reason.claims !== 'cannot-allocate') return false;
      const uids = new Set(live.map((p) => p.metadata.uid).filter(Boolean));
      return (ctx.snapshot.dra?.claims ?? []).some(
        (c) =>
          c.status?.allocation !== undefined && (c.status.reservedFor ?? []).some((r) => uids.has(r.uid)),
      );
    }
    default:
      return false;
  }
}

/** Node selection, affinity and tolerations as admitted are the same. */
function sameConstraints(a: PodSpec, b: PodSpec): boolean {
  const pick = (s: PodSpec): string =>
    JSON.stringify([s.nodeSelector ?? {}, s.affinity?.nodeAffinity ?? {}, s.tolerations ?? []]);
  return pick(a) === pick(b);
}

/**
 * The pod proved Unschedulable by the scheduler's message alone, for when the nodes
 * could not be read: every node is counted once (the counts add up to the total) and
 * every reason is one no old pod's leaving changes (untolerated taint, node selection
 * or affinity, cordon). Only a message as young as the pod counts: an older one (an
 * event of an earlier pod of the same name, a condition carried over) or one without
 * a time proves nothing about this pod. Node objects may have changed since; the
 * message is the scheduler's last word.
 */
export function messageProvesUnschedulable(
  pending: Pod,
  failure: { at?: string } | undefined,
  parsed: ParsedSchedulingMessage | null,
): { proved: true } | { proved: false; missing: string } {
  if (!parsed || !failure)
    return { proved: false, missing: 'the scheduler left no FailedScheduling message to count from' };
  const created = pending.metadata.creationTimestamp;
  if (!failure.at || !created)
    return { proved: false, missing: 'the message or the pod carries no time, so it may be stale' };
  if (Date.parse(failure.at) < Date.parse(created))
    return {
      proved: false,
      missing: `the message (${failure.at}) is older than the pod (created ${created}), so it is not about this pod`,
    };
  const counted = parsed.reasons.every((r) => typeof r.count === 'number' && !r.countless);
  const sum = parsed.reasons.reduce((n, r) => n + (r.count ?? 0), 0);
  if (parsed.total === 0 || !counted || sum !== parsed.total)
    return { proved: false, missing: 'the message does not say which single reason failed each node' };
  if (!parsed.reasons.every((r) => SELECTION.has(r.category)))
    return { proved: false, missing: 'some node fails for room, which old pods leaving may free' };
  return { proved: true };
}
