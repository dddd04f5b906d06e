/**
 * Whether a plan's assumptions still hold for the live workload (any kind a plan
 * targets: the refusal names it). Pure.
 */
import type { WorkloadObject } from '../../diagnosis/snapshot/types.js';
import { getAt, jsonEqual } from '../../remediation/json-pointer.js';
import type { Preconditions } from '../../remediation/plan.js';

type PreconditionVerdict = { ok: true } | { ok: false; reason: string; field?: string };

/**
 * Checks uid (object replaced), generation (spec changed since diagnosis; not for a plan
 * whose fields alone decide, an Undo), then each assumed field, naming the first
 * mismatch with both values.
 */
export function checkPreconditions(
  live: WorkloadObject,
  preconditions: Preconditions,
  /** The plan's target kind ("DaemonSet", "Rollout", ...), as the refusal names it. */
  kind: string,
): PreconditionVerdict {
  const uid = live.metadata.uid ?? '';
  if (uid !== preconditions.uid) {
    return {
      ok: false,
      reason: `object replaced: the ${kind} was deleted and re-created since diagnosis (uid ${preconditions.uid} is now ${uid})`,
    };
  }
  const generation = live.metadata.generation ?? 0;
  if (preconditions.fieldsOnly !== true && generation !== preconditions.generation) {
    return {
      ok: false,
      reason: `spec changed since diagnosis (generation ${preconditions.generation} is now ${generation}); diagnose again`,
    };
  }
  for (const field of preconditions.fields) {
    const current = getAt(live, field.path);
    if (!jsonEqual(current, field.value)) {
      return {
        ok: false,
        field: field.path,
        reason: `${field.path} was ${show(field.value)} at diagnosis and is now ${show(current)}`,
      };
    }
  }
  return { ok: true };
}

function show(value: unknown): string {
  return value === undefined ? '(absent)' : JSON.stringify(value);
}
