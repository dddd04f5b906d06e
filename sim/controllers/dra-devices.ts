/**
 * Devices as the simulator's DRA allocator sees them, written from the upstream
 * structured allocator (k8s.io/dynamic-resource-allocation/structured: GatherPools,
 * the allocator's device matching) independently of the product's diagnosis code, so
 * that the simulator can disagree with a product that gets them wrong:
 * - a pool counts in its newest generation only, and only once all of its
 *   `resourceSliceCount` slices are published (an incomplete pool is skipped);
 * - a slice serves a node through `nodeName`, `allNodes`, `nodeSelector`, or per device
 *   with `perDeviceNodeSelection`;
 * - a device is taken while a claim's allocation lists it (admin access takes nothing);
 * - a request alternative (`exactly`, or each `firstAvailable` subrequest in order)
 *   takes a device when its DeviceClass exists, every selector of the class and then of
 *   the request selects it (dra-cel.ts), and it has no NoSchedule or NoExecute taint the
 *   request does not tolerate.
 */
import type { Node, NodeSelectorTerm } from '../../src/diagnosis/k8s.js';
import { matchesNodeSelectorTerms } from './scheduler-filters.js';
import { selectorMatches, type SliceDevice } from './dra-cel.js';

export interface SimDevice {
  /** `<driver>/<pool>/<device>`, as allocation results name it. */
  key: string;
  driver: string;
  pool: string;
  name: string;
  device: SliceDevice;
}

export interface SliceShape {
  spec?: {
    driver?: string;
    pool?: { name?: string; generation?: number; resourceSliceCount?: number };
    nodeName?: string;
    allNodes?: boolean;
    nodeSelector?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    perDeviceNodeSelection?: boolean;
    devices?: (SliceDevice & {
      nodeName?: string;
      allNodes?: boolean;
      nodeSelector?: { nodeSelectorTerms?: NodeSelectorTerm[] };
    })[];
  };
}

interface Selector {
  cel?: { expression?: string };
}

interface Toleration {
  key?: string;
  operator?: string;
  value?: string;
  effect?: string;
}

/** One way to serve a request: `exactly`, or one `firstAvailable` subrequest ("gpu/a100"). */
export interface Alternative {
  request: string;
  deviceClassName?: string;
  selectors?: Selector[];
  allocationMode?: string;
  count?: number;
  tolerations?: Toleration[];
}

export interface RequestShape {
  name: string;
  exactly?: Omit<Alternative, 'request'>;
  firstAvailable?: (Omit<Alternative, 'request'> & { name: string })[];
}

export interface ClassShape {
  metadata: { name?: string };
  spec?: { selectors?: Selector[]; extendedResourceName?: string };
}

function poolKey(s: SliceShape): string {
  return `${s.spec?.driver ?? ''}/${s.spec?.pool?.name ?? ''}`;
}

/** The slices of complete pools, newest generation only (GatherPools). */
function usableSlices(slices: readonly SliceShape[]): SliceShape[] {
  const newest = new Map<string, number>();
  for (const s of slices)
    newest.set(poolKey(s), Math.max(newest.get(poolKey(s)) ?? -Infinity, s.spec?.pool?.generation ?? 0));
  const current = slices.filter((s) => (s.spec?.pool?.generation ?? 0) === newest.get(poolKey(s)));
  const counts = new Map<string, number>();
  for (const s of current) counts.set(poolKey(s), (counts.get(poolKey(s)) ?? 0) + 1);
  return current.filter((s) => {
    const expected = s.spec?.pool?.resourceSliceCount;
    return expected === undefined || counts.get(poolKey(s)) === expected;
  });
}

function servesNode(
  where: { nodeName?: string; allNodes?: boolean; nodeSelector?: { nodeSelectorTerms?: NodeSelectorTerm[] } },
  node: Node,
): boolean {
  if (where.nodeName !== undefined) return where.nodeName === node.metadata.name;
  if (where.allNodes === true) return true;
  if (where.nodeSelector) return matchesNodeSelectorTerms(node, where.nodeSelector.nodeSelectorTerms ?? []);
  return false;
}

/** The devices a pod on `node` can be given, as published. */
export function devicesOn(slices: readonly SliceShape[], node: Node): SimDevice[] {
  const out: SimDevice[] = [];
  for (const slice of usableSlices(slices)) {
    const spec = slice.spec ?? {};
    const perDevice = spec.perDeviceNodeSelection === true;
    if (!perDevice && !servesNode(spec, node)) continue;
    const driver = spec.driver ?? '';
    const pool = spec.pool?.name ?? '';
    for (const device of spec.devices ?? []) {
      if (perDevice && !servesNode(device, node)) continue;
      out.push({ key: `${driver}/${pool}/${device.name}`, driver, pool, name: device.name, device });
    }
  }
  return out;
}

interface ClaimShape {
  status?: {
    allocation?: {
      devices?: { results?: { driver: string; pool: string; device: string; adminAccess?: boolean }[] };
    };
  };
}

/** Keys of the devices some claim's allocation holds (admin access holds nothing). */
export function heldDevices(claims: readonly ClaimShape[]): Set<string> {
  const held = new Set<string>();
  for (const c of claims) {
    for (const r of c.status?.allocation?.devices?.results ?? []) {
      if (!r.adminAccess) held.add(`${r.driver}/${r.pool}/${r.device}`);
    }
  }
  return held;
}

/** `exactly`, or the `firstAvailable` subrequests in order, named as allocation results name them. */
export function alternativesOf(request: RequestShape): Alternative[] {
  if (request.exactly) return [{ ...request.exactly, request: request.name }];
  return (request.firstAvailable ?? []).map(({ name, ...sub }) => ({
    ...sub,
    request: `${request.name}/${name}`,
  }));
}

const IMPLICIT_PREFIX = 'deviceclass.resource.kubernetes.io/';

/** The DeviceClass serving an extended resource: `extendedResourceName`, or the implicit name. */
export function classForResource(classes: readonly ClassShape[], resource: string): ClassShape | undefined {
  if (resource.startsWith(IMPLICIT_PREFIX)) {
    const name = resource.slice(IMPLICIT_PREFIX.length);
    return classes.find((c) => c.metadata.name === name);
  }
  return classes.find((c) => c.spec?.extendedResourceName === resource);
}

function tolerates(t: Toleration, taint: { key: string; value?: string; effect: string }): boolean {
  if (t.effect && t.effect !== taint.effect) return false;
  if (t.operator === 'Exists') return !t.key || t.key === taint.key;
  return t.key === taint.key && (t.value ?? '') === (taint.value ?? '');
}

function selectsAll(selectors: readonly Selector[] | undefined, d: SimDevice): boolean {
  return (selectors ?? []).every(
    (s) => s.cel?.expression !== undefined && selectorMatches(s.cel.expression, d.driver, d.device),
  );
}

/** Whether the alternative can take the device: class known, class then request selectors, taints tolerated. */
export function deviceMatches(alt: Alternative, classes: readonly ClassShape[], d: SimDevice): boolean {
  const cls = classes.find((c) => c.metadata.name === alt.deviceClassName);
  if (!cls) return false;
  if (!selectsAll(cls.spec?.selectors, d) || !selectsAll(alt.selectors, d)) return false;
  const taints = (d.device.basic ?? d.device).taints ?? [];
  return !taints.some(
    (t) =>
      (t.effect === 'NoSchedule' || t.effect === 'NoExecute') &&
      !(alt.tolerations ?? []).some((tol) => tolerates(tol, t)),
  );
}
