/**
 * What each remediation kind may change, checked by the executor before any write,
 * whatever the plan's origin: a plan read back from Redis is data that anyone with
 * write access to Redis could have shaped, so "only the fields this kind exists to
 * change" is enforced on the patch itself rather than trusted from the builder.
 */
import { escapeToken, getAt, jsonEqual } from './json-pointer.js';
import { findKind } from './kinds/index.js';
import type { AllowlistVerdict } from './kinds/kind.js';
import type { Patch, UncheckedPlan } from './plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER as RESTARTED_AT, valueWrittenAt } from './restart-time.js';
import { annotationPointer, EXCLUSION_ANNOTATIONS } from './exclusion-record.js';
import { ttlOfMarker } from './exclusion-ttl.js';

const SET_AT = annotationPointer(EXCLUSION_ANNOTATIONS.setAt);
const EXPIRES_AT = annotationPointer(EXCLUSION_ANNOTATIONS.expiresAt);

export type { AllowlistVerdict } from './kinds/kind.js';
export { MAX_SCALE_BACK_REPLICAS } from './kinds/replicaset-scale.js';

/**
 * Every pointer a merge or strategic-merge patch writes: its leaves (a scalar, an
 * array, null for a deletion). A directive key (`$patch`, `$retainKeys`,
 * `$setElementOrder/…`, `$deleteFromPrimitiveList/…`) acts on the object that holds
 * it, so it counts as a write of that whole object. An empty object writes its own
 * path: where the key is absent, the merge creates it (an empty `blueGreen` beside a
 * Rollout's canary makes its spec invalid).
 */
