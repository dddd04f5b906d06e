/**
 * Would the pod's DRA requests be satisfied on a node, with some pods gone? The
 * allocator gives each request devices that match it and that no claim holds; a
 * claim's devices come free when every pod it is reserved for is gone (per-pod claims
 * are deleted with their pod; a claim with no user left is deallocated). Requests are
 * served greedily in order, each from devices the earlier ones did not take.
 *
 * Certainty: a device whose selector could not be evaluated is never counted as
 * matching, and devices not seen held are free only when claims were read in every
 * namespace; the caller marks such nodes as not known.
 *
 * The steps are modules of their own: the index the check reads (dra-index.ts), which
 * devices match (device-matching.ts), which of them are free (free-devices.ts), what
 * is published anywhere (published-match.ts), and the blocker it reports
 * (device-blocker.ts).
 */
import type { Node, Pod } from '../k8s.js';
import type { ResourceClaim } from '../k8s-dra.js';
import { matchesTerms } from '../base/node-match.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { DeviceBlocker } from './device-blocker.js';
import { matchingDevices } from './device-matching.js';
import { devicesOnNode, type NodeDevice } from './devices.js';
import { freedBy, indexOf, needsOf, type DraIndex } from './dra-index.js';
import { holderRecorder, takeFree } from './free-devices.js';
import type { Alternative, DeviceNeed } from './needs.js';
import { publishedField } from './published-match.js';

interface DeviceVerdict {
  blockers: DeviceBlocker[];
  /** Why the device side of this node cannot be settled (requests or claims not read). */
  unknown: string[];
}

interface DeviceCheckOptions {
  /** Pods taken away (their claims freed when they were the last users). */
  removed?: ReadonlySet<Pod>;
  /** Count as free only devices the removed pods' claims free (the proof without full occupancy). */
  onlyFreedByRemoved?: boolean;
  /** Count as free the devices of claims the controller or the garbage collector is freeing. */
  freeing?: boolean;
}

/**
 * The device blockers of `incoming` on `node`. Undefined when the snapshot holds no
 * DRA objects or the pod uses no DRA.
 */
export function deviceVerdict(
  ctx: AnalysisContext,
  incoming: Pod,
  node: Node,
  options: DeviceCheckOptions = {},
): DeviceVerdict | undefined {
  const index = indexOf(ctx);
  const needs = needsOf(ctx, incoming);
  if (!index || !needs) return undefined;
  if (needs.needs.length === 0 && needs.shared.length === 0 && needs.pinned.length === 0) {
    return needs.unknown.length > 0 ? { blockers: [], unknown: [...needs.unknown] } : undefined;
  }
  const removedUids = new Set(
    [...(options.removed ?? [])].map((p) => p.metadata.uid).filter((u): u is string => Boolean(u)),
  );
  const blockers: DeviceBlocker[] = [];
  // A shared claim allocated where this node is not: the pod cannot use it here while
  // any pod uses it. With every user gone it is deallocated, and the pod's scheduling
  // allocates it anew: then its requests are served here like any other.
  const reallocated: DeviceNeed[] = [];
  for (const shared of needs.shared) {
    if (!shared.allocatedTo || matchesTerms(node, shared.allocatedTo)) continue;
    if (shared.userUids.length > 0 && shared.userUids.every((u) => removedUids.has(u))) {
      reallocated.push(...shared.needs);
      continue;
    }
    const users = shared.userUids.flatMap((u) => {
      const pod = index.podsByUid.get(u);
      return pod ? [{ pod, amount: 1 }] : [];
    });
    blockers.push({
      ...elsewhere(`shared claim ${shared.claim}`, shared.claim),
      deviceClassName: shared.needs[0]?.alternatives[0]?.deviceClassName ?? '',
      holders: users,
    });
  }
  for (const pinned of needs.pinned) {
    if (!matchesTerms(node, pinned.terms)) blockers.push(elsewhere(`claim ${pinned.claim}`, pinned.claim));
  }
  let devices = index.devicesByNode.get(node);
  if (!devices) {
    devices = devicesOnNode(index.dra.slices, node).devices;
    index.devicesByNode.set(node, devices);
  }
  const taken = new Set<string>();
  const unknown = [...needs.unknown];
  // Without every ResourceSlice the devices on the node are unknown: zero devices read
  // is not zero devices there (never "no matching device", never room).
  const slicesRead = ctx.snapshot.coverage.dra?.slices === 'complete';
  for (const need of [...needs.needs, ...reallocated]) {
    if (need.extendedResource && node.status?.allocatable?.[need.extendedResource] !== undefined) continue;
    if (!slicesRead && !options.onlyFreedByRemoved) {
      unknown.push(
        `the devices on ${node.metadata.name ?? ''} (ResourceSlices not read: kubectl get resourceslices -o yaml)`,
      );
      continue;
    }
    const freed = (claim: ResourceClaim): boolean =>
      freedBy(index, claim, removedUids, options.freeing === true);
    const blocker = checkNeed(index, need, devices, taken, freed, options.onlyFreedByRemoved === true);
    if (blocker) blockers.push(blocker);
  }
  return { blockers, unknown };
}

