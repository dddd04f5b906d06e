/**
 * The change to commit, taken from the proved live plan itself (never a change of its
 * own): the plan's merge patch of the workload, less what only the live write needs (the
 * restartedAt annotation that replaces the stuck pod now, stamped at apply time). A kind
 * whose write is no patch of the workload's spec (a ReplicaSet's scale, pods deleted, a
 * DeviceTaintRule, an abort) or a JSON patch of the live object (which tests the live
 * generation and replaces the live value) has nothing a manifest could keep: it says so.
 * Pure.
 */
import { kindOf } from './kinds/index.js';
import type { RemediationPlan } from './plan.js';
import { RESTARTED_AT } from './restart-time.js';

type CommitChange =
  | {
      ok: true;
      /** A merge of the manifest: maps merge, null removes a key, scalars replace. */
      merge: Record<string, unknown>;
      /** The fields it sets or removes, as dotted paths (spec.strategy.rollingUpdate.maxSurge). */
      fields: string[];
    }
  | { ok: false; why: string };

const isRecord = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** The body without the restart annotation, and without maps it leaves empty. */
function withoutRestart(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    const at = [...path, key];
    if (at.join('/') === `spec/template/metadata/annotations/${RESTARTED_AT}`) continue;
    if (isRecord(v)) {
      const kept = withoutRestart(v, at);
      if (Object.keys(kept).length > 0) out[key] = kept;
    } else out[key] = v;
  }
  return out;
}

function leafPaths(value: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(value).flatMap(([key, v]) => {
    const path = prefix ? `${prefix}.${key}` : key;
    return isRecord(v) ? leafPaths(v, path) : [path];
  });
}

function hasList(value: unknown): boolean {
  if (Array.isArray(value)) return true;
  return isRecord(value) && Object.values(value).some(hasList);
}

/** What to commit for `plan`, or why there is nothing a manifest keeps. */
export function commitChangeOf(plan: RemediationPlan): CommitChange {
  if (kindOf(plan).writes !== 'workload-patch' || !plan.patch)
    return {
      ok: false,
      why: `${plan.kind} changes objects the manifest does not hold (or only the live status): there is nothing to commit`,
    };
  if (plan.patch.type === 'json')
    return {
      ok: false,
      why: `${plan.kind} is a JSON patch of the live object (it tests and replaces live values): make the change by hand from the report's "Change to commit"`,
    };
  if (!isRecord(plan.patch.body)) return { ok: false, why: `${plan.kind}'s patch is not a map` };
  const merge = withoutRestart(plan.patch.body, []);
  // A strategic merge of a list merges by key; a manifest edit would need the same keys.
  if (hasList(merge))
    return { ok: false, why: `${plan.kind}'s patch changes a list: make the change by hand` };
  const fields = leafPaths(merge);
  if (fields.length === 0)
    return {
      ok: false,
      why: `${plan.kind} only restarts the pods (the restartedAt annotation): a one-off, nothing to keep in Git`,
    };
  return { ok: true, merge, fields };
}
