import type { DiagnoseSignature } from './diagnose-signature.js';
import type { SignedNotifyJob } from './notify-signature.js';
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { jobIdOfDiagnosis, proposeJobId, remediateJobId } from './job-ids.js';
import { RedisTroubleError, withDeadline, type Deadline } from './deadline.js';
import { isWithdrawn, newRequestId, withdrawRequest } from './withdrawn.js';
import {
  ALERT_NOTIFY_QUEUE,
  NOTIFY_QUEUE,
  NOTIFY_QUEUES,
  QUEUE_PREFIX,
  diagnoseQueueName,
  proposeQueueName,
  remediateQueueName,
} from './names.js';
import {
  diagnoseJobSchema,
  notifyJobSchema,
  proposeJobSchema,
  remediateJobSchema,
  type DiagnoseJob,
  type NotifyJob,
  type NotifyJobInput,
  type ProposeJob,
  type RemediateJob,
} from './schemas.js';

/**
 * Redis could not take the job in time: the user gets "queue unavailable", and why
 * (`trouble`: stalled, full, read-only or unreachable; src/queue/deadline.ts).
 */
export class QueueUnavailableError extends RedisTroubleError {
  override name = 'QueueUnavailableError';
}

/**
 * Diagnoses retry transient failures (cluster briefly unreachable) with backoff.
 * Finished jobs are removed at once: a deterministic id only deduplicates while
 * the job exists, and a later request must start a fresh run.
 */
const DIAGNOSE_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: true,
  removeOnFail: true,
};

/**
 * A patch is retried only for transient failures; the executor refuses a stale plan.
 * A completed job is kept for a day so a repeated approval of the same plan is a
 * no-op; a failed one (nothing applied, claim released) is removed so the plan can be
 * approved and queued again.
 */
export const REMEDIATE_JOB_OPTIONS: JobsOptions = {
  attempts: 3,
  backoff: { type: 'exponential', delay: 2_000 },
  removeOnComplete: { age: 24 * 3600 },
  removeOnFail: true,
};

/** A proposal is not retried: a press again runs it again (and updates its pull request). */
const PROPOSE_JOB_OPTIONS: JobsOptions = {
  attempts: 1,
  removeOnComplete: { age: 3600 },
  removeOnFail: { age: 24 * 3600 },
};

const NOTIFY_JOB_OPTIONS: JobsOptions = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 1_000 },
  removeOnComplete: { count: 1_000 },
  removeOnFail: { age: 24 * 3600 },
};

/** Extra add options; ids must not contain ':'. */
export interface EnqueueOptions {
  deduplication?: { id: string; ttl: number };
  /**
   * Work nobody is waiting for at a keyboard (alerts, early warning). A diagnosis is
   * queued with a BullMQ priority, so a person's command (no priority, BullMQ's
   * highest) is taken first however many of these wait; a notification goes to the
   * alert lane (ALERT_NOTIFY_QUEUE).
   */
  background?: boolean;
  /**
   * The answer's deadline (src/queue/deadline.ts): the add is given up when it passes,
   * or after the producers' own bound, whichever comes first. A person's diagnosis given
   * a deadline carries a request id, withdrawn when the add fails or is given up (a late
   * add then runs nothing: src/queue/withdrawn.ts).
   */
  deadline?: Deadline;
}

/** Alert threads and summaries, and results of background runs, take the alert lane. */
function notifyLane(job: NotifyJob, background: boolean): string {
  return background || job.kind === 'alert-thread' || job.kind === 'alert-overflow'
    ? ALERT_NOTIFY_QUEUE
    : NOTIFY_QUEUE;
}

async function promoteIfBackground(q: Queue, jobId: string): Promise<void> {
  const waiting = await q.getJob(jobId);
  // Only while it waits among the prioritized: a running job is already being worked on.
  if (waiting && waiting.priority > 0 && (await waiting.getState()) === 'prioritized')
    await waiting.changePriority({ priority: 0 });
}

/** States of a job a worker has yet to finish: the only ones a request may join. */
const RUNNING_STATES = new Set(['waiting', 'prioritized', 'active', 'delayed', 'waiting-children']);

/**
 * A run a request may join: queued or running, and not a job whose request was answered
 * "not started" (src/queue/withdrawn.ts): a worker drops that one, and whoever joined it
 * would get no result. Two more reads, only when a job already holds the target's id.
 */