function elsewhere(request: string, claim: string): DeviceBlocker {
  return {
    kind: 'devices',
    request,
    deviceClassName: '',
    need: 1,
    allocationMode: 'ExactCount',
    matching: 0,
    free: 0,
    released: 0,
    unknownMatching: 0,
    tainted: 0,
    holders: [],
    held: [],
    allocatedElsewhere: claim,
  };
}

/**
 * Serves one need from the node's devices. When no alternative fits, the blocker is
 * that of the first alternative with matching devices (whose holders could free it),
 * else of the first one.
 */
function checkNeed(
  index: DraIndex,
  need: DeviceNeed,
  devices: readonly NodeDevice[],
  taken: Set<string>,
  freed: (claim: ResourceClaim) => boolean,
  onlyFreed: boolean,
): DeviceBlocker | undefined {
  let first: DeviceBlocker | undefined;
  for (const alternative of need.alternatives) {
    const { blocker, chosen } = checkAlternative(index, need, alternative, devices, taken, freed, onlyFreed);
    if (!blocker) {
      chosen.forEach((k) => taken.add(k));
      return undefined;
    }
    if (!first || (first.matching === 0 && blocker.matching > 0)) first = blocker;
  }
  return first;
}

function checkAlternative(
  index: DraIndex,
  need: DeviceNeed,
  alternative: Alternative,
  devices: readonly NodeDevice[],
  taken: ReadonlySet<string>,
  freed: (claim: ResourceClaim) => boolean,
  onlyFreed: boolean,
): { blocker?: DeviceBlocker; chosen: string[] } {
  const seen = matchingDevices(index, alternative, devices);
  const { matching, unknown, tainted } = seen;
  const recorder = holderRecorder(index);
  const { free, released, heldUnknown } = takeFree(
    index,
    alternative,
    matching,
    { taken, freed, onlyFreed },
    recorder,
    unknown,
  );
  const all = (alternative.allocationMode ?? 'ExactCount') === 'All';
  const count = all ? Math.max(matching.length, 1) : (alternative.count ?? 1);
  // "All" takes every matching device, tainted ones included: one taint the request
  // does not tolerate makes it fail on this node, whoever else goes.
  const fits = all
    ? matching.length > 0 && tainted === 0 && free.length === matching.length && unknown.count === 0
    : free.length >= count;
  if (fits) return { chosen: free.slice(0, all ? free.length : count).map((d) => d.key) };
  return {
    chosen: [],
    blocker: {
      kind: 'devices',
      request: `${need.label}${alternative.request.includes('/') ? ` (alternative ${alternative.request})` : ''}`,
      deviceClassName: alternative.deviceClassName,
      need: count,
      allocationMode: all ? 'All' : 'ExactCount',
      matching: matching.length - heldUnknown,
      free: free.length,
      released,
      unknownMatching: unknown.count,
      ...(unknown.why ? { unknownWhy: unknown.why } : {}),
      ...(unknown.read ? { unknownRead: unknown.read } : {}),
      ...(seen.selectorError ? { selectorError: seen.selectorError } : {}),
      tainted,
      holders: [...recorder.holders.entries()].map(([pod, amount]) => ({ pod, amount })),
      held: recorder.held,
      ...(matching.length === 0 && unknown.count === 0 && tainted === 0
        ? publishedField(index, alternative)
        : {}),
    },
  };
}

/**
 * Device occupancy on nodes is known for this pod: it uses no DRA, or every claim of
 * every namespace and the slices were read. Otherwise why not.
 */
export function deviceOccupancyGap(ctx: AnalysisContext, pod: Pod): string | undefined {
  const { snapshot } = ctx;
  const needs = needsOf(ctx, pod);
  const usesDevices = (pod.spec.resourceClaims ?? []).length > 0 || (needs?.needs.length ?? 0) > 0;
  if (!usesDevices) return undefined;
  const dra = snapshot.coverage.dra;
  if (!snapshot.dra || !dra)
    return 'the DRA objects (ResourceClaims, ResourceSlices, DeviceClasses) were not read';
  if (dra.claims !== 'all')
    return 'ResourceClaims of other namespaces were not read, so who holds the devices is not known (grant list on resourceclaims cluster-wide)';
  if (dra.slices !== 'complete')
    return 'the ResourceSlices were not read completely (grant list on resourceslices)';
  return undefined;
}
