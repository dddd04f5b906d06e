/**
 * What a patch sets, path by path, so the executor can tell "already applied" from
 * "still to do" and report before/after for exactly the fields a patch touches.
 * Pure: no I/O.
 */
import { escapeToken, getAt, jsonEqual } from '../../remediation/json-pointer.js';
import type { Patch, Preconditions } from '../../remediation/plan.js';
import { APPLY_TIME } from '../../remediation/restart-time.js';
import { EXCLUSION_TIME_POINTERS } from '../../remediation/exclusion-times.js';

/** A field a patch sets; `value` undefined means the patch removes it. */
interface PatchTarget {
  path: string;
  value: unknown;
}

export interface FieldChange {
  path: string;
  before: unknown;
  after: unknown;
}

const jsonPatchOp = (op: unknown): op is { op: string; path: string; value?: unknown } =>
  op !== null &&
  typeof op === 'object' &&
  typeof (op as { op?: unknown }).op === 'string' &&
  typeof (op as { path?: unknown }).path === 'string';

/**
 * The fields a patch sets. Merge and strategic-merge bodies are walked down to
 * leaves (objects recurse; lists are leaves, because every list our plans send is
 * replaced whole: nodeSelectorTerms and matchExpressions are atomic in a strategic
 * merge); `null` means removal; `$`-prefixed directives are skipped. A JSON patch
 * yields its add/replace/remove operations; `test` operations are preconditions,
 * not effects.
 */
export function patchTargets(patch: Patch): PatchTarget[] {
  if (patch.type === 'json') {
    const ops = Array.isArray(patch.body) ? patch.body.filter(jsonPatchOp) : [];
    return ops.flatMap((op): PatchTarget[] => {
      if (op.op === 'add' || op.op === 'replace') return [{ path: op.path, value: op.value }];
      if (op.op === 'remove') return [{ path: op.path, value: undefined }];
      return [];
    });
  }
  const targets: PatchTarget[] = [];
  walk(patch.body, '', targets);
  return targets;
}

function walk(value: unknown, path: string, out: PatchTarget[]): void {
  if (value === null) {
    out.push({ path, value: undefined });
    return;
  }
  if (typeof value !== 'object' || Array.isArray(value)) {
    out.push({ path, value });
    return;
  }
  const entries = Object.entries(value as Record<string, unknown>).filter(([key]) => !key.startsWith('$'));
  if (entries.length === 0) {
    // `{}` sets an empty object only where nothing is; it changes nothing we report.
    return;
  }
  for (const [key, child] of entries) walk(child, `${path}/${escapeToken(key)}`, out);
}

/** The fields a patch sets, without the resourceVersion it may carry as a write guard. */
function fieldTargets(patch: Patch): PatchTarget[] {
  return patchTargets(patch).filter((t) => t.path !== '/metadata/resourceVersion');
}

/**
 * The live object already holds every value the patch sets (a retry after the patch
 * landed). A restart marker (APPLY_TIME) stands for "restarted since diagnosis": it
 * holds when the live annotation is a time other than the one the plan assumed
 * (`assumed`, the plan's precondition fields; without one there, it never holds).
 */
export function isAlreadyApplied(
  live: unknown,
  patch: Patch,
  assumed: Preconditions['fields'] = [],
): boolean {
  const targets = fieldTargets(patch);
  return targets.length > 0 && targets.every((t) => holds(getAt(live, t.path), t, assumed));
}

function holds(current: unknown, target: PatchTarget, assumed: Preconditions['fields']): boolean {
  // An exclusion's times are the apply's: any time there is the one a landed write chose.
  if (EXCLUSION_TIME_POINTERS.includes(target.path) && target.value !== undefined)
    return typeof current === 'string';
  if (target.value !== APPLY_TIME) return jsonEqual(current, target.value);
  const before = assumed.find((f) => f.path === target.path);
  return before !== undefined && typeof current === 'string' && !jsonEqual(current, before.value);
}

/** What `live` holds at every path the patch sets, with `before` unknown: the change of a patch that already landed. */
export function valuesInPlace(live: unknown, patch: Patch): FieldChange[] {
  return fieldTargets(patch).map((t) => ({ path: t.path, before: undefined, after: getAt(live, t.path) }));
}

/** Before/after of the touched paths between two versions of the object; unchanged paths are left out. */
export function diffTouched(before: unknown, after: unknown, patch: Patch): FieldChange[] {
  const seen = new Set<string>();
  const changes: FieldChange[] = [];
  for (const { path } of fieldTargets(patch)) {
    if (seen.has(path)) continue;
    seen.add(path);
    const was = getAt(before, path);
    const now = getAt(after, path);
    if (!jsonEqual(was, now)) changes.push({ path, before: was, after: now });
  }
  return changes;
}

/**
 * The patch made conditional on the resourceVersion we verified: a patched object
 * that carries a resourceVersion other than the stored one is a 409 Conflict, so
 * anything written between our check and our write makes the server refuse. For a
 * JSON patch the same is done with a `replace` of /metadata/resourceVersion (a
 * `test` would fail with 422, indistinguishable from a bad patch).
 */
export function withResourceVersion(patch: Patch, resourceVersion: string): Patch {
  if (patch.type === 'json') {
    const ops = Array.isArray(patch.body) ? patch.body : [];
    return {
      type: 'json',
      body: [...ops, { op: 'replace', path: '/metadata/resourceVersion', value: resourceVersion }],
    };
  }
  const body =
    patch.body !== null && typeof patch.body === 'object' ? (patch.body as Record<string, unknown>) : {};
  const metadata =
    body.metadata !== null && typeof body.metadata === 'object'
      ? (body.metadata as Record<string, unknown>)
      : {};
  return { type: patch.type, body: { ...body, metadata: { ...metadata, resourceVersion } } };
}
