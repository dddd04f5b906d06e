/**
 * Strategic merge patch for the built-in types we serve. Lists with a patch merge
 * key (containers by name, env by name, ...) merge element-wise; every other list
 * is replaced whole — notably nodeSelectorTerms, matchExpressions and tolerations,
 * which is why excluding a node must send the complete affinity. Directives
 * supported: null deletes, `$patch: replace|delete|merge`, `$retainKeys`,
 * `$deleteFromPrimitiveList/<field>`, and `$setElementOrder/<field>` (accepted,
 * order kept from the patch when it lists every element).
 */

type Json = Record<string, unknown>;

/** A strategic merge patch the server cannot apply (answers 422/400). */
export class StrategicPatchError extends Error {}

const MERGE_KEYS: Record<string, string> = {
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  imagePullSecrets: 'name',
  conditions: 'type',
  ownerReferences: 'uid',
  hostAliases: 'ip',
  topologySpreadConstraints: 'topologyKey',
  resourceClaims: 'name',
  containerStatuses: 'name',
};

/** Primitive lists whose patch strategy is merge (set union). */
const MERGED_PRIMITIVE_LISTS = new Set(['finalizers']);

function isMap(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function mergeKeyFor(kind: string, path: string[], field: string): string | undefined {
  // ValidatingWebhookConfiguration.webhooks: patchStrategy merge, patchMergeKey name.
  if (field === 'webhooks' && path.length === 0 && kind.endsWith('WebhookConfiguration')) return 'name';
  if (field === 'ports') {
    if (kind === 'Service' && path.join('.') === 'spec') return 'port';
    return 'containerPort';
  }
  return MERGE_KEYS[field];
}

function stripDirectives(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripDirectives);
  if (!isMap(v)) return v;
  const out: Json = {};
  for (const [k, val] of Object.entries(v)) {
    if (k.startsWith('$')) continue;
    if (val === null) continue;
    out[k] = stripDirectives(val);
  }
  return out;
}

function mergeList(
  kind: string,
  path: string[],
  field: string,
  original: unknown,
  patch: unknown[],
): unknown[] {
  const mergeKey = mergeKeyFor(kind, path, field);
  const base = Array.isArray(original) ? original : [];
  if (patch.some((item) => isMap(item) && item['$patch'] === 'replace')) {
    return patch.filter((item) => !(isMap(item) && item['$patch'] === 'replace')).map(stripDirectives);
  }
  if (!mergeKey) {
    if (MERGED_PRIMITIVE_LISTS.has(field)) {
      const out = [...base];
      for (const item of patch) if (!out.includes(item)) out.push(item);
      return out;
    }
    return patch.map(stripDirectives);
  }
  const out: unknown[] = base.map((x) => structuredClone(x));
  for (const item of patch) {
    if (!isMap(item))
      throw new StrategicPatchError(`unable to find api field in struct for the list ${field}`);
    const keyValue = item[mergeKey];
    const index = out.findIndex((x) => isMap(x) && x[mergeKey] === keyValue);
    if (item['$patch'] === 'delete') {
      if (index >= 0) out.splice(index, 1);
      continue;
    }
    if (index >= 0) out[index] = mergeMap(kind, [...path, field], out[index], item);
    else out.push(stripDirectives(item));
  }
  return out;
}

function reorder(list: unknown[], order: unknown, key: string | undefined): unknown[] {
  if (!Array.isArray(order) || !key) return list;
  const rank = (x: unknown): number => {
    const i = order.findIndex((o) => isMap(o) && isMap(x) && o[key] === x[key]);
    return i < 0 ? order.length : i;
  };
  return [...list].sort((a, b) => rank(a) - rank(b));
}

function mergeMap(kind: string, path: string[], original: unknown, patch: Json): unknown {
  const directive = patch['$patch'];
  if (directive === 'replace') return stripDirectives(patch);
  if (directive === 'delete') return undefined;
  const out: Json = isMap(original) ? { ...original } : {};
  for (const [key, value] of Object.entries(patch)) {
    if (key === '$patch' || key === '$retainKeys' || key.startsWith('$setElementOrder/')) continue;
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = out[field];
      if (Array.isArray(current) && Array.isArray(value))
        out[field] = current.filter((x) => !value.includes(x));
      continue;
    }
    if (value === null) {
      delete out[key];
    } else if (isMap(value)) {
      const merged = mergeMap(kind, [...path, key], out[key], value);
      if (merged === undefined) delete out[key];
      else out[key] = merged;
    } else if (Array.isArray(value)) {
      const merged = mergeList(kind, path, key, out[key], value);
      out[key] = reorder(merged, patch[`$setElementOrder/${key}`], mergeKeyFor(kind, path, key));
    } else {
      out[key] = value;
    }
  }
  const retain = patch['$retainKeys'];
  if (Array.isArray(retain)) {
    for (const key of Object.keys(out)) if (!retain.includes(key)) delete out[key];
  }
  return out;
}

/** Applies a strategic merge patch to an object of the given kind; returns a new object. */
export function applyStrategicPatch(kind: string, original: unknown, patch: unknown): unknown {
  if (!isMap(patch)) throw new StrategicPatchError('unable to unmarshal the patch: expected a JSON object');
  return mergeMap(kind, [], structuredClone(original), patch) ?? {};
}
