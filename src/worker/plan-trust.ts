/**
 * What a worker trusts before it writes to a cluster. Redis is shared with the app
 * (and with whoever else reaches it), so neither a stored plan nor a job is taken at
 * its word: a plan must carry this worker fleet's seal, the job must carry the app's
 * signed approval of exactly that plan, and an approval is honoured for one job only.
 */
import { redisKeys } from '../queue/redis-keys.js';
import type { KeyObject } from 'node:crypto';
import type { Redis } from 'ioredis';
import { proposalOf, verifyApproval, type ApprovalClaims } from '../trust/approval-signature.js';
import { sealPlan, verifySeal, type SealKeys } from '../trust/plan-seal.js';
import type { PlanStore, StoredPlan } from '../queue/plan-store.js';
import type { RemediateJob } from '../queue/schemas.js';

type TrustVerdict =
  | { ok: true; claims: ApprovalClaims }
  | {
      ok: false;
      reason: string;
      /** A genuine approval whose time is past (src/trust/clock-skew.ts). */
      expired?: true;
    };

export interface PlanTrust {
  /**
   * Verifies the plan's seal, the job's approval of that plan, and that no other job used
   * the approval. `proposal`: the job is a "Propose in Git" job, whose approval the app
   * signed for proposalOf(plan id) (src/chat/use-cases/propose-press.ts): neither kind of
   * approval stands for the other.
   */
  check(
    stored: StoredPlan,
    job: { id: string; data: RemediateJob },
    options?: { proposal?: boolean },
  ): Promise<TrustVerdict>;
}

const NONCE_KEY = redisKeys.approvalNonce;
const NONCE_KEEP_MS = 24 * 3600 * 1000;

/** @example createPlanTrust({ seal, approvalKeys, redis }).check(stored, job) */
export function createPlanTrust(options: {
  seal: SealKeys;
  approvalKeys: ReadonlyMap<string, KeyObject>;
  redis: Redis;
  now?: () => number;
  /**
   * Once the approval is this job's: its nonce record, to be on a replica before the
   * cluster is written (src/worker/guarded-writes.ts). `expiresAt`: when the record goes.
   */
  onNonce?: (nonce: { key: string; value: string; expiresAt: number }) => Promise<void>;
}): PlanTrust {
  const now = options.now ?? Date.now;
  return {
    async check(stored, job, purpose = {}) {
      const seal = verifySeal(stored, stored.seal, options.seal);
      if (!seal.ok) return seal;
      const approval = verifyApproval(job.data.approval, options.approvalKeys, {
        planId: purpose.proposal ? proposalOf(stored.plan.id) : stored.plan.id,
        digest: seal.digest,
        cluster: job.data.cluster,
        now: now(),
        platform: job.data.platform,
        channel: job.data.channel,
        messageTs: job.data.messageTs,
        approvedBy: job.data.approvedBy,
      });
      if (!approval.ok) return approval;
      // Replay guard: the first job to present this approval owns it; a retry of that
      // job passes, a copy under another job id does not.
      const key = NONCE_KEY(approval.claims.nonce);
      const ttl = Math.max(1, approval.claims.expiresAt - now()) + NONCE_KEEP_MS;
      const taken = await options.redis.set(key, job.id, 'PX', ttl, 'NX');
      if (taken === null && (await options.redis.get(key)) !== job.id) {
        return { ok: false, reason: 'this approval was already used by another job' };
      }
      await options.onNonce?.({ key, value: job.id, expiresAt: now() + ttl });
      return approval;
    },
  };
}

/** The plan store as a worker uses it: every plan it saves carries its seal. */
export function sealingPlanStore(store: PlanStore, keys: SealKeys): PlanStore {
  return {
    ...store,
    save: (stored, options) => {
      const { seal: _unused, ...unsealed } = stored;
      return store.save({ ...unsealed, seal: sealPlan(unsealed, keys) }, options);
    },
  };
}
