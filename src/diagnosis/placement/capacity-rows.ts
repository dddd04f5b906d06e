/**
 * Turns placement blockers into the node-capacity evidence table and into plain
 * words, shared by the scheduling analyzers.
 */
import { codeSpan } from '../../text/code-span.js';
import type { NodeCapacityRow } from '../finding.js';
import type { Pod } from '../k8s.js';
import { formatHostPort } from '../base/pod-constraints.js';
import type { Blocker, PlacementContext } from './placement.js';
import { formatAmount } from '../base/quantity.js';
import type { NodeAssessment } from './holder-release.js';
import type { DeviceBlocker } from '../dra/device-blocker.js';

/** At most this many nodes in a table: enough to see the pattern, short enough for Slack. */
const MAX_ROWS_NODES = 12;

/** A short name for what the blocker is about: "nvidia.com/gpu", "hostPort 8080/TCP", ... */
export function blockerResource(blocker: Blocker): string {
  switch (blocker.kind) {
    case 'resource':
      return blocker.resource;
    case 'host-port':
      return formatHostPort(blocker.port);
    case 'anti-affinity':
      return `pod anti-affinity (${blocker.topologyKey})`;
    case 'topology-spread':
      return blocker.missingLabel
        ? `topology spread (no ${blocker.topologyKey} label)`
        : `topology spread (${blocker.topologyKey}=${blocker.domain}, maxSkew ${blocker.maxSkew})`;
    case 'volume':
      return `volume ${blocker.claim} (${blocker.problem === 'in-use-rwop' ? 'ReadWriteOncePod' : blocker.problem === 'node-affinity' ? `on another node: ${blocker.volume ?? ''}` : blocker.problem})`;
    case 'devices':
      return blocker.allocatedElsewhere
        ? `ResourceClaim ${blocker.allocatedElsewhere} (allocated on another node)`
        : `devices of class ${blocker.deviceClassName}`;
  }
}

/** One table row for a blocker on `node`. */
export function row(ctx: PlacementContext, node: string, blocker: Blocker): NodeCapacityRow {
  const holders = blocker.holders.map((h) => ({
    pod: h.pod.metadata.name ?? '',
    amount: blocker.kind === 'resource' ? formatAmount(blocker.resource, h.amount) : String(h.amount),
    ownedByThisDeployment: ctx.ours.has(h.pod),
  }));
  if (blocker.kind === 'devices') return deviceRow(ctx, node, blocker);
  if (blocker.kind === 'resource') {
    return {
      node,
      resource: blocker.resource,
      allocatable: formatAmount(blocker.resource, blocker.allocatable),
      used: formatAmount(blocker.resource, blocker.used),
      free: formatAmount(blocker.resource, blocker.allocatable - blocker.used),
      holders,
    };
  }
  const exclusive = blocker.kind === 'volume' && blocker.problem !== 'in-use-rwop' ? '0' : '1';
  return {
    node,
    resource: blockerResource(blocker),
    allocatable: exclusive,
    used: String(blocker.holders.length),
    free: '0',
    holders,
  };
}

/**
 * DRA devices: matching devices on the node, how many are taken, and each device with
 * the claim and pod holding it.
 */
function deviceRow(ctx: PlacementContext, node: string, blocker: DeviceBlocker): NodeCapacityRow {
  const uncertain = blocker.unknownMatching > 0 ? ` (+${blocker.unknownMatching} unknown)` : '';
  const ourNames = new Set([...ctx.ours].map((p) => p.metadata.name ?? ''));
  return {
    node,
    resource: blockerResource(blocker),
    allocatable: `${blocker.matching}${uncertain}`,
    used: String(blocker.matching - blocker.free),
    free: String(blocker.free),
    holders: blocker.held.map((h) => ({
      pod: h.pods.length > 0 ? h.pods.join(', ') : `(claim ${h.claim}, no pod)`,
      amount: `device ${h.device}, claim ${h.claim}`,
      ownedByThisDeployment: h.pods.length > 0 && h.pods.every((p) => ourNames.has(p)),
    })),
  };
}

