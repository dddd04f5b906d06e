/** Words for the quota that refuses a rollout's next pod. */
import type { QuotaRef } from './world.js';

/**
 * Which quota refuses: one that has refused a pod of ours already (its event), or one
 * whose status, as read, leaves no room for what comes next (it has not refused yet).
 */
export function quotaRefuses(quota: QuotaRef | undefined): string {
  if (!quota) return 'the quota refuses';
  return quota.source === 'refusal'
    ? `ResourceQuota ${quota.name} refuses`
    : `ResourceQuota ${quota.name}, as its status counts it, will refuse`;
}
