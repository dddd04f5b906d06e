/**
 * What a remediation did, kept until Redis takes it. A worker that applied
 * a fix must say so in the thread even when Redis refuses writes for seconds to minutes
 * (full with `noeviction`, down, stalled): the cluster changed, and a message stuck at
 * "approved; applying" with no Undo is worse than a late reply.
 *
 * Each attempt's writes (its Undo plan, a released claim, then the reply that names
 * them) are kept as one entry, in memory and, with a journal directory, as a file (the
 * replication journal's format: src/queue/guard-journal.ts), so a worker restarted
 * meanwhile (its liveness probe fails while Redis is away: deploy/worker.yaml) delivers
 * them too. Entries are delivered in order, each through the guarded writes
 * (src/worker/guarded-writes.ts, idempotent: a notification's deduplication id is
 * chosen when it is kept), and tried again until Redis takes them, whatever the job's
 * own retries do. An entry whose job a later attempt has started is dropped instead
 * (src/worker/job-fence.ts): the worker that took the job over tells the thread.
 *
 * `notify` waits for its entry to be delivered up to `holdMs`, so a job that completes
 * has normally said everything first; past that it goes on and the entry stays kept.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ZodError } from 'zod';
import type { Logger } from '../logger.js';
import type { PlanStore, StoredPlan } from '../queue/plan-store.js';
import type { EnqueueOptions } from '../queue/producers.js';
import type { FileJournal } from '../queue/guard-journal.js';
import type { NotifyJobInput } from '../queue/schemas.js';
import {
  NOTIFY_DEDUP_TTL_MS,
  replayWorkerSteps,
  type WorkerStep,
  type WorkerWriteDeps,
} from './guarded-writes.js';
import { superseded, type FenceRef } from './job-fence.js';

/** The replay kind of an outbox entry in its journal. */
const OUTBOX_REPLAY = 'worker-outbox';

/** The writes of one attempt, as the remediate processor makes them. */
export interface AttemptWrites {
  notify(job: NotifyJobInput, options?: EnqueueOptions): Promise<void>;
  plans: PlanStore;
}

export interface Outbox {
  /** The writes of the attempt `fence` names, kept until delivered. */
  forAttempt(fence: FenceRef): AttemptWrites;
  /** Entries not delivered yet. */
  pending(): number;
  /** Resolves true once every entry kept so far is delivered or dropped, false after `timeoutMs`. */
  drained(timeoutMs: number): Promise<boolean>;
  stop(): void;
}

interface Entry {
  id: string;
  fence: FenceRef;
  steps: WorkerStep[];
  since: number;
  delivered: Promise<void>;
  settle(): void;
}

type Keep = (fence: FenceRef, steps: WorkerStep[], id?: string, since?: number) => Entry;

interface OutboxOptions {
  /** The guarded writes (notify, the sealing plan store, their connection). */
  writes: WorkerWriteDeps;
  /** Where fences are read (the producer connection). */
  redis: Redis;
  logger: Logger;
  /** Entries across a restart (REDIS_WAIT_JOURNAL_DIR/outbox). */
  journal?: FileJournal;
  /** How long `notify` waits for its delivery (default 5 s). */
  holdMs?: number;
  /** First pause after a refused delivery (default 250 ms), doubled up to `maxPauseMs` (default 2 s). */
  pauseMs?: number;
  maxPauseMs?: number;
  now?: () => number;
}

const entryData = (entry: Pick<Entry, 'fence' | 'steps'>): unknown => ({
  fence: entry.fence,
  steps: entry.steps,
});

/** What an earlier process kept, queued again (records of another MAC refused). */
function reload(
  journal: NonNullable<OutboxOptions['journal']>,
  logger: OutboxOptions['logger'],
  keep: Keep,
): void {
  const { records, dropped, refused } = journal.load();
  if (dropped.length > 0) logger.warn({ files: dropped.length }, 'unreadable outbox records dropped');
  if (refused.length > 0)
    logger.warn(
      { files: refused.length, audit: true },
      "outbox records refused: their MAC is not this worker's (written or altered by someone else); not delivered",
    );
  for (const record of records) {
    if (record.replay.kind !== OUTBOX_REPLAY) continue;
    const data = record.replay.data as { fence: FenceRef; steps: WorkerStep[] };
    keep(data.fence, data.steps, record.id, record.since);
  }
}

