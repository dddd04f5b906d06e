/**
 * The order plans are offered in (the first plan of the top finding is the recommended
 * one, the primary button in Slack). Builders propose their plans best first; once
 * drift is known, a fix the Deployment's owner will put back does not stay ahead of
 * one it leaves alone ("offer the fix that sticks"): reverted false first, then
 * "unknown", then true. Otherwise the builders' order stands (a stable sort), so the
 * same cluster state gives the same order, as it gives the same plan ids.
 *
 * delete-pods only relieves a crash loop (its replacements may land on the bad node
 * again; exclude-node is the fix), so it stays after the plans that fix, whatever
 * their drift. Pure.
 */
import type { PlanDrift, RemediationKind, RemediationPlan } from './plan.js';

/** Kinds that accompany a fix rather than being one: never promoted above a fix. */
const RELIEF_ONLY: ReadonlySet<RemediationKind> = new Set(['delete-pods']);

function driftRank(drift: PlanDrift | undefined): number {
  if (drift?.reverted === false) return 0;
  if (drift?.reverted === true) return 2;
  return 1;
}

/** `ids` (one finding's plans, builders' order) with the fixes that stick first. */
export function orderByDrift(ids: readonly string[], plans: ReadonlyMap<string, RemediationPlan>): string[] {
  const key = (id: string): [number, number] => {
    const plan = plans.get(id);
    return [plan && RELIEF_ONLY.has(plan.kind) ? 1 : 0, driftRank(plan?.drift)];
  };
  return ids
    .map((id, index) => ({ id, index, key: key(id) }))
    .sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.index - b.index)
    .map((entry) => entry.id);
}