async function joinable(connection: Redis, q: Queue, jobId: string): Promise<boolean> {
  const state = await q.getJobState(jobId);
  if (!RUNNING_STATES.has(state)) return false;
  const request = requestOf(await connection.hget(q.toKey(jobId), 'data'));
  if (request === undefined || !(await isWithdrawn(connection, request))) return true;
  // Withdrawn and waiting: it goes, and a fresh run is queued. Withdrawn and taken: the
  // worker drops it on its first read, so wait for it to leave rather than join it.
  return state === 'active' && stillActive(q, jobId);
}

/** How long a withdrawn job a worker took may take to be dropped before a request joins it. */
const DROP_WAIT_MS = 1_000;
const DROP_POLL_MS = 25;

/**
 * Whether a taken job is still running after DROP_WAIT_MS: false as soon as it leaves
 * (dropped, so the caller queues a fresh run). One that stays has run past the worker's
 * withdrawn check, and its result will come.
 */
async function stillActive(q: Queue, jobId: string): Promise<boolean> {
  const until = Date.now() + DROP_WAIT_MS;
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, DROP_POLL_MS));
    if ((await q.getJobState(jobId)) !== 'active') return false;
  }
  return true;
}

/** The request id a stored job's data carries, if any. */
function requestOf(data: string | null): string | undefined {
  try {
    const parsed = JSON.parse(data ?? '{}') as { request?: unknown };
    return typeof parsed.request === 'string' ? parsed.request : undefined;
  } catch {
    return undefined;
  }
}

/** BullMQ priority of background diagnoses: any value > 0 comes after un-prioritized jobs. */
export const BACKGROUND_PRIORITY = 10;

interface EnqueuedDiagnosis {
  jobId: string;
  /** True when a run for the same target was already queued or running. */
  joined: boolean;
  /**
   * The run joined (its job's add time, the `runTs` of its notifications): its result
   * answers this request even when published just before it (the job not yet completed).
   */
  joinedRun?: number;
  /** The request id the job carries (a person's, with a deadline): `withdraw` it if the answer says "not started". */
  request?: string;
}

/** Typed producers for the three queues, sharing one fail-fast connection. */
export interface Producers {
  /** `deduplication`: BullMQ throttle (one job per id per ttl), used by alert storms. */
  enqueueDiagnose(job: DiagnoseJob, options?: EnqueueOptions): Promise<EnqueuedDiagnosis>;
  enqueueRemediate(job: RemediateJob, options?: { deadline?: Deadline }): Promise<{ jobId: string }>;
  /**
   * A "Propose in Git" job (src/worker/propose-processor.ts): a remediate job's data
   * whose approval the app signed for the proposal of the plan (src/chat/use-cases/propose-press.ts).
   */
  enqueuePropose?(job: ProposeJob, options?: { deadline?: Deadline }): Promise<{ jobId: string }>;
  enqueueNotify(job: NotifyJobInput, options?: EnqueueOptions): Promise<void>;
  /**
   * Queues a notification another signer made, as it was signed (the webhook's
   * announcements: src/app/notify/announce-mover.ts); the caller verified it. `jobId`
   * makes a repeated forward of the same entry a no-op while the job is kept.
   */
  forwardNotify(signed: SignedNotifyJob, options: EnqueueOptions & { jobId?: string }): Promise<void>;
  /**
   * Marks a request withdrawn (src/queue/withdrawn.ts): its job, queued now or later,
   * runs nothing. For a caller that gives up after the add answered (a WAIT past its
   * deadline); an add that fails or is given up is withdrawn by `enqueueDiagnose` itself.
   */
  withdraw(request: string): void;
  /**
   * Redis key of a BullMQ deduplication window (`deduplication.id`) on the notify
   * queue or a cluster's diagnose queue. While it exists with a TTL, an add with that
   * id is dropped, so a caller may check it first and skip the add.
   */
  dedupKey(
    queue: { kind: 'notify' } | { kind: 'alert-notify' } | { kind: 'diagnose'; cluster: string },
    id: string,
  ): string;
  /** Waiting/active/delayed/failed counts per queue, for /metrics. */
  depths(): Promise<{ queue: string; state: string; count: number }[]>;
  close(): Promise<void>;
}

/**
 * @param connection a producer connection (`createProducerConnection`): no offline queue.
 * @param clusters clusters whose diagnose/remediate queues this process may write to.
 * @param timeoutMs bound on each add, so callers answer Slack in time even when Redis hangs.
 */
interface ProducerOptions {
  connection: Redis;
  clusters: readonly string[];
  timeoutMs?: number;
  onError?: (error: Error, queue: string) => void;
  /**
   * Signs each diagnose job (src/queue/diagnose-signature.ts): the app with its approval
   * key, a worker's early warning with the seal key. Workers run no job without it.
   */
  signDiagnose?: (job: DiagnoseJob, jobId: string) => DiagnoseSignature;
  /**
   * Signs each notify job (src/queue/notify-signature.ts): workers with their notify
   * key, the app with its own. The app posts no notification without a valid signature.
   */
  signNotify?: (job: NotifyJob) => SignedNotifyJob;
}

