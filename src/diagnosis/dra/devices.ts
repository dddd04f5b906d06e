/**
 * Devices as the DRA allocator sees them: published per pool in ResourceSlices (only
 * a pool's newest generation counts, and a pool is complete when all of its
 * `resourceSliceCount` slices are there), available on a node through the slice's
 * `nodeName`, `nodeSelector` or `allNodes`, and taken by the allocation results of
 * claims in any namespace. Matching a request covers the DeviceClass's selectors, the
 * request's selectors and device taints against the request's tolerations.
 */
import type {
  Device,
  DeviceClass,
  DeviceTaint,
  DeviceToleration,
  ExactDeviceRequest,
  ResourceClaim,
  ResourceSlice,
} from '../k8s-dra.js';
import type { Node } from '../k8s.js';
import { matchesTerms } from '../base/node-match.js';
import { deviceFields, evaluateSelectors, type SelectorResult } from './cel.js';

export interface NodeDevice {
  /** `<driver>/<pool>/<device>`, as allocation results name it. */
  key: string;
  driver: string;
  pool: string;
  name: string;
  device: Device;
  /**
   * Why the allocator will not hand this device out now, whatever holds it: its pool's
   * newest generation is not fully published, or names a device twice (the scheduler
   * skips such a pool until the driver has republished it).
   */
  unusable?: string;
}

interface NodeDevices {
  devices: NodeDevice[];
  /** Pools whose newest generation is not fully published: their devices may be more. */
  incompletePools: string[];
}

export function deviceKey(driver: string, pool: string, device: string): string {
  return `${driver}/${pool}/${device}`;
}

/** The slices of each pool's newest generation (older ones are being replaced). */
export function currentSlices(slices: readonly ResourceSlice[]): ResourceSlice[] {
  const newest = new Map<string, number>();
  for (const slice of slices) {
    const pool = `${slice.spec.driver}/${slice.spec.pool.name}`;
    newest.set(pool, Math.max(newest.get(pool) ?? -Infinity, slice.spec.pool.generation));
  }
  return slices.filter((s) => s.spec.pool.generation === newest.get(`${s.spec.driver}/${s.spec.pool.name}`));
}

/** The devices a pod on `node` could get. */
export function devicesOnNode(slices: readonly ResourceSlice[], node: Node): NodeDevices {
  const current = currentSlices(slices);
  const published = new Map<string, number>();
  for (const slice of current) {
    const pool = `${slice.spec.driver}/${slice.spec.pool.name}`;
    published.set(pool, (published.get(pool) ?? 0) + 1);
  }
  const unusable = unusablePools(current, published);
  const devices: NodeDevice[] = [];
  const pools = new Set<string>();
  const name = node.metadata.name ?? '';
  for (const slice of current) {
    const { driver, pool } = slice.spec;
    const here =
      slice.spec.nodeName !== undefined
        ? slice.spec.nodeName === name
        : slice.spec.allNodes === true ||
          slice.spec.perDeviceNodeSelection === true ||
          (slice.spec.nodeSelector !== undefined &&
            matchesTerms(node, slice.spec.nodeSelector.nodeSelectorTerms));
    if (!here) continue;
    pools.add(`${driver}/${pool.name}`);
    for (const device of slice.spec.devices ?? []) {
      if (slice.spec.perDeviceNodeSelection === true && !deviceOnNode(device, node)) continue;
      const why = unusable.get(`${driver}/${pool.name}`);
      devices.push({
        key: deviceKey(driver, pool.name, device.name),
        driver,
        pool: pool.name,
        name: device.name,
        device,
        ...(why ? { unusable: why } : {}),
      });
    }
  }
  const incompletePools = [...pools]
    .filter((pool) => {
      const expected = current.find((s) => `${s.spec.driver}/${s.spec.pool.name}` === pool)?.spec.pool
        .resourceSliceCount;
      return expected !== undefined && (published.get(pool) ?? 0) !== expected;
    })
    .sort();
  return { devices, incompletePools };
}

/** Every device the current slices publish, whatever node it is on (usable or not). */
export function publishedDevices(slices: readonly ResourceSlice[]): NodeDevice[] {
  return currentSlices(slices).flatMap((slice) =>
    (slice.spec.devices ?? []).map((device) => ({
      key: deviceKey(slice.spec.driver, slice.spec.pool.name, device.name),
      driver: slice.spec.driver,
      pool: slice.spec.pool.name,
      name: device.name,
      device,
    })),
  );
}

/**
 * Pools the allocator skips (structured.GatherPools): the newest generation does not
 * have exactly `resourceSliceCount` slices (the driver is still publishing it), or it
 * names one device twice (invalid).
 */