/** Rows for the nodes' blockers (nodes that fit now get one row per requested resource). */
export function capacityRows(
  ctx: PlacementContext,
  incoming: Pod,
  assessments: NodeAssessment[],
): NodeCapacityRow[] {
  const ordered = [...assessments].sort((a, b) => rank(a) - rank(b));
  const rows: NodeCapacityRow[] = [];
  for (const assessment of ordered.slice(0, MAX_ROWS_NODES)) {
    const name = assessment.node.metadata.name ?? '';
    if (assessment.blockers.length > 0) {
      for (const blocker of assessment.blockers) rows.push(row(ctx, name, blocker));
      continue;
    }
    const allocatable = ctx.allocatable(assessment.node);
    const used = usedOn(ctx, name, incoming);
    for (const [resource, need] of Object.entries(ctx.requests(incoming))) {
      if (need <= 0) continue;
      const total = allocatable[resource] ?? 0;
      const inUse = used[resource] ?? 0;
      rows.push({
        node: name,
        resource,
        allocatable: formatAmount(resource, total),
        used: formatAmount(resource, inUse),
        free: formatAmount(resource, total - inUse),
        holders: [],
      });
    }
  }
  return rows;
}

/** Nodes where releasing our pods makes room first, then blocked ones, then free ones. */
function rank(assessment: NodeAssessment): number {
  if (assessment.blockers.length === 0) return 2;
  return assessment.release !== undefined ? 0 : 1;
}

function usedOn(ctx: PlacementContext, node: string, incoming: Pod): Record<string, number> {
  const used: Record<string, number> = {};
  for (const pod of ctx.occupantsByNode.get(node) ?? []) {
    if (pod === incoming) continue;
    for (const [resource, amount] of Object.entries(ctx.requests(pod)))
      used[resource] = (used[resource] ?? 0) + amount;
  }
  return used;
}

/** "1 nvidia.com/gpu (1 allocatable, 1 in use)" and the like, for summaries. */
export function describeBlocker(blocker: Blocker): string {
  switch (blocker.kind) {
    case 'resource': {
      const { resource, need, allocatable, capacity, used } = blocker;
      if (allocatable === 0 && capacity > 0)
        return `${formatAmount(resource, need)} ${resource}, which the node has (capacity ${formatAmount(resource, capacity)}) but reports none allocatable: the device is unhealthy`;
      if (allocatable === 0)
        return `${formatAmount(resource, need)} ${resource}, which the node does not have at all`;
      return `${formatAmount(resource, need)} ${resource} (${formatAmount(resource, allocatable)} allocatable, ${formatAmount(resource, used)} in use)`;
    }
    case 'host-port':
      return `${formatHostPort(blocker.port)}, already bound by ${holderNames(blocker)}`;
    case 'anti-affinity':
      return `no pod matching its required anti-affinity on the same ${blocker.topologyKey}, but ${holderNames(blocker)} runs there`;
    case 'topology-spread':
      return blocker.missingLabel
        ? `a node with the ${blocker.topologyKey} label its topology spread constraint counts by, which the node lacks`
        : `a place within its topology spread (maxSkew ${blocker.maxSkew} by ${blocker.topologyKey}): one more pod in ${blocker.domain} makes the skew ${blocker.skew}, counting ${holderNames(blocker)} there`;
    case 'devices':
      return describeDevices(blocker);
    case 'volume':
      if (blocker.problem === 'not-found')
        return `PersistentVolumeClaim "${blocker.claim}", which does not exist`;
      if (blocker.problem === 'unbound')
        return `PersistentVolumeClaim "${blocker.claim}", which is not bound to a volume`;
      if (blocker.problem === 'node-affinity')
        return `PersistentVolumeClaim "${blocker.claim}", bound to volume ${blocker.volume ?? ''} whose node affinity leaves this node out`;
      return `ReadWriteOncePod volume "${blocker.claim}", in use by ${holderNames(blocker)}`;
  }
}