/**
 * The queues of one producer connection, made on first use. BullMQ readies a queue
 * once (it reads the server version): made while Redis was going away (a failover as
 * the first command came in), that promise stays rejected and every later add fails at
 * once. Such a queue is dropped, so the next call makes a fresh one; closing it leaves
 * the shared connection open.
 */
function queueCache(
  connection: Redis,
  onError: ProducerOptions['onError'],
): ((name: string) => Queue) & { all(): Queue[] } {
  const queues = new Map<string, Queue>();
  const queue = (name: string): Queue => {
    const cached = queues.get(name);
    if (cached) return cached;
    const created = new Queue(name, { connection, prefix: QUEUE_PREFIX });
    created.on('error', (error) => onError?.(error, name));
    queues.set(name, created);
    created.waitUntilReady().catch(() => {
      if (queues.get(name) === created) queues.delete(name);
      void created.close().catch(() => undefined);
    });
    return created;
  };
  return Object.assign(queue, { all: () => [...queues.values()] });
}

/**
 * Adds a diagnosis under its fixed id, or joins the run already under it: whether the
 * job existed tells the person they joined.
 */
async function addOrJoin(
  connection: Redis,
  q: Queue,
  jobId: string,
  add: () => Promise<unknown>,
  background: boolean,
): Promise<EnqueuedDiagnosis> {
  // BullMQ ignores an add whose id exists; whether the job existed tells the
  // user they joined. EXISTS goes out now, before the add's script, on the
  // same connection (the queue shares it), so Redis answers it first: one
  // round trip before the ack instead of a read (HGETALL of the whole job)
  // followed by the add.
  // The queue's first use waits for the connection to be ready (as BullMQ's
  // own commands do); afterwards this resolves at once.
  await q.waitUntilReady();
  const key = q.toKey(jobId);
  const [existed, stamp] = await Promise.all([
    connection.exists(key),
    connection.hget(key, 'timestamp'),
    add(),
  ]);
  if (existed === 1 && !(await joinable(connection, q, jobId))) {
    // Not a run to join: a job that failed or was refused, a record no
    // worker will take (written into Redis, in no list), or a job whose request was
    // withdrawn (its answer said "not started": withdrawn.ts), under the workload's fixed id. It goes, and this request
    // queues a fresh run.
    await q.remove(jobId).catch(() => 0);
    await connection.del(q.toKey(jobId));
    await add();
    return { jobId, joined: false };
  }
  // A person joining a background run (an alert's diagnosis of the same
  // Deployment still waiting behind other alerts) takes it to the front: it
  // leaves the prioritized set for the plain wait list.
  if (existed !== 1) return { jobId, joined: false };
  if (!background) await promoteIfBackground(q, jobId);
  const joinedRun = Number(stamp);
  return { jobId, joined: true, ...(stamp !== null && Number.isSafeInteger(joinedRun) ? { joinedRun } : {}) };
}

/** The jobs that carry a stored plan's id and the app's signed approval: remediate and propose. */
function planJobs(
  queue: (name: string) => Queue,
  bounded: <T>(work: Promise<T>, what: string, deadline?: Deadline) => Promise<T>,
  assertKnown: (cluster: string) => void,
): Pick<Producers, 'enqueueRemediate' | 'enqueuePropose'> {
  return {
    async enqueueRemediate(input, addOptions) {
      const job = remediateJobSchema.parse(input);
      assertKnown(job.cluster);
      const jobId = remediateJobId(job.planId);
      // A late add runs nothing either: the caller releases the claim when this throws,
      // and the worker applies no plan without its claim (src/worker/remediate-processor.ts).
      await bounded(
        queue(remediateQueueName(job.cluster)).add('remediate', job, { ...REMEDIATE_JOB_OPTIONS, jobId }),
        'enqueue remediation',
        addOptions?.deadline,
      );
      return { jobId };
    },
    async enqueuePropose(input, addOptions) {
      const job = proposeJobSchema.parse(input);
      assertKnown(job.cluster);
      const jobId = proposeJobId(job.planId, Date.now());
      await bounded(
        queue(proposeQueueName(job.cluster)).add('propose', job, { ...PROPOSE_JOB_OPTIONS, jobId }),
        'enqueue proposal',
        addOptions?.deadline,
      );
      return { jobId };
    },
  };
}