function mergeWrites(body: unknown, at: string, out: string[]): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || Object.keys(body).length === 0) {
    out.push(at);
    return;
  }
  for (const [key, value] of Object.entries(body)) {
    if (key.startsWith('$')) out.push(at);
    else mergeWrites(value, `${at}/${escapeToken(key)}`, out);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** Pointers at which `after` differs from `before`, descending through objects. */
function changedPaths(before: unknown, after: unknown, at: string, out: string[]): void {
  const objects = (isObject(before) || before === undefined) && (isObject(after) || after === undefined);
  if (objects && (isObject(before) || isObject(after))) {
    const left = isObject(before) ? before : {};
    const right = isObject(after) ? after : {};
    for (const key of new Set([...Object.keys(left), ...Object.keys(right)])) {
      changedPaths(left[key], right[key], `${at}/${escapeToken(key)}`, out);
    }
    return;
  }
  if (!jsonEqual(before, after)) out.push(at);
}

const within = (path: string, prefix: string): boolean => path === prefix || path.startsWith(`${prefix}/`);

/**
 * Pointers a patch changes. Merge and strategic-merge patches: their leaves. JSON
 * patches: each write's path; a write above an allowed path (exclude-node replaces
 * the whole affinity, guarded by a `test` of its old value) counts by what it
 * changes against `live`, and without `live` as a write of that whole path.
 */
export function patchWrites(
  patch: Patch,
  allowed: readonly string[],
  live?: unknown,
): { ok: true; paths: string[] } | { ok: false; reason: string } {
  if (patch.type !== 'json') {
    if (!isObject(patch.body)) return { ok: false, reason: `a ${patch.type} patch must be an object` };
    const paths: string[] = [];
    mergeWrites(patch.body, '', paths);
    return { ok: true, paths };
  }
  if (!Array.isArray(patch.body)) return { ok: false, reason: 'a JSON patch must be an array of operations' };
  const paths: string[] = [];
  for (const raw of patch.body as unknown[]) {
    const op = isObject(raw) ? raw : {};
    if (typeof op.op !== 'string' || typeof op.path !== 'string') {
      return { ok: false, reason: 'a JSON patch operation without op and path' };
    }
    if (op.op === 'test') continue; // reads only: the condition the write depends on
    // move and copy read another field (`from`); no plan needs them.
    if (op.op !== 'add' && op.op !== 'replace' && op.op !== 'remove') {
      return { ok: false, reason: `JSON patch operation '${op.op}' is not used by any plan` };
    }
    const path = op.path;
    if (op.op === 'remove' && live !== undefined && getAt(live, path) === undefined) {
      return { ok: false, reason: `the patch removes ${path}, which the Deployment does not have` };
    }
    const above = allowed.some((prefix) => prefix.startsWith(`${path}/`));
    if (above && live !== undefined && !path.endsWith('/-')) {
      changedPaths(getAt(live, path), op.op === 'remove' ? undefined : op.value, path, paths);
    } else {
      paths.push(path);
    }
  }
  return { ok: true, paths };
}

/**
 * Refuses a plan whose target is not a Deployment, whose kind is none, whose payload
 * is not its kind's (kinds/: each kind's checkPayload), or whose patch changes
 * anything outside the paths its kind may write, judged against the live Deployment
 * where one is given. Which pods a plan may delete is checked against the live owner
 * chain by the writer (src/kube/write/pod-deleter.ts).
 */
export function checkPlanWithinKind(plan: UncheckedPlan, live?: unknown): AllowlistVerdict {
  const payload = checkPlanPayload(plan);
  const kind = findKind(plan.kind);
  if (!payload.ok || !plan.patch || !kind) return payload;
  return checkPatchPaths(plan.kind, plan.patch, kind.paths(plan.target.kind), live);
}

/**
 * The first half of checkPlanWithinKind, which needs no live object: a known kind, a
 * workload it changes, and its kind's payload. For a plan read before the workload is
 * (an undo file at load: whether a patch that replaces a whole field stays within the
 * kind's paths depends on what the live object holds there, checked at apply).
 */
export function checkPlanPayload(plan: UncheckedPlan): AllowlistVerdict {
  const kind = findKind(plan.kind);
  if (!kind) return { ok: false, reason: `unknown remediation kind '${String(plan.kind)}'` };
  const workloads: readonly string[] = kind.workloads ?? ['Deployment'];
  if (!workloads.includes(plan.target.kind)) {
    return {
      ok: false,
      reason: `${plan.kind} plans change ${workloads.map((w) => `${w}s`).join(' and ')} only, not ${String(plan.target.kind)}`,
    };
  }
  return kind.checkPayload(plan);
}

/** The patch writes only at or below `allowed`, and the restart time only as the marker. */
function checkPatchPaths(
  kind: string,
  patch: Patch,
  allowed: readonly string[],
  live: unknown,
): AllowlistVerdict {
  const writes = patchWrites(patch, allowed, live);
  if (!writes.ok) return writes;
  const outside = writes.paths.find((path) => !allowed.some((prefix) => within(path, prefix)));
  if (outside !== undefined) {
    return {
      ok: false,
      reason: `the patch changes ${outside || '/'}, outside what ${kind} may change (${allowed.join(', ')})`,
    };
  }
  // The restart time is the executor's to choose at apply time (restart-time.ts): a
  // plan may only carry the marker there, never a time (or removal) of its own.
  if (writes.paths.some((path) => within(path, RESTARTED_AT))) {
    const value = valueWrittenAt(patch, RESTARTED_AT);
    if (value !== APPLY_TIME) {
      return {
        ok: false,
        reason: `the patch sets ${RESTARTED_AT} to ${JSON.stringify(value ?? null)}; a plan may only set it to ${JSON.stringify(APPLY_TIME)} (the time of the apply)`,
      };
    }
  }
  return checkExclusionTimes(patch, writes.paths);
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * An Undo of a second exclusion puts the first one's record back as it was: a `replace`
 * of that very annotation (it must exist) with a time, never an `add`.
 */
function restoresTime(patch: Patch, pointer: string, value: unknown): boolean {
  if (patch.type !== 'json' || !Array.isArray(patch.body)) return false;
  const ops = (patch.body as { op?: unknown; path?: unknown }[]).filter(
    (op) => op.op !== 'test' && typeof op.path === 'string' && within(pointer, op.path),
  );
  return (
    ops.length === 1 &&
    ops[0]?.op === 'replace' &&
    ops[0].path === pointer &&
    typeof value === 'string' &&
    (RFC3339.test(value) || value === 'never')
  );
}

/**
 * An exclusion's times are the executor's too: set-at only as the apply-time marker,
 * expires-at only as a marker of a duration (`$NOW+24h`) or `never` (exclusion-ttl.ts);
 * removing the record is allowed (a removal plan does).
 */
function checkExclusionTimes(patch: Patch, paths: readonly string[]): AllowlistVerdict {
  const rules: [string, (value: unknown) => boolean, string][] = [
    [SET_AT, (v) => v === APPLY_TIME, JSON.stringify(APPLY_TIME)],
    [EXPIRES_AT, (v) => ttlOfMarker(v) !== undefined, `${JSON.stringify(`${APPLY_TIME}+24h`)} or "never"`],
  ];
  for (const [pointer, fits, wanted] of rules) {
    if (!paths.some((path) => within(path, pointer))) continue;
    const value = valueWrittenAt(patch, pointer);
    if (value !== null && !fits(value) && !restoresTime(patch, pointer, value)) {
      return {
        ok: false,
        reason: `the patch sets ${pointer} to ${JSON.stringify(value ?? null)}; a plan may only set it to ${wanted} (times are the apply's)`,
      };
    }
  }
  return { ok: true };
}
