/**
 * Does applying a manifest change a workload's pod template, and so start a rollout?
 * The live template went through the API server's defaulting (pkg/apis/core/v1
 * defaults.go: SetDefaults_PodSpec, _Container, _Probe, _HTTPGetAction, the volume
 * sources' defaultMode, …) and its quantities were canonicalised ("0.5" became "500m");
 * the manifest is as written. A field only the live template has is a change unless it
 * is such a default; a field the manifest sets must equal the live one. Pure.
 *
 * What it cannot see: a mutating webhook that edits templates (rare: webhooks mutate
 * pods), and a default this table lacks. Either reads as a change, the side that
 * predicts a rollout rather than hides one.
 */
import { isQuantity, quantityMilli } from '../diagnosis/base/quantity.js';

type Json = Record<string, unknown>;

/** A path with list positions as "*": spec.containers.*.imagePullPolicy. */
type Pattern = string;

const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];
const CONTAINER_LISTS = ['containers', 'initContainers', 'ephemeralContainers'];
const DEFAULT_MODE_SOURCES = ['configMap', 'secret', 'downwardAPI', 'projected'];

/** Fixed defaults, by pattern (relative to the pod template). */
const FIXED: ReadonlyMap<Pattern, unknown> = new Map<Pattern, unknown>([
  ['spec.restartPolicy', 'Always'],
  ['spec.terminationGracePeriodSeconds', 30],
  ['spec.dnsPolicy', 'ClusterFirst'],
  ['spec.schedulerName', 'default-scheduler'],
  ['spec.enableServiceLinks', true],
  ...CONTAINER_LISTS.flatMap((list): [Pattern, unknown][] => [
    [`spec.${list}.*.terminationMessagePath`, '/dev/termination-log'],
    [`spec.${list}.*.terminationMessagePolicy`, 'File'],
    [`spec.${list}.*.ports.*.protocol`, 'TCP'],
    [`spec.${list}.*.env.*.valueFrom.fieldRef.apiVersion`, 'v1'],
    ...PROBES.flatMap((probe): [Pattern, unknown][] => [
      [`spec.${list}.*.${probe}.timeoutSeconds`, 1],
      [`spec.${list}.*.${probe}.periodSeconds`, 10],
      [`spec.${list}.*.${probe}.successThreshold`, 1],
      [`spec.${list}.*.${probe}.failureThreshold`, 3],
      [`spec.${list}.*.${probe}.httpGet.scheme`, 'HTTP'],
      [`spec.${list}.*.${probe}.httpGet.path`, '/'],
      [`spec.${list}.*.${probe}.grpc.service`, ''],
    ]),
  ]),
  ...DEFAULT_MODE_SOURCES.map((source): [Pattern, unknown] => [`spec.volumes.*.${source}.defaultMode`, 420]),
  ['spec.volumes.*.hostPath.type', ''],
  ['spec.volumes.*.downwardAPI.items.*.fieldRef.apiVersion', 'v1'],
  ['spec.volumes.*.projected.sources.*.downwardAPI.items.*.fieldRef.apiVersion', 'v1'],
  ['spec.volumes.*.projected.sources.*.serviceAccountToken.expirationSeconds', 3600],
]);

/** Defaults that depend on a sibling field: the value the server would have filled in, given the live parent. */
function derivedDefault(pattern: Pattern, key: string, parent: Json): unknown {
  if (key === 'imagePullPolicy' && /^spec\.\w+\.\*\.imagePullPolicy$/.test(pattern)) {
    const image = typeof parent['image'] === 'string' ? parent['image'] : '';
    const tag = image.includes('@') ? 'digest' : (/:([^/:]+)$/.exec(image)?.[1] ?? 'latest');
    return tag === 'latest' ? 'Always' : 'IfNotPresent';
  }
  // DeprecatedServiceAccount is kept equal to serviceAccountName.
  if (pattern === 'spec.serviceAccount') return parent['serviceAccountName'];
  return undefined;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function same(a: unknown, b: unknown, quantity: boolean): boolean {
  if (a === b) return true;
  if (
    quantity &&
    (typeof a === 'string' || typeof a === 'number') &&
    (typeof b === 'string' || typeof b === 'number')
  )
    return isQuantity(a) && isQuantity(b) && quantityMilli(a) === quantityMilli(b);
  if (typeof a === 'number' || typeof b === 'number') return String(a) === String(b);
  return false;
}

/**
 * The paths where applying `manifest` changes `live` (both pod templates), at most
 * `limit` of them; empty: no rollout.
 * @example templateChanges({spec:{containers:[{name:'a',image:'x:2'}]}}, liveTemplate) // ['spec.containers[0].image']
 */
export function templateChanges(manifest: unknown, live: unknown, limit = 10): string[] {
  const found: string[] = [];
  walk(manifest, live, [], [], [], found, limit);
  return found;
}

function walk(
  m: unknown,
  l: unknown,
  path: string[],
  pattern: string[],
  parents: readonly Json[],
  found: string[],
  limit: number,
): void {
  if (found.length >= limit) return;
  const shown = (): string => path.join('.').replace(/\.\[/g, '[');
  const key = pattern[pattern.length - 1] ?? '';
  const patternText = pattern.join('.');
  if (m === undefined || m === null) {
    if (isEmpty(l) || isDefault(patternText, key, l, parents)) return;
    found.push(shown());
    return;
  }
  if (l === undefined || l === null) {
    if (isEmpty(m) || isDefault(patternText, key, m, parents)) return;
    found.push(shown());
    return;
  }
  if (Array.isArray(m) || Array.isArray(l)) {
    if (!Array.isArray(m) || !Array.isArray(l) || m.length !== l.length) {
      found.push(shown());
      return;
    }
    m.forEach((item, i) => walk(item, l[i], [...path, `[${i}]`], [...pattern, '*'], parents, found, limit));
    return;
  }
  if (isObject(m) && isObject(l)) {
    const keys = [...new Set([...Object.keys(m), ...Object.keys(l)])].sort();
    for (const k of keys) walk(m[k], l[k], [...path, k], [...pattern, k], [...parents, l], found, limit);
    return;
  }
  const above = pattern.slice(0, -1).join('.');
  const quantity = /\.resources\.(limits|requests)$/.test(above) || key === 'sizeLimit';
  if (!same(m, l, quantity)) found.push(shown());
}

/** `value` at `pattern` is what the API server fills in when the field is left out (`parents`: the live objects above it). */
function isDefault(pattern: Pattern, key: string, value: unknown, parents: readonly Json[]): boolean {
  if (FIXED.has(pattern)) return same(FIXED.get(pattern), value, false);
  const parent = parents[parents.length - 1];
  const derived = parent ? derivedDefault(pattern, key, parent) : undefined;
  if (derived !== undefined) return same(derived, value, false);
  // Requests default to limits where only limits are given: the whole requests map, or one entry of it.
  if (/\.resources\.requests$/.test(pattern) && isObject(value) && parent && isObject(parent['limits'])) {
    const limits = parent['limits'];
    return Object.entries(value).every(([r, q]) => limits[r] !== undefined && same(limits[r], q, true));
  }
  const resources = parents[parents.length - 2];
  if (pattern.endsWith(`.resources.requests.${key}`) && resources && isObject(resources['limits']))
    return same(resources['limits'][key], value, true);
  return false;
}
