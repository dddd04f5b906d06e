/**
 * The restart time of a plan. `kubectl rollout restart` sets the pod-template
 * annotation `kubectl.kubernetes.io/restartedAt` to the current time (RFC 3339). A
 * plan cannot know that time: it is made at diagnosis and applied later, and its id
 * must be the same for the same cluster state. So a plan's patch carries the marker
 * APPLY_TIME at that annotation, the seal and the approval cover the patch with the
 * marker, and the executor puts the time of the apply in its place just before the
 * write (fillApplyTime). The allowlist accepts no other value there.
 */
import { getAt, parsePointer, toPointer } from './json-pointer.js';
import type { Patch } from './plan.js';

export const RESTARTED_AT = 'kubectl.kubernetes.io/restartedAt';
export const RESTARTED_AT_POINTER = toPointer(['spec', 'template', 'metadata', 'annotations', RESTARTED_AT]);

/** Stands for "the time of the apply" in a plan's patch; never written to a cluster. */
export const APPLY_TIME = '$NOW';

/** RFC 3339 in UTC without fractional seconds, as `kubectl rollout restart` writes it. */
export function rfc3339(time: Date): string {
  return time.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** `pointer` with the tokens of `prefix` removed, or undefined when `prefix` is not at or above it. */
function below(pointer: string, prefix: string): string | undefined {
  if (pointer === prefix) return '';
  return pointer.startsWith(`${prefix}/`) ? pointer.slice(prefix.length) : undefined;
}

/**
 * The value a patch writes at `pointer` (undefined when it writes nothing there,
 * null for a removal): merge patches by their body, JSON patches by the last add or
 * replace at or above the pointer.
 */
export function valueWrittenAt(patch: Patch, pointer: string): unknown {
  if (patch.type !== 'json') return getAt(patch.body, pointer);
  let written: unknown;
  for (const op of Array.isArray(patch.body) ? (patch.body as unknown[]) : []) {
    if (!isObject(op) || typeof op.path !== 'string') continue;
    const rest = below(pointer, op.path);
    if (rest === undefined) continue;
    if (op.op === 'remove') written = null;
    else if (op.op === 'add' || op.op === 'replace') written = getAt(op.value, rest);
  }
  return written;
}

/** A copy of `value` with `leaf` set at `pointer` when the path exists and holds the marker. */
function replaceMarker(value: unknown, pointer: string, leaf: string): unknown {
  const tokens = parsePointer(pointer);
  if (tokens.length === 0) return value === APPLY_TIME ? leaf : value;
  if (getAt(value, pointer) !== APPLY_TIME) return value;
  const copy = structuredClone(value) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const token of tokens.slice(0, -1)) at = at[token] as Record<string, unknown>;
  at[tokens[tokens.length - 1] as string] = leaf;
  return copy;
}

/**
 * The patch to send: the restart marker replaced by `now` in RFC 3339. Everything
 * else is the approved patch unchanged.
 */
export function fillApplyTime(patch: Patch, now: Date): Patch {
  const time = rfc3339(now);
  if (patch.type !== 'json')
    return { type: patch.type, body: replaceMarker(patch.body, RESTARTED_AT_POINTER, time) };
  if (!Array.isArray(patch.body)) return patch;
  const body = (patch.body as unknown[]).map((op) => {
    if (!isObject(op) || typeof op.path !== 'string' || (op.op !== 'add' && op.op !== 'replace')) return op;
    const rest = below(RESTARTED_AT_POINTER, op.path);
    return rest === undefined ? op : { ...op, value: replaceMarker(op.value, rest, time) };
  });
  return { type: 'json', body };
}

/** The patch sets the restart annotation (to the marker, once the allowlist passed it). */
export function restartsPods(patch: Patch | null): boolean {
  return patch !== null && valueWrittenAt(patch, RESTARTED_AT_POINTER) !== undefined;
}