function unusablePools(
  current: readonly ResourceSlice[],
  published: ReadonlyMap<string, number>,
): Map<string, string> {
  const why = new Map<string, string>();
  const names = new Map<string, Set<string>>();
  for (const slice of current) {
    const pool = `${slice.spec.driver}/${slice.spec.pool.name}`;
    const expected = slice.spec.pool.resourceSliceCount;
    const count = published.get(pool) ?? 0;
    if (expected !== undefined && count !== expected && !why.has(pool)) {
      why.set(
        pool,
        `pool ${pool} is being republished (${count} of its newest generation's ${expected} ResourceSlices are there), and the scheduler uses none of its devices until all are`,
      );
    }
    const seen = names.get(pool) ?? new Set<string>();
    names.set(pool, seen);
    for (const device of slice.spec.devices ?? []) {
      if (seen.has(device.name) && !why.has(pool)) {
        why.set(
          pool,
          `pool ${pool} names device ${device.name} twice, so the scheduler uses none of its devices`,
        );
      }
      seen.add(device.name);
    }
  }
  return why;
}

function deviceOnNode(device: Device, node: Node): boolean {
  const d = device as Device & {
    nodeName?: string;
    allNodes?: boolean;
    nodeSelector?: { nodeSelectorTerms: [] };
  };
  if (d.nodeName !== undefined) return d.nodeName === node.metadata.name;
  if (d.allNodes === true) return true;
  if (d.nodeSelector) return matchesTerms(node, d.nodeSelector.nodeSelectorTerms);
  return false;
}

/** A toleration of a device taint (same rules as node taints). */
function toleratesDevice(toleration: DeviceToleration, taint: DeviceTaint): boolean {
  if (toleration.effect && toleration.effect !== taint.effect) return false;
  if (toleration.operator === 'Exists') return !toleration.key || toleration.key === taint.key;
  return toleration.key === taint.key && (toleration.value ?? '') === (taint.value ?? '');
}

export type DeviceMatch = SelectorResult | { result: 'tainted'; taint: DeviceTaint };

/**
 * Does `device` satisfy one request alternative? The class must be known: with the
 * classes read completely a missing class matches nothing (the scheduler says the
 * class does not exist), otherwise it is unknown.
 */
export function matchDevice(
  request: ExactDeviceRequest,
  classes: readonly DeviceClass[],
  classesComplete: boolean,
  device: NodeDevice,
): DeviceMatch {
  const cls = classes.find((c) => c.metadata.name === request.deviceClassName);
  if (!cls) {
    return classesComplete
      ? { result: 'no-match' }
      : { result: 'unknown', why: `DeviceClass ${request.deviceClassName} was not read` };
  }
  // As the allocator does: the class's selectors first, then the request's; an error
  // in either (a CEL runtime error upstream) comes before any taint.
  const classResult = evaluateSelectors(cls.spec.selectors, device.driver, device.device);
  // Which selector could not be settled, and why (the finding's caveat quotes it).
  const byClass: SelectorResult =
    classResult.result === 'unknown'
      ? { result: 'unknown', why: `DeviceClass ${request.deviceClassName}, ${classResult.why}` }
      : classResult;
  if (byClass.result === 'no-match') return byClass;
  if (byClass.result === 'error') {
    return { result: 'error', why: `DeviceClass ${request.deviceClassName}: ${byClass.why}` };
  }
  const byRequest = evaluateSelectors(request.selectors, device.driver, device.device);
  if (byRequest.result === 'no-match') return byRequest;
  if (byRequest.result === 'error') {
    if (byClass.result === 'unknown') return byClass;
    return { result: 'error', why: `the request's ${byRequest.why}` };
  }
  const taint = (deviceFields(device.device).taints ?? []).find(
    (t) =>
      (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
      !(request.tolerations ?? []).some((tol) => toleratesDevice(tol, t)),
  );
  if (taint) return { result: 'tainted', taint };
  if (byClass.result === 'unknown') return byClass;
  if (byRequest.result === 'unknown') return { result: 'unknown', why: `the request's ${byRequest.why}` };
  return byRequest;
}

export interface Holding {
  claim: ResourceClaim;
  /** The request (or request/subrequest) the device was allocated for. */
  request: string;
}

/** Every allocated device, by key, with the claims that hold it (one for exclusive devices). */
export function allocatedDevices(claims: readonly ResourceClaim[]): Map<string, Holding[]> {
  const held = new Map<string, Holding[]>();
  for (const claim of claims) {
    for (const result of claim.status?.allocation?.devices?.results ?? []) {
      if (result.adminAccess) continue; // admin access does not take the device
      const key = deviceKey(result.driver, result.pool, result.device);
      held.set(key, [...(held.get(key) ?? []), { claim, request: result.request }]);
    }
  }
  return held;
}
