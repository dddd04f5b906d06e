/**
 * What each remediation kind may change, checked by the executor before any write,
 * whatever the plan's origin: a plan read back from Redis is data that anyone with
 * write access to Redis could have shaped, so "only the fields this kind exists to
 * change" is enforced on the patch itself rather than trusted from the builder.
 */
import { checkDeviceTaintTarget } from './device-taint.js';
import { escapeToken, getAt, jsonEqual } from './json-pointer.js';
import type { Patch, RemediationKind, RemediationPlan } from './plan.js';
import { APPLY_TIME, RESTARTED_AT_POINTER as RESTARTED_AT, valueWrittenAt } from './restart-time.js';

export type AllowlistVerdict = { ok: true } | { ok: false; reason: string };
const STRATEGY = '/spec/strategy';
const NODE_AFFINITY =
  '/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution';

/** JSON pointers (RFC 6901) a kind may write at or below. delete-pods writes no patch. */
export const ALLOWED_PATHS: Readonly<Record<RemediationKind, readonly string[]>> = {
  'set-rolling-update': [STRATEGY, RESTARTED_AT],
  'set-recreate': [STRATEGY, RESTARTED_AT],
  'rollout-restart': [RESTARTED_AT],
  'exclude-node': [NODE_AFFINITY],
  'delete-pods': [],
  // Applied to the old ReplicaSet's scale subresource (plan.replicaSet), never the Deployment.
  'scale-old-replicaset': ['/spec/replicas'],
  'scale-back-old-replicaset': ['/spec/replicas'],
  // Write a DeviceTaintRule (plan.deviceTaint) and delete pods; never the Deployment.
  'taint-device': [],
  'untaint-device': [],
};

/**
 * Every pointer a merge or strategic-merge patch writes: its leaves (a scalar, an
 * array, null for a deletion). A directive key (`$patch`, `$retainKeys`,
 * `$setElementOrder/…`, `$deleteFromPrimitiveList/…`) acts on the object that holds
 * it, so it counts as a write of that whole object. An empty object writes nothing.
 */