/** One attempt's writes: replies kept in the outbox with the plans and releases before them. */
function attemptWrites(fence: FenceRef, keep: Keep, options: OutboxOptions): AttemptWrites {
  let buffered: WorkerStep[] = [];
  return {
    async notify(job, enqueue = {}) {
      const options_: EnqueueOptions = {
        ...enqueue,
        deduplication: enqueue.deduplication ?? { id: `w-${randomUUID()}`, ttl: NOTIFY_DEDUP_TTL_MS },
      };
      const steps = [...buffered, { notify: job, options: options_ }];
      buffered = [];
      const entry = keep(fence, steps);
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        entry.delivered,
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, options.holdMs ?? 5_000);
        }),
      ]);
      clearTimeout(timer);
    },
    plans: {
      ...options.writes.plans,
      async save(stored: StoredPlan) {
        // Unsealed as given: the sealing store seals it when it is written.
        const { seal: _seal, ...plan } = stored;
        buffered.push({ plan: plan as StoredPlan });
      },
      async release(id, release) {
        const claimedAt = release?.claimedAt ?? (await options.writes.plans.claimOf(id))?.at;
        if (claimedAt !== undefined) buffered.push({ release: { planId: id, claimedAt } });
      },
    },
  };
}

export function createOutbox(options: OutboxOptions): Outbox {
  const { logger, journal } = options;
  const now = options.now ?? Date.now;
  const replay = replayWorkerSteps(options.writes);
  const queue: Entry[] = [];
  let pumping: Promise<void> | undefined;
  let stopped = false;
  let wake: (() => void) | undefined;

  const keep: Keep = (fence, steps, id = randomUUID(), since = now()) => {
    let settle = (): void => undefined;
    const delivered = new Promise<void>((resolve) => {
      settle = resolve;
    });
    const entry: Entry = { id, fence, steps, since, delivered, settle };
    journal?.put({
      id,
      label: 'outbox',
      fields: { ...fence },
      replay: { kind: OUTBOX_REPLAY, data: entryData(entry) },
      mark: undefined,
      since,
    });
    queue.push(entry);
    pump();
    return entry;
  };

  const done = (entry: Entry): void => {
    queue.shift();
    journal?.remove(entry.id);
    entry.settle();
  };

  const deliver = async (): Promise<void> => {
    let pause = options.pauseMs ?? 250;
    let refusals = 0;
    while (!stopped && queue.length > 0) {
      const entry = queue[0] as Entry;
      try {
        if (await superseded(options.redis, entry.fence)) {
          logger.warn({ ...entry.fence }, 'outcome of a job a later attempt took over: not posted');
        } else {
          await replay(entry.steps);
          if (refusals > 0)
            logger.info({ ...entry.fence, keptMs: now() - entry.since }, 'kept outcome delivered');
        }
        done(entry);
        pause = options.pauseMs ?? 250;
        refusals = 0;
      } catch (error) {
        if (error instanceof ZodError) {
          logger.error({ ...entry.fence }, 'kept outcome is malformed: dropped');
          done(entry);
          continue;
        }
        refusals += 1;
        if (refusals === 1)
          logger.warn(
            { ...entry.fence, err: error instanceof Error ? error.message : String(error) },
            'Redis refuses the outcome: kept, delivered when it takes writes',
          );
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pause);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        wake = undefined;
        pause = Math.min(pause * 2, options.maxPauseMs ?? 2_000);
      }
    }
  };

  function pump(): void {
    pumping ??= deliver().finally(() => {
      pumping = undefined;
      if (!stopped && queue.length > 0) pump();
    });
  }

  if (journal) reload(journal, logger, keep);
  if (queue.length > 0)
    logger.info({ entries: queue.length }, 'outbox: delivering what an earlier process kept');

  return {
    forAttempt: (fence) => attemptWrites(fence, keep, options),
    pending: () => queue.length,
    async drained(timeoutMs) {
      const deadline = now() + timeoutMs;
      while (queue.length > 0) {
        if (now() > deadline) return false;
        wake?.();
        await Promise.race([queue[0]?.delivered, new Promise((r) => setTimeout(r, 50))]);
      }
      return true;
    },
    stop() {
      stopped = true;
      wake?.();
    },
  };
}
