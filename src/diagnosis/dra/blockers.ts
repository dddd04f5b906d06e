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
 */
import type { Node, Pod, ResourceClaim } from '../k8s.js';
import { matchesTerms } from '../base/node-match.js';
import type { AnalysisContext } from '../analysis-context.js';
import type { DraObjects } from '../snapshot/types.js';
import { deviceFields } from './cel.js';
import {
  counterIndex,
  fits,
  remainingCounters,
  shareCounters,
  take,
  type CounterIndex,
  type Counters,
} from './counters.js';
import {
  allocatedDevices,
  devicesOnNode,
  matchDevice,
  publishedDevices,
  type DeviceMatch,
  type Holding,
  type NodeDevice,
} from './devices.js';
import { podDeviceNeeds, type Alternative, type DeviceNeed, type PodDeviceNeeds } from './needs.js';
import { unusedClaimState, type PodLookup, type UnusedClaimState } from './unused-claims.js';

export interface DeviceHolder {
  /** The pod (a stand-in with name and uid when the pod itself was not read). */
  pod: Pod;
  devices: string[];
  claims: string[];
}

export interface HeldDevice {
  device: string;
  claim: string;
  pods: string[];
  /** For a claim no pod uses: why it still holds the device (unused-claims.ts). */
  unused?: string;
}

export interface DeviceBlocker {
  kind: 'devices';
  /** "claim gpu (vision/tracker-...-gpu-x7kqz), request gpu". */
  request: string;
  deviceClassName: string;
  /** What the request needs: a count (ExactCount) or every matching device (All). */
  need: number;
  allocationMode: string;
  /** Devices on the node that match (selectors evaluated, taints tolerated). */
  matching: number;
  free: number;
  /**
   * Of `free`, the devices free only because the check took pods away (the old pods,
   * or claims being freed): held now. The sentence says both counts.
   */
  released: number;
  /** Devices whose match could not be evaluated. */
  unknownMatching: number;
  /** Why unknownMatching devices are unknown (the first reason). */
  unknownWhy?: string;
  /** What would settle them, when not an evaluation of the selectors. */
  unknownRead?: string;
  /**
   * A selector fails on some device with a CEL runtime error, as it does upstream (those
   * devices are among unknownMatching): the scheduler aborts scheduling the pod with
   * that error whenever its search reaches such a device.
   */
  selectorError?: string;
  /** Devices that match but carry a taint the request does not tolerate. */
  tainted: number;
  holders: { pod: Pod; amount: number }[];
  /** Matching devices and who holds them, for the capacity table. */
  held: HeldDevice[];
  /** Set for a claim allocated on other nodes (shared claim, or a claim pinned earlier). */
  allocatedElsewhere?: string;
  /**
   * Nothing on the node matches, and every ResourceSlice and DeviceClass was read: how
   * the devices published anywhere fare. `ofClass` pass the DeviceClass's selectors,
   * `matching` the request's `selectors` (CEL) too. Absent where a match is unknown.
   */
  published?: PublishedMatch;
}

export interface PublishedMatch {
  devices: number;
  ofClass: number;
  matching: number;
  selectors: string[];
}

export interface DeviceVerdict {
  blockers: DeviceBlocker[];
  /** Why the device side of this node cannot be settled (requests or claims not read). */
  unknown: string[];
}

interface DraIndex {
  dra: DraObjects;
  held: Map<string, Holding[]>;
  podsByUid: Map<string, Pod>;
  classesComplete: boolean;
  needs: WeakMap<Pod, PodDeviceNeeds>;
  /** Match results per request alternative and device key (CEL is evaluated once). */
  matches: WeakMap<Alternative, Map<string, DeviceMatch>>;
  devicesByNode: WeakMap<Node, NodeDevice[]>;
  /** Stand-ins by uid for pods a claim names that the snapshot does not hold (one object each). */
  standIns: Map<string, Pod>;
  /** Shared counters of partitionable devices. */
  counters: CounterIndex;
  pods: PodLookup;
  /** What holds an allocated claim no pod is reserved for (memoized). */
  unused: WeakMap<ResourceClaim, UnusedClaimState>;
  /** Every ResourceSlice and DeviceClass was read: a device published nowhere is none. */
  publishedComplete: boolean;
  /** How the published devices fare against an alternative (memoized). */
  published: WeakMap<Alternative, PublishedMatch | undefined>;
}

/** The DRA index of the context's snapshot (built once per context; none without DRA objects). */
function indexOf(ctx: AnalysisContext): DraIndex | undefined {
  return ctx.once('dra-index', () => buildIndex(ctx));
}

