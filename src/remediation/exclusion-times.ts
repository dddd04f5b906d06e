/**
 * Filling an exclusion's times at the apply: the plan's patch carries
 * `$NOW` at set-at and `$NOW+24h` (or `never`) at expires-at; the executor writes the
 * time of the apply, and that time plus the duration, in RFC 3339, from the clock that
 * sets a restart's time (src/kube/write/workload-patcher.ts). Before that, the duration
 * its approver chose takes the place of the plan's (withExclusionTtl). Pure.
 */
import { annotationPointer, EXCLUSION_ANNOTATIONS } from './exclusion-record.js';
import {
  expiresMarker,
  fillExpiresMarker,
  floorOfMarker,
  ttlOfMarker,
  type ExclusionTtl,
} from './exclusion-ttl.js';
import type { Patch, RemediationPlan } from './plan.js';
import { APPLY_TIME, rfc3339 } from './restart-time.js';

const SET_AT = EXCLUSION_ANNOTATIONS.setAt;
const EXPIRES_AT = EXCLUSION_ANNOTATIONS.expiresAt;

/** The pointers whose value is a time the executor chose (a retry finds any time there as its own). */
export const EXCLUSION_TIME_POINTERS: readonly string[] = [
  annotationPointer(SET_AT),
  annotationPointer(EXPIRES_AT),
];

function filledAnnotations(annotations: Record<string, unknown>, now: Date): Record<string, unknown> {
  const filled = { ...annotations };
  if (filled[SET_AT] === APPLY_TIME) filled[SET_AT] = rfc3339(now);
  if (EXPIRES_AT in filled) filled[EXPIRES_AT] = fillExpiresMarker(filled[EXPIRES_AT], now);
  return filled;
}

type Op = { op?: unknown; path?: unknown; value?: unknown };

/** The annotation map an op adds whole (a workload that had no annotations), else undefined. */
function annotationMap(op: Op): Record<string, unknown> | undefined {
  return op.path === '/metadata/annotations' && op.value !== null && typeof op.value === 'object'
    ? (op.value as Record<string, unknown>)
    : undefined;
}

/** The ops of a JSON patch that set a value (`add`, `replace`), each mapped by `f`; any other patch as it is. */
function mapSettingOps(patch: Patch, f: (op: Op) => unknown): Patch {
  if (patch.type !== 'json' || !Array.isArray(patch.body)) return patch;
  const body = (patch.body as unknown[]).map((raw) => {
    const op = raw as Op;
    return op.op === 'add' || op.op === 'replace' ? f(op) : raw;
  });
  return { type: 'json', body };
}

/** The patch with the exclusion's markers filled at `now`; every other value as approved. */
export function fillExclusionTimes(patch: Patch, now: Date): Patch {
  return mapSettingOps(patch, (op) => {
    if (op.path === annotationPointer(SET_AT) && op.value === APPLY_TIME)
      return { ...op, value: rfc3339(now) };
    if (op.path === annotationPointer(EXPIRES_AT)) return { ...op, value: fillExpiresMarker(op.value, now) };
    const map = annotationMap(op);
    return map ? { ...op, value: filledAnnotations(map, now) } : op;
  });
}

/** The expires-at markers a patch writes (one for an exclude-node plan, none for any other). */
function expiresMarkers(patch: Patch): unknown[] {
  const found: unknown[] = [];
  mapSettingOps(patch, (op) => {
    if (op.path === annotationPointer(EXPIRES_AT)) found.push(op.value);
    const map = annotationMap(op);
    if (map && EXPIRES_AT in map) found.push(map[EXPIRES_AT]);
    return op;
  });
  return found;
}

/**
 * How long the exclusion a patch writes lasts, as planned (its expires-at marker:
 * `$NOW+24h` → `24h`, `never` → until-removed); undefined for a patch that writes no
 * exclusion record, or whose marker is no duration.
 */
export function plannedTtl(patch: Patch): ExclusionTtl | undefined {
  const markers = expiresMarkers(patch);
  return markers.length === 1 ? ttlOfMarker(markers[0]) : undefined;
}

/**
 * The patch with its exclusion lasting `ttl` (the approver's choice, signed into the
 * approval) instead of as planned: only the expires-at marker changes, to another
 * marker, so the allowlist, the seal's other values and the fill at the apply hold as
 * they are; an earlier exclusion's end the marker keeps as its floor stays. Undefined
 * when the patch writes no exclusion record with a marker to replace.
 */
export function withExclusionTtl(patch: Patch, ttl: ExclusionTtl): Patch | undefined {
  if (plannedTtl(patch) === undefined) return undefined;
  const [planned] = expiresMarkers(patch);
  const marker = expiresMarker(ttl, floorOfMarker(planned));
  return mapSettingOps(patch, (op) => {
    if (op.path === annotationPointer(EXPIRES_AT)) return { ...op, value: marker };
    const map = annotationMap(op);
    return map && EXPIRES_AT in map ? { ...op, value: { ...map, [EXPIRES_AT]: marker } } : op;
  });
}

/**
 * The plan with its exclusion lasting `ttl`, as an approval that chose it records it
 * (withExclusionTtl: only the expires-at marker changes): the worker applies a chat
 * approval's choice with it, and `apply --lasts` the command line's. Undefined for a
 * plan that writes no exclusion record.
 */
export function withPlanTtl(plan: RemediationPlan, ttl: ExclusionTtl): RemediationPlan | undefined {
  const patch = plan.patch ? withExclusionTtl(plan.patch, ttl) : undefined;
  return patch ? ({ ...plan, patch } as RemediationPlan) : undefined;
}
