/**
 * The matching devices free for a pod on a node: not taken by an earlier request of the
 * pod, not held by a claim still in use, and within the shared counters of their pool
 * (partitionable devices, smallest consumption first, as the allocator can); who holds
 * the others is recorded for the blocker.
 */
import type { Pod } from '../k8s.js';
import type { ResourceClaim } from '../k8s-dra.js';
import { fits, remainingCounters, shareCounters, take, type Counters } from './counters.js';
import type { HeldDevice } from './device-blocker.js';
import type { Unknowns } from './device-matching.js';
import type { Holding, NodeDevice } from './devices.js';
import { claimName, consumers, standIn, unusedState, type DraIndex } from './dra-index.js';
import type { Alternative } from './needs.js';

/** Who holds the devices in the way: each device and claim once, each pod with how many it holds. */
export function holderRecorder(index: DraIndex): {
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
export function takeFree(
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