/** The manifest change that keeps a spread constraint from blocking again, as a sentence, or ''. */
export function spreadLastingFix(blocker: Blocker): string {
  if (blocker.kind !== 'topology-spread' || !blocker.lastingFix) return '';
  return blocker.lastingFix === 'nodeTaintsPolicy'
    ? `The lasting fix is in the manifest: nodeTaintsPolicy: Honor on the ${blocker.topologyKey} constraint, so tainted nodes the pod cannot use stop counting as empty domains.`
    : `The lasting fix is in the manifest: matchLabelKeys: [pod-template-hash] on the ${blocker.topologyKey} constraint, so each revision is spread on its own and old pods no longer count against new ones.`;
}

export function holderNames(blocker: Blocker): string {
  const names = blocker.holders.map((h) => h.pod.metadata.name ?? '?');
  return names.length > 3 ? `${names.slice(0, 3).join(', ')} and ${names.length - 3} more` : names.join(', ');
}

/**
 * A request whose selectors match no device any ResourceSlice publishes, on any node:
 * "its selector `…` matches none of the 4 published devices of class gpu.nvidia.com",
 * or the DeviceClass's own selectors match none of the devices published.
 */
function noPublishedMatch(blocker: DeviceBlocker): string {
  const p = blocker.published;
  if (!p) return '';
  const cls = `DeviceClass ${blocker.deviceClassName}`;
  if (p.ofClass > 0 && p.selectors.length > 0) {
    const which = p.selectors.length === 1 ? 'selector' : 'selectors';
    return `and its ${which} ${p.selectors.map((e) => codeSpan(e)).join(' and ')} match${p.selectors.length === 1 ? 'es' : ''} none of the ${p.ofClass} published device${p.ofClass === 1 ? '' : 's'} of ${cls} (on any node)`;
  }
  return `and ${cls} matches none of the ${p.devices} device${p.devices === 1 ? '' : 's'} ResourceSlices publish (on any node)`;
}

/** "1 device of class gpu.nvidia.com for claim gpu (...) (1 matching on the node, 0 free)". */
function describeDevices(blocker: DeviceBlocker): string {
  if (blocker.allocatedElsewhere)
    return blocker.holders.length > 0
      ? `${blocker.request}, which stays allocated on another node while ${holderNames(blocker)} use${blocker.holders.length === 1 ? 's' : ''} it (the scheduler says "resourceclaim not available on the node")`
      : `${blocker.request}, which is already allocated on another node (the scheduler says "resourceclaim not available on the node")`;
  const what =
    blocker.allocationMode === 'All'
      ? `every device of class ${blocker.deviceClassName}`
      : `${blocker.need} device${blocker.need === 1 ? '' : 's'} of class ${blocker.deviceClassName}`;
  const extra = [
    blocker.unknownMatching > 0
      ? `${blocker.unknownMatching} more ${blocker.unknownRead ? 'that cannot be counted' : 'whose selector could not be evaluated'}`
      : '',
    blocker.tainted > 0 ? `${blocker.tainted} matching but tainted` : '',
  ].filter(Boolean);
  const published = blocker.published;
  if (published && published.matching === 0)
    return `${what} for ${blocker.request}, ${noPublishedMatch(blocker)}`;
  // Checked with the old pods taken away, some free devices are held now: say both.
  const free =
    blocker.released > 0
      ? `${blocker.free - blocker.released} free now, ${blocker.free} with the old pods gone`
      : `${blocker.free} free`;
  return `${what} for ${blocker.request} (${blocker.matching} matching on the node, ${free}${extra.length > 0 ? `; ${extra.join(', ')}` : ''})`;
}