function mergeWrites(body: unknown, at: string, out: string[]): void {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
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
 * The most replicas the worker may scale a ReplicaSet up to (the Undo of
 * scale-old-replicaset, scale-back-old-replicaset): the same bound as the admission
 * policy `rollout-doctor-worker-replicaset-scale` in deploy/admission-policy.yaml
 * (test/unit/admission-policy.test.ts keeps the two equal).
 */
export const MAX_SCALE_BACK_REPLICAS = 20;

/**
 * scale-old-replicaset: a JSON patch of the old ReplicaSet's Scale that tests its uid
 * and its replicas as seen at diagnosis, then sets /spec/replicas to a smaller value
 * (never up, never negative). Its Undo, scale-back-old-replicaset, the same three
 * operations up to the count the ReplicaSet had (at most MAX_SCALE_BACK_REPLICAS),
 * never stepped. Only the values the plan's replicaSet names; neither carries an inverse.
 */
function checkScalePatch(
  plan: Pick<RemediationPlan, 'kind' | 'patch'> & Partial<Pick<RemediationPlan, 'replicaSet'>>,
): AllowlistVerdict {
  const rs = plan.replicaSet;
  if (!rs) return { ok: false, reason: `${plan.kind} names no ReplicaSet` };
  if (!Number.isInteger(rs.to) || !Number.isInteger(rs.replicas) || rs.to < 0 || rs.replicas < 0) {
    return { ok: false, reason: `${plan.kind}: replicas must be whole numbers (${rs.replicas} to ${rs.to})` };
  }
  if (plan.kind === 'scale-back-old-replicaset') {
    // Up only, back to what it had, within the bound the admission policy enforces too.
    if (rs.to <= rs.replicas || rs.to > MAX_SCALE_BACK_REPLICAS || rs.stepped !== undefined) {
      return {
        ok: false,
        reason: `scale-back-old-replicaset only scales up, at once, to at most ${MAX_SCALE_BACK_REPLICAS} (${rs.replicas} to ${rs.to})`,
      };
    }
  } else if (rs.to >= rs.replicas) {
    // Down only: taking replicas away is the fix.
    return { ok: false, reason: `scale-old-replicaset only scales down (${rs.replicas} to ${rs.to})` };
  }
  if (plan.patch?.type !== 'json' || !Array.isArray(plan.patch.body)) {
    return { ok: false, reason: `${plan.kind} sends a JSON patch` };
  }
  const ops = plan.patch.body as unknown[];
  // Stepped: the sealed patch is the first step (down by one) of a walk to 0.
  if (rs.stepped === true && rs.to !== 0) return { ok: false, reason: 'a stepped scale goes to 0' };
  const first = rs.stepped === true ? rs.replicas - 1 : rs.to;
  const expected = [
    { op: 'test', path: '/metadata/uid', value: rs.uid },
    { op: 'test', path: '/spec/replicas', value: rs.replicas },
    { op: 'replace', path: '/spec/replicas', value: first },
  ];
  if (ops.length !== expected.length || !ops.every((op, i) => jsonEqual(op, expected[i]))) {
    return {
      ok: false,
      reason: `${plan.kind}'s patch must be exactly ${JSON.stringify(expected)}`,
    };
  }
  return { ok: true };
}

/**
 * Refuses a plan whose target is not a Deployment, or whose patch changes anything
 * outside what its kind may change (see ALLOWED_PATHS), judged against the live
 * Deployment where one is given. delete-pods must carry pods and no patch; which
 * pods it may delete is checked against the live owner chain by the executor.
 */
export function checkPlanWithinKind(
  plan: Pick<RemediationPlan, 'kind' | 'patch' | 'pods' | 'target'> &
    Partial<Pick<RemediationPlan, 'replicaSet' | 'inverse' | 'deviceTaint'>>,
  live?: unknown,
): AllowlistVerdict {
  if (plan.target.kind !== 'Deployment') {
    return { ok: false, reason: `plans change Deployments only, not ${String(plan.target.kind)}` };
  }
  const allowed = (ALLOWED_PATHS as Record<string, readonly string[] | undefined>)[plan.kind];
  if (!allowed) return { ok: false, reason: `unknown remediation kind '${String(plan.kind)}'` };
  if (plan.kind === 'taint-device' || plan.kind === 'untaint-device') {
    if (plan.patch !== null) return { ok: false, reason: `${plan.kind} carries no patch` };
    if (plan.inverse) return { ok: false, reason: `${plan.kind} carries no inverse patch` };
    if (plan.replicaSet) return { ok: false, reason: `${plan.kind} scales no ReplicaSet` };
    const taint = checkDeviceTaintTarget(plan.deviceTaint);
    if (!taint.ok) return { ok: false, reason: `${plan.kind}: ${taint.reason}` };
    if (plan.kind === 'taint-device' && !plan.pods?.length) {
      return {
        ok: false,
        reason: 'taint-device names no pods to replace (a NoSchedule taint alone moves nothing)',
      };
    }
    if (plan.kind === 'untaint-device' && plan.pods?.length) {
      return { ok: false, reason: 'untaint-device deletes no pods' };
    }
    return { ok: true };
  }
  if (plan.deviceTaint) return { ok: false, reason: `${plan.kind} writes no DeviceTaintRule` };
  if (plan.kind === 'delete-pods') {
    if (plan.patch !== null) return { ok: false, reason: 'delete-pods carries no patch' };
    if (!plan.pods?.length) return { ok: false, reason: 'delete-pods names no pods' };
    return { ok: true };
  }
  if (!plan.patch) return { ok: false, reason: `${plan.kind} needs a patch` };
  if (plan.kind === 'scale-old-replicaset' || plan.kind === 'scale-back-old-replicaset') {
    if (plan.inverse) return { ok: false, reason: `${plan.kind} carries no inverse` };
    const scaleVerdict = checkScalePatch(plan);
    if (!scaleVerdict.ok) return scaleVerdict;
  } else if (plan.replicaSet) {
    return { ok: false, reason: `${plan.kind} scales no ReplicaSet` };
  }
  if (plan.pods?.length) return { ok: false, reason: `${plan.kind} deletes no pods` };
  const writes = patchWrites(plan.patch, allowed, live);
  if (!writes.ok) return writes;
  const outside = writes.paths.find((path) => !allowed.some((prefix) => within(path, prefix)));
  if (outside !== undefined) {
    return {
      ok: false,
      reason: `the patch changes ${outside || '/'}, outside what ${plan.kind} may change (${allowed.join(', ')})`,
    };
  }
  // The restart time is the executor's to choose at apply time (restart-time.ts): a
  // plan may only carry the marker there, never a time (or removal) of its own.
  if (writes.paths.some((path) => within(path, RESTARTED_AT))) {
    const value = valueWrittenAt(plan.patch, RESTARTED_AT);
    if (value !== APPLY_TIME) {
      return {
        ok: false,
        reason: `the patch sets ${RESTARTED_AT} to ${JSON.stringify(value ?? null)}; a plan may only set it to ${JSON.stringify(APPLY_TIME)} (the time of the apply)`,
      };
    }
  }
  return { ok: true };
}