export function createProducers(options: ProducerOptions): Producers {
  const { connection, timeoutMs = 1_500 } = options;
  const queue = queueCache(connection, options.onError);
  const bounded = <T>(work: Promise<T>, what: string, deadline?: Deadline): Promise<T> =>
    queueBound(work, what, Math.min(timeoutMs, deadline?.left() ?? timeoutMs));
  const assertKnown = (cluster: string): void => {
    if (!options.clusters.includes(cluster)) throw new Error(`unknown cluster ${cluster}`);
  };

  return {
    async enqueueDiagnose(input, addOptions) {
      // A person's request under a deadline carries an id (the caller's, so a redo after a
      // failover queues the same request, or a fresh one): withdrawn if the add is given up.
      const fenced = addOptions?.deadline !== undefined && !addOptions.background;
      const request = input.request ?? (fenced ? newRequestId() : undefined);
      const job = diagnoseJobSchema.parse(request ? { ...input, request } : input);
      assertKnown(job.cluster);
      const jobId = jobIdOfDiagnosis(job);
      const q = queue(diagnoseQueueName(job.cluster));
      const add = (deduplication: EnqueueOptions['deduplication']) =>
        q.add(job.mode, options.signDiagnose ? { ...job, sig: options.signDiagnose(job, jobId) } : job, {
          ...DIAGNOSE_JOB_OPTIONS,
          jobId,
          ...(deduplication ? { deduplication } : {}),
          ...(addOptions?.background ? { priority: BACKGROUND_PRIORITY } : {}),
        });
      const added = bounded(
        addOrJoin(
          connection,
          q,
          jobId,
          () => add(addOptions?.deduplication),
          addOptions?.background === true,
        ),
        'enqueue diagnosis',
        addOptions?.deadline,
      );
      if (!request || !fenced) return added;
      try {
        return { ...(await added), request };
      } catch (error) {
        // Given up, or failed half way: whatever of it Redis runs later runs nothing.
        withdrawRequest(connection, request);
        throw error;
      }
    },
    withdraw(request) {
      withdrawRequest(connection, request);
    },
    ...planJobs(queue, bounded, assertKnown),
    async enqueueNotify(input, addOptions = {}) {
      const job: NotifyJob = notifyJobSchema.parse(input);
      const { background, deadline, ...jobOptions } = addOptions;
      const data = options.signNotify ? options.signNotify(job) : job;
      await bounded(
        queue(notifyLane(job, background === true)).add(job.kind, data, {
          ...NOTIFY_JOB_OPTIONS,
          ...jobOptions,
        }),
        'enqueue notification',
        deadline,
      );
    },
    async forwardNotify(signed, addOptions) {
      const { background, deadline, ...jobOptions } = addOptions;
      await bounded(
        queue(notifyLane(signed, background === true)).add(signed.kind, signed, {
          ...NOTIFY_JOB_OPTIONS,
          ...jobOptions,
        }),
        'forward notification',
        deadline,
      );
    },
    dedupKey(target, id) {
      if (target.kind === 'diagnose') assertKnown(target.cluster);
      const name =
        target.kind === 'notify'
          ? NOTIFY_QUEUE
          : target.kind === 'alert-notify'
            ? ALERT_NOTIFY_QUEUE
            : diagnoseQueueName(target.cluster);
      return `${queue(name).keys.de}:${id}`;
    },
    async depths() {
      const names = [
        ...NOTIFY_QUEUES,
        ...options.clusters.flatMap((c) => [
          diagnoseQueueName(c),
          remediateQueueName(c),
          proposeQueueName(c),
        ]),
      ];
      const rows: { queue: string; state: string; count: number }[] = [];
      for (const name of names) {
        const counts = await bounded(
          // 'prioritized' holds the background (alert, early-warning) diagnoses.
          queue(name).getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed'),
          'queue depth',
        );
        for (const [state, count] of Object.entries(counts)) rows.push({ queue: name, state, count });
      }
      return rows;
    },
    async close() {
      await Promise.allSettled(queue.all().map((q) => q.close()));
    },
  };
}

/** `work`, or QueueUnavailableError once `timeoutMs` passed or Redis failed it (src/queue/deadline.ts). */
async function queueBound<T>(work: Promise<T>, what: string, timeoutMs: number): Promise<T> {
  try {
    return await withDeadline(work, what, timeoutMs);
  } catch (error) {
    if (error instanceof QueueUnavailableError || !(error instanceof RedisTroubleError)) throw error;
    throw new QueueUnavailableError(error.message, { cause: error.cause ?? error, trouble: error.trouble });
  }
}
