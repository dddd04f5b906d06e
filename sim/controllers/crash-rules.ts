/**
 * Crash rules from ConfigMap kube-system/kube-sim, key rules.yaml: a container whose
 * image starts with `image`, running on `node` (and, with `device`, holding that DRA
 * device `<driver>/<pool>/<device>` through a claim), terminates that way after it
 * starts. Key devices.yaml is the DRA driver's health report: a list of
 * `{device, health[, cdi]}` (Healthy, Unhealthy, Unknown; `cdi`: the CDI device id the
 * driver returns for it when preparing a claim, which the kubelet then reports instead
 * of `<driver>/<pool>/<device>`); with the key present the kubelet reports
 * allocatedResourcesStatus (Unknown for devices not listed), without it the driver
 * reports no health and the kubelet says nothing. A change to the report reaches the
 * status of running pods at once, as a DRA plugin's health stream does.
 */
import { parse } from 'yaml';
import { z } from 'zod';
import type { Store } from '../store.js';

const ruleSchema = z.object({
  node: z.string().min(1),
  image: z.string().min(1),
  exitCode: z.number().int().default(1),
  reason: z.string().default('Error'),
  message: z.string().optional(),
  log: z.string().optional(),
  /** Only for a container holding this DRA device (`<driver>/<pool>/<device>`). */
  device: z.string().min(1).optional(),
  /** Simulated seconds the container runs before it terminates. */
  afterSeconds: z.number().nonnegative().default(2),
});

export type CrashRule = z.infer<typeof ruleSchema>;

const cache = new WeakMap<Store, { rv: string; rules: CrashRule[] }>();

/** The current rules (empty when the ConfigMap is missing or invalid). */
export function crashRules(store: Store): CrashRule[] {
  const cm = store.get('ConfigMap', 'kube-system', 'kube-sim');
  if (!cm) return [];
  const rv = cm.metadata.resourceVersion ?? '';
  const cached = cache.get(store);
  if (cached && cached.rv === rv) return cached.rules;
  const text = (cm['data'] as Record<string, string> | undefined)?.['rules.yaml'] ?? '[]';
  let rules: CrashRule[] = [];
  try {
    rules = z.array(ruleSchema).parse(parse(text) ?? []);
  } catch (err) {
    console.error(
      `kube-sim: ignoring invalid rules.yaml: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  cache.set(store, { rv, rules });
  return rules;
}

/** The first rule matching a container image on a node (and a device it holds, for device rules). */
export function ruleFor(
  rules: readonly CrashRule[],
  node: string,
  image: string | undefined,
  devices: readonly string[] = [],
): CrashRule | undefined {
  return rules.find(
    (r) =>
      r.node === node &&
      image !== undefined &&
      image.startsWith(r.image) &&
      (r.device === undefined || devices.includes(r.device)),
  );
}

const healthSchema = z.array(
  z.object({
    device: z.string().min(1),
    health: z.enum(['Healthy', 'Unhealthy', 'Unknown']),
    /** The CDI device id the driver gives for the device (vendor.com/class=name). */
    cdi: z.string().min(1).optional(),
  }),
);

/** What the driver says of one device: its health, and its CDI id when it gives one. */
export interface DriverDevice {
  health: string;
  cdi?: string;
}
const healthCache = new WeakMap<Store, { rv: string; health: Map<string, DriverDevice> | undefined }>();

/** The driver's device health by `<driver>/<pool>/<device>`; undefined when it reports none. */
export function deviceHealth(store: Store): Map<string, DriverDevice> | undefined {
  const cm = store.get('ConfigMap', 'kube-system', 'kube-sim');
  if (!cm) return undefined;
  const rv = cm.metadata.resourceVersion ?? '';
  const cached = healthCache.get(store);
  if (cached && cached.rv === rv) return cached.health;
  const text = (cm['data'] as Record<string, string> | undefined)?.['devices.yaml'];
  let health: Map<string, DriverDevice> | undefined;
  if (text !== undefined) {
    try {
      health = new Map(
        healthSchema
          .parse(parse(text) ?? [])
          .map((d) => [d.device, { health: d.health, ...(d.cdi ? { cdi: d.cdi } : {}) }]),
      );
    } catch (err) {
      console.error(
        `kube-sim: ignoring invalid devices.yaml: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  healthCache.set(store, { rv, health });
  return health;
}
