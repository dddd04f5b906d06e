/**
 * Approvals of a "Propose in Git" press under a two-person rule (src/chat/use-cases/propose-press.ts):
 * each approver's mark, the app's signature over the proposal of the plan as shown
 * (src/trust/approval-signature.ts approvalMark, for proposalOf(plan id)), kept in a set
 * until the plan expires. The press counts only marks this app made: a user id written
 * into Redis is no approval.
 */
import type { Redis } from 'ioredis';
import { redisKeys } from '../../queue/redis-keys.js';

export interface ProposalApprovals {
  /** Adds `mark` and returns every mark recorded for the plan's proposal, this one among them. */
  record(planId: string, mark: string, untilMs: number): Promise<string[]>;
  /** Forgets them (the proposal was queued: the next one needs its approvers again). */
  clear(planId: string): Promise<void>;
}

export function createProposalApprovals(redis: Redis): ProposalApprovals {
  return {
    async record(planId, mark, untilMs) {
      const key = redisKeys.proposalApprovals(planId);
      const [, , members] = (await redis
        .multi()
        .sadd(key, mark)
        .pexpireat(key, Math.max(untilMs, Date.now() + 1_000))
        .smembers(key)
        .exec()) ?? [
        [null, 0],
        [null, 0],
        [null, []],
      ];
      const marks = members?.[1];
      return Array.isArray(marks) ? (marks as string[]) : [];
    },
    async clear(planId) {
      await redis.del(redisKeys.proposalApprovals(planId));
    },
  };
}
