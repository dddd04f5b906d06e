/**
 * The order plans are offered in (the first plan of the top finding is the recommended
 * one, the primary button in Slack). Builders propose their plans best first; once
 * drift is known, a fix the Deployment's owner will put back does not stay ahead of
 * one it leaves alone ("offer the fix that sticks"): reverted false first, then
 * "unknown", then true. Otherwise the builders' order stands (a stable sort), so the
 * same cluster state gives the same order, as it gives the same plan ids.
 *
 * A kind that only relieves (delete-pods: its replacements may land on the bad node
 * again; exclude-node is the fix) stays after the plans that fix, whatever their
 * drift. Pure.
 */
import { findKind } from './kinds/index.js';
import type { PlanDrift, RemediationPlan } from './plan.js';

function driftRank(drift: PlanDrift | undefined): number {
  if (drift?.reverted === false) return 0;
  if (drift?.reverted === true) return 2;
  return 1;
}

/** `ids` (one finding's plans, builders' order) with the fixes that stick first. */
export function orderByDrift(ids: readonly string[], plans: ReadonlyMap<string, RemediationPlan>): string[] {
  const key = (id: string): [number, number] => {
    const plan = plans.get(id);
    // A kind that accompanies a fix rather than being one (kinds/: reliefOnly) is never promoted above a fix.
    return [plan && findKind(plan.kind)?.reliefOnly ? 1 : 0, driftRank(plan?.drift)];
  };
  return ids
    .map((id, index) => ({ id, index, key: key(id) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index)
    .map((entry) => entry.id);
}
