/**
 * Quota freed goes to whichever refused controller retries first. A rollout blocked by a
 * ResourceQuota that another workload's controller is refused by too (snapshot
 * `quotaRefusals`, base/quota-refusals.ts) waits in a race when the quota frees: quota
 * admission takes whichever create comes first. Such a controller has no Pending pod for
 * the forward model to order (rivals.ts), so no wait for it may be claimed. Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';

/** Other controllers of the namespace whose pods `quota` refuses now ("ReplicaSet ml/gamma-g1"). */
export function refusedByQuotaToo(ctx: AnalysisContext, quota: string | undefined): string[] {
  if (!quota) return [];
  return (ctx.snapshot.quotaRefusals ?? []).filter((r) => r.quota === quota).map((r) => r.object);
}
