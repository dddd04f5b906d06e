/**
 * The resource part of pod validation (kubernetes pkg/apis/core/validation
 * ValidateResourceRequirements), for a Pod and for a workload's pod template: a request
 * above its limit is `Invalid value: "1": must be less than or equal to cpu limit of
 * 500m`, and for a resource that cannot be overcommitted (an extended resource such as
 * nvidia.com/gpu, hugepages: v1helper.IsOvercommitAllowed) any request other than the
 * limit is `must be equal to …`. The field is the container's `resources.requests`; the
 * value and the limit print in canonical form (Quantity.String()). A pod runs it after
 * LimitRanger's defaults (writes.ts), so a default limit below a container's own request
 * refuses every pod while the template stays valid.
 */
import { compareQuantities, formatQuantity, parseQuantity, QuantityError } from './quantity.js';
import type { SimObject } from '../store.js';

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};

interface Cause {
  field: string;
  message: string;
}

const TEMPLATE_KINDS = new Set(['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet']);

function overcommitAllowed(resource: string): boolean {
  const native = !resource.includes('/') || resource.includes('kubernetes.io/');
  return native && !resource.startsWith('hugepages-');
}

function containerCauses(c: Json, path: string): Cause[] {
  const resources = obj(c['resources']);
  const limits = obj(resources['limits']);
  const requests = obj(resources['requests']);
  const causes: Cause[] = [];
  for (const [name, raw] of Object.entries(requests).sort(([a], [b]) => a.localeCompare(b))) {
    const rawLimit = limits[name];
    if (rawLimit === undefined) continue;
    try {
      const request = parseQuantity(raw as string | number);
      const limit = parseQuantity(rawLimit as string | number);
      const cmp = compareQuantities(request, limit);
      const rule =
        cmp !== 0 && !overcommitAllowed(name) ? 'equal to' : cmp > 0 ? 'less than or equal to' : '';
      if (rule)
        causes.push({
          field: `${path}.resources.requests`,
          message: `Invalid value: "${formatQuantity(request)}": must be ${rule} ${name} limit of ${formatQuantity(limit)}`,
        });
    } catch (e) {
      if (!(e instanceof QuantityError)) throw e;
    }
  }
  return causes;
}

/** The causes for `o` (a Pod, or a workload whose template it checks), none for other kinds. */
export function resourceRequirementCauses(o: SimObject): Cause[] {
  const prefix = o.kind === 'Pod' ? 'spec' : TEMPLATE_KINDS.has(o.kind) ? 'spec.template.spec' : undefined;
  if (prefix === undefined) return [];
  const spec = o.kind === 'Pod' ? obj(o['spec']) : obj(obj(obj(o['spec'])['template'])['spec']);
  return (['containers', 'initContainers'] as const).flatMap((which) => {
    const list = spec[which];
    return Array.isArray(list)
      ? list.flatMap((c, i) => containerCauses(obj(c), `${prefix}.${which}[${i}]`))
      : [];
  });
}
