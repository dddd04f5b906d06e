/**
 * Filling an exclusion's times at the apply (issue 65.5): the plan's patch carries
 * `$NOW` at set-at and `$NOW+24h` (or `never`) at expires-at; the executor writes the
 * time of the apply, and that time plus the duration, in RFC 3339, from the clock that
 * sets a restart's time (src/kube/write/workload-patcher.ts). Pure.
 */
import { annotationPointer, EXCLUSION_ANNOTATIONS } from './exclusion-record.js';
import { fillExpiresMarker } from './exclusion-ttl.js';
import type { Patch } from './plan.js';
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

/** The patch with the exclusion's markers filled at `now`; every other value as approved. */
export function fillExclusionTimes(patch: Patch, now: Date): Patch {
  if (patch.type !== 'json' || !Array.isArray(patch.body)) return patch;
  const body = (patch.body as unknown[]).map((raw) => {
    const op = raw as { op?: unknown; path?: unknown; value?: unknown };
    if (op.op !== 'add' && op.op !== 'replace') return raw;
    if (op.path === annotationPointer(SET_AT) && op.value === APPLY_TIME)
      return { ...op, value: rfc3339(now) };
    if (op.path === annotationPointer(EXPIRES_AT)) return { ...op, value: fillExpiresMarker(op.value, now) };
    if (op.path === '/metadata/annotations' && op.value !== null && typeof op.value === 'object')
      return { ...op, value: filledAnnotations(op.value as Record<string, unknown>, now) };
    return raw;
  });
  return { type: 'json', body };
}
