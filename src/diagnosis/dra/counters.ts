/**
 * Partitionable devices (KEP 4815): a pool publishes shared counters (a GPU's memory
 * and multiprocessors) and each device says what allocating it consumes from them, so
 * a whole GPU and its MIG partitions exclude each other without either being held by
 * name. As in the upstream allocator (checkAvailableCounters), a device is available
 * only when its consumption fits what the allocated devices of its pool leave.
 */
import type { Device, ResourceSlice } from '../k8s-dra.js';
import { quantityMilli } from '../base/quantity.js';
import { deviceFields } from './cel.js';
import { currentSlices, deviceKey } from './devices.js';

/** Counter amounts (milli-units) by `<counter set>/<counter>`. */
export type Counters = Map<string, number>;

export interface CounterIndex {
  /** Each pool's shared counters (`<driver>/<pool>`). */
  totals: Map<string, Counters>;
  /** The counter-consuming devices of the current generation, by device key. */
  devices: Map<string, { pool: string; consumes: Counters }>;
}

function amounts(
  sets: readonly {
    name?: string;
    counterSet?: string;
    counters: Record<string, { value: string | number }>;
  }[],
): Counters {
  const out: Counters = new Map();
  for (const set of sets) {
    for (const [name, counter] of Object.entries(set.counters ?? {})) {
      const key = `${set.name ?? set.counterSet ?? ''}/${name}`;
      out.set(key, (out.get(key) ?? 0) + quantityMilli(counter.value));
    }
  }
  return out;
}

/** What allocating `device` consumes; empty for a device that consumes no counters. */
function consumption(device: Device): Counters {
  try {
    return amounts(deviceFields(device).consumesCounters ?? []);
  } catch {
    return new Map([['(unreadable)', Infinity]]);
  }
}

export function counterIndex(slices: readonly ResourceSlice[]): CounterIndex {
  const totals = new Map<string, Counters>();
  const devices = new Map<string, { pool: string; consumes: Counters }>();
  for (const slice of currentSlices(slices)) {
    const pool = `${slice.spec.driver}/${slice.spec.pool.name}`;
    if (slice.spec.sharedCounters) {
      let shared: Counters;
      try {
        shared = amounts(slice.spec.sharedCounters);
      } catch {
        shared = new Map();
      }
      const total = totals.get(pool) ?? new Map<string, number>();
      for (const [key, value] of shared) total.set(key, (total.get(key) ?? 0) + value);
      totals.set(pool, total);
    }
    for (const device of slice.spec.devices ?? []) {
      const consumes = consumption(device);
      if (consumes.size > 0)
        devices.set(deviceKey(slice.spec.driver, slice.spec.pool.name, device.name), { pool, consumes });
    }
  }
  return { totals, devices };
}

/** What is left of `pool`'s counters once the devices `allocated` (keys) take theirs. */
export function remainingCounters(index: CounterIndex, pool: string, allocated: Iterable<string>): Counters {
  const left = new Map(index.totals.get(pool) ?? []);
  for (const key of allocated) {
    const device = index.devices.get(key);
    if (device?.pool !== pool) continue;
    for (const [counter, value] of device.consumes) left.set(counter, (left.get(counter) ?? 0) - value);
  }
  return left;
}

/** `consumes` fits in `left` (a counter the pool does not publish has nothing left). */
export function fits(consumes: Counters, left: Counters): boolean {
  return [...consumes].every(([counter, value]) => value <= (left.get(counter) ?? 0));
}

/** Takes `consumes` out of `left`. */
export function take(consumes: Counters, left: Counters): void {
  for (const [counter, value] of consumes) left.set(counter, (left.get(counter) ?? 0) - value);
}

/** The two devices draw on a common counter. */
export function shareCounters(a: Counters, b: Counters): boolean {
  return [...a.keys()].some((counter) => b.has(counter));
}
