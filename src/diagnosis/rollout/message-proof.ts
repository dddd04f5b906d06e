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
import { blockersOn, coversNeed, type PlacementContext } from '../placement/placement.js';
import { hostPorts } from '../base/pod-constraints.js';
import type { NodeAssessment } from '../placement/holder-release.js';
import type { ParsedSchedulingMessage, SchedulingReason } from '../scheduling/scheduling-message.js';
import { eventsOfPod, eventTime, type SchedulingFailure } from '../base/pod-events.js';
import { isTerminating } from '../base/pods.js';
import { deviceVerdict } from '../dra/blockers.js';
import { occupancyKnown, type WorkloadSnapshot } from '../snapshot/types.js';

/** Reasons that say the node was not a candidate at all. */
const SELECTION = new Set(['node-selection', 'taints', 'node-unschedulable']);

interface MessageProof {
  /** Nodes where the old pods hold what the new pod needs. */
  nodes: string[];
  /** Why it is not a proof, when it is not. */
  missing?: string;
}

/**
 * The nodes were read and device occupancy was not (claims of other namespaces
 * unread), so a device that looks free may be another team's. The scheduler's message
 * settles it when it is the new pod's own recent refusal that counts each node once,
 * at least the nodes read, as many under "cannot allocate all claims" as there are
 * eligible nodes and every other one under node selection (the nodes read are those
 * the pod may use, so the rest fail its selection). Then no matching device was free on any
 * eligible node, and the deadlock stands on each node where the devices our old pods'
 * claims hold serve every device request of the new pod by themselves and nothing
 * else blocks it once they are gone.
 */
export function deviceMessageProof(
  ctx: PlacementContext,
  pending: Pod,
  failure: SchedulingFailure | undefined,
  parsed: ParsedSchedulingMessage | null,
  eligible: readonly NodeAssessment[],
  oldPods: readonly Pod[],
): MessageProof {
  const { snapshot } = ctx;
  if (!failure || !parsed) {
    return { nodes: [], missing: 'the scheduler left no FailedScheduling message to count from' };
  }
  const stale = staleFailure(snapshot, pending, failure);
  if (stale) return { nodes: [], missing: stale };
  const counted = parsed.reasons.every((r) => typeof r.count === 'number' && !r.countless);
  const sum = parsed.reasons.reduce((n, r) => n + (r.count ?? 0), 0);
  if (!counted || sum !== parsed.total) {
    return { nodes: [], missing: 'the message does not say which single reason failed each node' };
  }
  // The nodes read are those the pod may use (or all): the message's total counts the cluster's.
  if (snapshot.coverage.nodes !== 'complete' || parsed.total < snapshot.nodes.length) {
    return {
      nodes: [],
      missing: `the message counts ${parsed.total} node(s), fewer than the ${snapshot.nodes.length} read`,
    };
  }
  const capacity = parsed.reasons.filter((r) => !SELECTION.has(r.category));
  const devices = capacity.filter((r) => r.category === 'devices' && r.claims === 'cannot-allocate');
  const deviceNodes = devices.reduce((n, r) => n + r.count, 0);
  if (devices.length !== capacity.length || deviceNodes !== eligible.length) {
    return {
      nodes: [],
      missing: `the message does not count every eligible node (${eligible.length}) under "cannot allocate all claims"`,
    };
  }
  const live = oldPods.filter((p) => p.spec.nodeName && !isTerminating(p));
  const nodes = eligible
    .map((a) => a.node)
    .filter((node) => {
      const name = node.metadata.name ?? '';
      const pods = live.filter((p) => p.spec.nodeName === name);
      if (pods.length === 0) return false;
      const others = blockersOn(ctx, pending, node, new Set(pods)).filter((b) => b.kind !== 'devices');
      return (
        others.length === 0 &&
        (occupancyKnown(snapshot.coverage, name) || coversNeed(ctx, pending, pods)) &&
        devicesCovered(ctx, pending, name, pods)
      );
    })
    .map((node) => node.metadata.name ?? '')
    .sort();
  if (nodes.length === 0) {
    return {
      nodes: [],
      missing:
        "on no eligible node do the devices the old pods' claims hold serve every device request of the new pod",
    };
  }
  return { nodes };
}

/**
 * The scheduler retries a Pending pod at least every 5 minutes, and the events library
 * writes a repeating event's series at least every 30 minutes: a refusal last seen
 * longer ago may describe another state of the devices.
 */
const RECENT_MS = 35 * 60_000;

/** Why the refusal may not describe the new pod as it is now; undefined when it does. */
function staleFailure(snapshot: WorkloadSnapshot, pod: Pod, failure: SchedulingFailure): string | undefined {
  const seen = [
    failure.at ?? '',
    ...eventsOfPod(snapshot.events, pod)
      .filter((e) => e.reason === 'FailedScheduling' && e.message === failure.message)
      .map(eventTime),
  ]
    .map((t) => Date.parse(t))
    .filter(Number.isFinite);
  if (seen.length === 0) return 'the scheduler message carries no time';
  const last = Math.max(...seen);
  const created = Date.parse(pod.metadata.creationTimestamp ?? '');
  if (!Number.isFinite(created)) return 'the new pod carries no creation time to date the message against';
  if (last < created) return 'the scheduler message is older than the new pod';
  const now = Date.parse(snapshot.capturedAt);
  if (Number.isFinite(now) && now - last > RECENT_MS) {
    return `the scheduler message was last seen ${Math.round((now - last) / 60_000)} minutes before this snapshot`;
  }
  return undefined;
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
