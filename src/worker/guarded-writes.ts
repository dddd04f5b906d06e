/**
 * The worker's own writes, guarded against a failover the way the app's are
 * (src/queue/replication-guard.ts; docs/operations.md, "What Redis can lose"): the
 * result of a diagnosis with the plans it offers, each reply in a plan's thread
 * (applied, step progress, rolled out, refused, failed…) with the Undo plan it offers
 * and the claim a failure releases, and an approval's nonce before the cluster is
 * written. After each, the worker WAITs for the replicas REDIS_WAIT_REPLICAS asks for;
 * writes no replica confirmed in time are watched and, if a failover lost them, written
 * again. Each rewrite is idempotent: a notification carries a BullMQ deduplication id
 * chosen when it is first queued (the same id on every rewrite, kept an hour), a plan is
 * written only where none is stored, a release drops only the claim it released, a
 * nonce is set only where none is. Every step is data (`WorkerStep`), so a journal
 * (src/queue/guard-journal.ts) lets a restarted worker write them again too.
 *
 * Not guarded: a diagnosis's progress lines (each is overwritten by the next and by
 * the result); the BullMQ job's own state (a job whose completion a failover lost is
 * taken again once its lock lapses, and the executor's preconditions make the rerun
 * harmless); the early-warning lease (renewed every 5 s).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import type { PlanStore, StoredPlan } from '../queue/plan-store.js';
import type { EnqueueOptions } from '../queue/producers.js';
import type { ReplicationGuard } from '../queue/replication-guard.js';
import { notifyJobSchema, type NotifyJobInput } from '../queue/schemas.js';
import { redisKeys } from '../queue/redis-keys.js';

/** One write of the worker, as data: what a rewrite does again. */
export type WorkerStep =
  | { notify: NotifyJobInput; options: EnqueueOptions }
  | { plan: StoredPlan }
  | { release: { planId: string; claimedAt: number } }
  | { nonce: { key: string; value: string; expiresAt: number } };

/** The replay kind under which the worker's steps are journaled. */
export const WORKER_REPLAY = 'worker-writes';

/** How long a notification's deduplication id is kept: longer than the guard watches (10 min). */
export const NOTIFY_DEDUP_TTL_MS = 60 * 60_000;

const dedupSchema = z.object({ id: z.string().regex(/^[^:]{1,200}$/), ttl: z.number().int().positive() });
const stepSchema = z.union([
  z.object({
    notify: notifyJobSchema,
    options: z.object({ deduplication: dedupSchema.optional(), background: z.boolean().optional() }),
  }),
  // The plan as this worker saved it (unsealed: the sealing store seals it again, the same way).
  z.object({ plan: z.looseObject({ plan: z.looseObject({ id: z.string() }), expiresAt: z.number() }) }),
  z.object({ release: z.object({ planId: z.string(), claimedAt: z.number() }) }),
  z.object({
    nonce: z.object({
      key: z.string().startsWith(redisKeys.approvalNonce('')),
      value: z.string(),
      expiresAt: z.number(),
    }),
  }),
]);
const stepsSchema = z.array(stepSchema);

export interface WorkerWriteDeps {
  notify(job: NotifyJobInput, options?: EnqueueOptions): Promise<void>;
  /** The sealing plan store (src/worker/plan-trust.ts). */
  plans: PlanStore;
  /** The connection the writes go through (the nonce's SET). */
  redis: Redis;
  now?: () => number;
}

/** Writes the steps again, each idempotent (see above); the replayer of WORKER_REPLAY. */
export function replayWorkerSteps(deps: WorkerWriteDeps): (data: unknown) => Promise<void> {
  const now = deps.now ?? Date.now;
  return async (data) => {
    for (const step of stepsSchema.parse(data)) {
      if ('notify' in step) await deps.notify(step.notify as NotifyJobInput, step.options);
      else if ('plan' in step) await deps.plans.save(step.plan as unknown as StoredPlan, { ifAbsent: true });
      else if ('release' in step)
        await deps.plans.release(step.release.planId, { claimedAt: step.release.claimedAt });
      else {
        const ttl = step.nonce.expiresAt - now();
        if (ttl > 0) await deps.redis.set(step.nonce.key, step.nonce.value, 'PX', ttl, 'NX');
      }
    }
  };
}

interface WorkerWrites {
  /** Queues a notification; all but a diagnosis's progress are guarded with the writes before them. */
  notify(job: NotifyJobInput, options?: EnqueueOptions): Promise<void>;
  /** The plan store whose saves and releases ride on the next guarded notification. */
  plans: PlanStore;
  /** An approval's nonce record, on the replicas (or watched) before the cluster is written. */
  nonce(nonce: { key: string; value: string; expiresAt: number }): Promise<void>;
}

/** What the log names of a notification (no text of it). */
function fieldsOf(job: NotifyJobInput): Record<string, unknown> {
  return {
    kind: job.kind,
    ...('planId' in job ? { planId: job.planId } : {}),
    ...('jobId' in job ? { jobId: job.jobId } : {}),
    ...('stage' in job ? { stage: job.stage } : {}),
  };
}

/**
 * The worker's writes through `guard` (undefined: written as they come, nothing waited
 * for). Plans saved and claims released are kept until the next guarded write, whose
 * WAIT covers them (one connection), and written again with it.
 */
export function guardWorkerWrites(deps: WorkerWriteDeps, guard: ReplicationGuard | undefined): WorkerWrites {
  const replay = replayWorkerSteps(deps);
  let unconfirmed: WorkerStep[] = [];
  const confirm = async (label: string, fields: Record<string, unknown>, last: WorkerStep): Promise<void> => {
    // Everything written on the connection so far is covered by this WAIT.
    const steps = [...unconfirmed, last];
    unconfirmed = [];
    await guard?.confirm({
      label,
      fields,
      redo: () => replay(steps),
      replay: { kind: WORKER_REPLAY, data: steps },
    });
  };
  return {
    async notify(job, options = {}) {
      if (job.kind === 'diagnosis-progress') return deps.notify(job, options);
      const guarded: EnqueueOptions = {
        ...options,
        deduplication: options.deduplication ?? { id: `w-${randomUUID()}`, ttl: NOTIFY_DEDUP_TTL_MS },
      };
      await deps.notify(job, guarded);
      await confirm(`worker ${job.kind}`, fieldsOf(job), { notify: job, options: guarded });
    },
    plans: {
      ...deps.plans,
      async save(stored, options) {
        await deps.plans.save(stored, options);
        // Unsealed as given: the sealing store seals it the same way again.
        const { seal: _seal, ...plan } = stored;
        unconfirmed.push({ plan: plan as StoredPlan });
      },
      async release(id, options) {
        const claimedAt = options?.claimedAt ?? (await deps.plans.claimOf(id))?.at;
        await deps.plans.release(id, options);
        if (claimedAt !== undefined) unconfirmed.push({ release: { planId: id, claimedAt } });
      },
    },
    async nonce(nonce) {
      await confirm('approval nonce', { key: nonce.key }, { nonce });
    },
  };
}