function buildIndex(ctx: AnalysisContext): DraIndex | undefined {
  const { snapshot } = ctx;
  const dra = snapshot.dra;
  if (!dra) return undefined;
  const read = [...snapshot.pods, ...snapshot.otherPods];
  const podsByUid = new Map(
    read.filter((p) => p.metadata.uid).map((p) => [p.metadata.uid ?? '', p] as const),
  );
  return {
    dra,
    held: allocatedDevices(dra.claims),
    podsByUid,
    pods: {
      byUid: podsByUid,
      byName: new Map(
        read.map((p) => [`${p.metadata.namespace ?? ''}/${p.metadata.name ?? ''}`, p] as const),
      ),
      complete: snapshot.coverage.podsReadOn === 'all',
      capturedAt: snapshot.capturedAt,
    },
    unused: new WeakMap(),
    classesComplete: snapshot.coverage.dra?.classes === 'complete',
    publishedComplete:
      snapshot.coverage.dra?.classes === 'complete' && snapshot.coverage.dra.slices === 'complete',
    published: new WeakMap(),
    needs: new WeakMap(),
    matches: new WeakMap(),
    devicesByNode: new WeakMap(),
    standIns: new Map(),
    counters: counterIndex(dra.slices),
  };
}

/** The pod's DRA needs in the context's snapshot (computed once per pod and context). */
export function needsOf(ctx: AnalysisContext, pod: Pod): PodDeviceNeeds | undefined {
  const index = indexOf(ctx);
  if (!index) return undefined;
  let needs = index.needs.get(pod);
  if (!needs) {
    const read = ctx.snapshot.coverage.dra?.claims;
    needs = podDeviceNeeds(pod, index.dra, read === 'all' || read === 'namespace');
    index.needs.set(pod, needs);
  }
  return needs;
}

/** Pods a claim is reserved for. */
function reservedPods(claim: ResourceClaim): { name: string; uid: string }[] {
  return (claim.status?.reservedFor ?? []).filter((r) => r.resource === 'pods');
}

/** What holds a claim no pod is reserved for. */
function unusedState(index: DraIndex, claim: ResourceClaim): UnusedClaimState {
  let state = index.unused.get(claim);
  if (!state) {
    state = unusedClaimState(claim, index.pods);
    index.unused.set(claim, state);
  }
  return state;
}

/** The pods using a claim: those it is reserved for, else the pod it was generated for while that pod may run. */
function consumers(index: DraIndex, claim: ResourceClaim): { name: string; uid: string }[] {
  const reserved = reservedPods(claim);
  if (reserved.length > 0) return reserved;
  const state = unusedState(index, claim);
  return state.kind === 'owner'
    ? [{ name: state.pod.metadata.name ?? '', uid: state.pod.metadata.uid ?? '' }]
    : [];
}

function claimName(claim: ResourceClaim): string {
  return `${claim.metadata.namespace ?? ''}/${claim.metadata.name ?? ''}`;
}

/**
 * The claim comes free with `removed` gone: every pod it is reserved for is among them;
 * with `freeing`, also a claim the controller or the garbage collector frees by itself.
 */
function freedBy(
  index: DraIndex,
  claim: ResourceClaim,
  removedUids: ReadonlySet<string>,
  freeing: boolean,
): boolean {
  const users = consumers(index, claim);
  if (users.length > 0) return users.every((u) => removedUids.has(u.uid));
  return freeing && unusedState(index, claim).kind === 'freeing';
}

export interface DeviceCheckOptions {
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
  for (const shared of needs.shared) {
    if (shared.allocatedTo && !matchesTerms(node, shared.allocatedTo)) {
      blockers.push(elsewhere(`shared claim ${shared.claim}`, shared.claim));
    }
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
  for (const need of needs.needs) {
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

function publishedField(index: DraIndex, alternative: Alternative): { published?: PublishedMatch } {
  if (!index.publishedComplete) return {};
  if (!index.published.has(alternative)) index.published.set(alternative, publishedMatch(index, alternative));
  const published = index.published.get(alternative);
  return published ? { published } : {};
}

/**
 * The published devices (every node's) against the DeviceClass's selectors alone and
 * with the request's: a match is counted whatever holds the device or taints it. Undefined
 * when a selector cannot be settled on some device.
 */
function publishedMatch(index: DraIndex, alternative: Alternative): PublishedMatch | undefined {
  const devices = publishedDevices(index.dra.slices);
  const classOnly = { ...alternative, selectors: [] };
  let ofClass = 0;
  let matching = 0;
  for (const device of devices) {
    const byClass = matchDevice(classOnly, index.dra.classes, true, device).result;
    if (byClass === 'unknown' || byClass === 'error') return undefined;
    if (byClass === 'no-match') continue;
    ofClass++;
    const both = matchDevice(alternative, index.dra.classes, true, device).result;
    if (both === 'unknown' || both === 'error') return undefined;
    if (both !== 'no-match') matching++;
  }
  const selectors = (alternative.selectors ?? []).flatMap((s) => (s.cel ? [s.cel.expression] : []));
  return { devices: devices.length, ofClass, matching, selectors };
}

/** Devices that may match but cannot be counted: how many, the first reason, and the read that settles it. */
interface Unknowns {
  count: number;
  why?: string;
  read?: string;
}

/** The node's devices the alternative's selectors match (memoized per alternative and device). */
function matchingDevices(
  index: DraIndex,
  alternative: Alternative,
  devices: readonly NodeDevice[],
): { matching: NodeDevice[]; unknown: Unknowns; selectorError?: string; tainted: number } {
  const matching: NodeDevice[] = [];
  const unknown: Unknowns = { count: 0 };
  let selectorError: string | undefined;
  let tainted = 0;
  let memo = index.matches.get(alternative);
  if (!memo) {
    memo = new Map();
    index.matches.set(alternative, memo);
  }
  for (const device of devices) {
    let match = memo.get(device.key);
    if (!match) {
      match = matchDevice(alternative, index.dra.classes, index.classesComplete, device);
      memo.set(device.key, match);
    }
    // A device this model cannot count (a pool the scheduler skips, capacity shared by
    // several claims) is unknown, never free and never a holder's to release.
    const uncounted = match.result === 'no-match' ? undefined : uncountable(device);
    if (uncounted) {
      unknown.count++;
      if (!unknown.why) [unknown.why, unknown.read] = uncounted;
    } else if (match.result === 'match') matching.push(device);
    else if (match.result === 'unknown') {
      unknown.count++;
      unknown.why ??= match.why;
    } else if (match.result === 'error') {
      // Never a match, and never settled as "no device": where the scheduler's search
      // reaches this device it stops scheduling the pod with the error.
      unknown.count++;
      selectorError ??= `${match.why} (device ${device.key})`;
    } else if (match.result === 'tainted') tainted++;
  }
  return { matching, unknown, ...(selectorError ? { selectorError } : {}), tainted };
}

/** Who holds the devices in the way: each device and claim once, each pod with how many it holds. */
function holderRecorder(index: DraIndex): {
  record(name: string, holding: Holding): void;
  held: HeldDevice[];
  holders: Map<Pod, number>;
} {
  const held: HeldDevice[] = [];
  const holders = new Map<Pod, number>();
  const recorded = new Set<string>();
  const record = (name: string, holding: Holding): void => {
    const id = `${name}\0${claimName(holding.claim)}`;
    if (recorded.has(id)) return;
    recorded.add(id);
    const users = consumers(index, holding.claim);
    const unused = users.length === 0 ? unusedState(index, holding.claim) : undefined;
    held.push({
      device: name,
      claim: claimName(holding.claim),
      pods: users.map((u) => u.name),
      ...(unused && unused.kind !== 'owner' ? { unused: unused.why } : {}),
    });
    for (const user of users) {
      const pod = index.podsByUid.get(user.uid) ?? standIn(index, holding.claim, user);
      holders.set(pod, (holders.get(pod) ?? 0) + 1);
    }
  };
  return { record, held, holders };
}

/**
 * The matching devices free for this pod, smallest consumption first: not taken by an
 * earlier request of the pod, not held by a claim still in use (or, `onlyFreed`, freed
 * by the claims `freed` releases), and within the pool's shared counters. What holds
 * the others is recorded; a holding whose pod was not read is unknown.
 */
function takeFree(
  index: DraIndex,
  alternative: Alternative,
  matching: readonly NodeDevice[],
  pick: {
    taken: ReadonlySet<string>;
    freed: (claim: ResourceClaim) => boolean;
    onlyFreed: boolean;
  },
  recorder: { record(name: string, holding: Holding): void },
  unknown: Unknowns,
): { free: NodeDevice[]; released: number; heldUnknown: number } {
  const { taken, freed, onlyFreed } = pick;
  const free: NodeDevice[] = [];
  let released = 0;
  let heldUnknown = 0;
  const stillHeldBy = (key: string): Holding[] => (index.held.get(key) ?? []).filter((h) => !freed(h.claim));
  const counters = counterState(index, taken, stillHeldBy);
  for (const device of bySmallestConsumption(index, matching)) {
    if (taken.has(device.key)) continue;
    // Admin access (monitoring, diagnostics) does not take the device: another claim holding it does not matter.
    if (alternative.adminAccess === true) {
      free.push(device);
      continue;
    }
    const holdings = index.held.get(device.key) ?? [];
    const stillHeld = holdings.filter((h) => !freed(h.claim));
    const unsettled = unsettledHolding(index, stillHeld);
    if (unsettled) {
      // Held by a claim no pod uses whose pod was not read: neither free nor another's.
      heldUnknown++;
      unknown.count++;
      if (!unknown.why) [unknown.why, unknown.read] = [unsettled.why, unsettled.read];
      continue;
    }
    const freedNow = holdings.length > 0 && stillHeld.length === 0;
    if (stillHeld.length === 0 && (!onlyFreed || freedNow)) {
      // A partition is free only when what it consumes fits what the pool's allocated
      // devices leave; a device freed by name gets its own consumption back, so the
      // proof from freed claims alone needs no counters.
      const blocking = onlyFreed ? undefined : counters.blockers(device);
      if (!blocking) {
        free.push(device);
        if (freedNow) released++;
        continue;
      }
      for (const sibling of blocking)
        for (const holding of stillHeldBy(sibling.key)) recorder.record(sibling.name, holding);
      continue;
    }
    for (const holding of stillHeld) recorder.record(device.name, holding);
  }
  return { free, released, heldUnknown };
}

/**
 * The pools' counters left by the devices still allocated (and those this pod's
 * earlier requests took); `blockers` takes a device's consumption when it fits
 * (undefined) and otherwise names the allocated devices drawing on the same counters
 * (none when devices counted free before it took them).
 */
function counterState(
  index: DraIndex,
  taken: ReadonlySet<string>,
  stillHeldBy: (key: string) => Holding[],
): { blockers: (device: NodeDevice) => { key: string; name: string }[] | undefined } {
  const left = new Map<string, Counters>();
  const allocated = [...index.counters.devices.keys()].filter(
    (key) => taken.has(key) || stillHeldBy(key).length > 0,
  );
  return {
    blockers(device) {
      const own = index.counters.devices.get(device.key);
      if (!own) return undefined;
      let pool = left.get(own.pool);
      if (!pool) {
        pool = remainingCounters(index.counters, own.pool, allocated);
        left.set(own.pool, pool);
      }
      if (fits(own.consumes, pool)) {
        take(own.consumes, pool);
        return undefined;
      }
      const siblings = allocated.filter((key) => {
        const other = index.counters.devices.get(key);
        return other?.pool === own.pool && key !== device.key && shareCounters(own.consumes, other.consumes);
      });
      return siblings.map((key) => ({ key, name: key.slice(own.pool.length + 1) }));
    },
  };
}

/** Partitions that consume less first, so that counting free ones finds as many as the allocator can. */
function bySmallestConsumption(index: DraIndex, devices: readonly NodeDevice[]): NodeDevice[] {
  const size = (d: NodeDevice): number =>
    [...(index.counters.devices.get(d.key)?.consumes.values() ?? [])].reduce((a, b) => a + b, 0);
  return [...devices].sort((a, b) => size(a) - size(b));
}

/** Holdings (none by a pod) of which one is a claim whose pod was not read: what settles it. */
function unsettledHolding(
  index: DraIndex,
  holdings: readonly Holding[],
): { why: string; read: string } | undefined {
  if (holdings.length === 0 || holdings.some((h) => consumers(index, h.claim).length > 0)) return undefined;
  for (const holding of holdings) {
    const state = unusedState(index, holding.claim);
    if (state.kind === 'unknown') return { why: state.why, read: state.read };
  }
  return undefined;
}

/** Why the model cannot count this device as free or held, and what would settle it. */
function uncountable(device: NodeDevice): [why: string, read: string] | undefined {
  if (device.unusable) {
    return [
      device.unusable,
      'the ResourceSlices once the driver has republished the whole pool (kubectl get resourceslices -o yaml)',
    ];
  }
  if (deviceFields(device.device).allowMultipleAllocations === true) {
    return [
      `device ${device.name} may be shared by several claims (allowMultipleAllocations), and how much of its capacity they take is not modeled`,
      `the capacity the claims sharing ${device.key} consume (status.allocation.devices.results[].consumedCapacity in kubectl get resourceclaims -A -o yaml; this analysis does not add it up)`,
    ];
  }
  return undefined;
}

/** A pod named by a claim's reservedFor that the snapshot does not hold (another namespace). */
function standIn(index: DraIndex, claim: ResourceClaim, user: { name: string; uid: string }): Pod {
  let pod = index.standIns.get(user.uid);
  if (!pod) {
    pod = {
      metadata: {
        name: user.name,
        uid: user.uid,
        ...(claim.metadata.namespace ? { namespace: claim.metadata.namespace } : {}),
      },
      spec: { containers: [] },
    };
    index.standIns.set(user.uid, pod);
  }
  return pod;
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
