import { signDiagnoseByWorker, verifyDiagnoseJob } from '../queue/diagnose-signature.js';
import { signNotify } from '../queue/notify-signature.js';
import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { startEarlyWarning, type EarlyWarning } from './early-warning/watch.js';
import { proveRemoval } from '../engine/removal-proof.js';
import { startExclusionExpiry, type ExclusionExpiry, type ExclusionExpiryDeps } from './exclusion-expiry.js';
import type { ListWatchSource } from './early-warning/stream.js';
import type { HealthCheck } from './health.js';
import { pingWritable } from '../queue/role.js';
import { redisKeys } from '../queue/redis-keys.js';
import { journaledAudit } from '../queue/incident-journal.js';
import type { WorkerConfig } from '../config/environment.js';
import { createRepeatLimitedErrorLog, type Logger } from '../logger.js';
import { createMetrics } from '../metrics.js';
import { createPlanStore } from '../queue/plan-store.js';
import { closeWorkerWithGrace } from '../queue/close.js';
import { closeConnection, createProducerConnection, createWorkerConnection } from '../queue/connection.js';
import { QUEUE_PREFIX, diagnoseQueueName, proposeQueueName, remediateQueueName } from '../queue/names.js';
import { createProposeProcessor, type ProposeDeps } from './propose-processor.js';
import { createProducers } from '../queue/producers.js';
import type { DiagnoseJob, ProposeJob, RemediateJob } from '../queue/schemas.js';
import { createDiagnoseProcessor, type DiagnoseDeps } from './diagnose-processor.js';
import { createPlanTrust, sealingPlanStore } from './plan-trust.js';
import { createRemediateProcessor, type RemediateDeps } from './remediate-processor.js';
import { createFileJournal, journalMacKey, startReplicationGuard } from '../queue/guard-journal.js';
import { join } from 'node:path';
import { createOutbox, type Outbox } from './outbox.js';
import { trackRunning, type RunningJobs } from './running-jobs.js';
import { startClockWatch } from '../queue/clock-watch.js';
import { assertHolds, markRunAnswered, runAnsweredBy, superseded } from './job-fence.js';
import { isWithdrawn } from '../queue/withdrawn.js';
import type { ReplicationGuard } from '../queue/replication-guard.js';
import { WORKER_REPLAY, guardWorkerWrites, replayWorkerSteps } from './guarded-writes.js';

/** The Kubernetes side of the workers (src/worker/kube-deps.ts for the real one). */
export type ClusterDeps = Omit<DiagnoseDeps, 'plans' | 'planTtlMs' | 'notify' | 'logger'> &
  Omit<RemediateDeps, 'plans' | 'trust' | 'planTtlMs' | 'notify' | 'audit' | 'logger' | 'onOutcome'> & {
    /** The API server's list/watch for the early warning; absent: its periodic scan alone. */
    listWatch?: ListWatchSource;
    /** The exclusions rollout-doctor set, and the nodes; absent: no expiry sweep. */
    exclusions?: Pick<ExclusionExpiryDeps, 'list' | 'nodes'>;
    /** "Propose in Git" on a stored plan (src/propose/for-plan.ts); absent: no Git token here. */
    propose?: ProposeDeps['propose'];
  };

export interface WorkerRuntime {
  diagnose: Worker<DiagnoseJob>;
  remediate: Worker<RemediateJob>;
  /** "Propose in Git" jobs (src/worker/propose-processor.ts). */
  propose: Worker<ProposeJob>;
  /** The early warning (ROLLOUT_DOCTOR_WATCH_NAMESPACES); undefined when off. */
  earlyWarning: EarlyWarning | undefined;
  /** The sweep that ends expired node exclusions (src/worker/exclusion-expiry.ts); undefined without cluster.exclusions. */
  exclusionExpiry: ExclusionExpiry | undefined;
  /** What the health endpoint checks (src/worker/health.ts): both Redis connections. */
  health: HealthCheck;
  /** The worker's writes no replica confirmed yet, watched (src/worker/guarded-writes.ts). */
  replication: ReplicationGuard;
  /** Remediation outcomes Redis has not taken yet (src/worker/outbox.ts). */
  outbox: Outbox;
  /** Stop taking jobs, let running ones finish within the grace period, close connections. */
  stop(): Promise<void>;
  /**
   * Cuts every Redis connection at once (no QUIT, nothing waited for) and names the jobs
   * still running, which the stalled-job check retries once their lock lapses: what the
   * shutdown bound does to a stop() that Redis holds up (src/config/process-entry.ts).
   */
  abandon(): { jobsLeft: Record<string, string[]> };
}

/**
 * The diagnose and remediate workers of one cluster. `cluster` holds the Kubernetes
 * side (real in workers/main.ts, fakes in tests). Stalled jobs (a worker died) are
 * picked up by another worker after the lock lapses.
 */
/** Producers, plan store, replication guard, outbox, plan trust and the clock watch: what the jobs write through. */
function startWriteSide(config: WorkerConfig, logger: Logger) {
  const producerConnection: Redis = createProducerConnection(config.redis.target, {
    enableOfflineQueue: true,
    maxRetriesPerRequest: 3,
  });
  producerConnection.on('error', (error) => logger.warn({ err: error }, 'redis (notify producer) error'));
  const metrics = createMetrics();
  // This worker's clock against Redis's (clock-watch.ts): expiries and leases are taken from
  // Redis's clock; only where that is unknown does a clock beyond the
  // tolerated skew answer with itself.
  const clockWatch = startClockWatch(producerConnection, {
    who: 'this worker',
    logger,
    onReading: (reading) => metrics.clockOffset.set(reading.offsetMs / 1000),
  });
  const clock = (): string | undefined => clockWatch.problem();
  const producers = createProducers({
    connection: producerConnection,
    clusters: [config.cluster],
    timeoutMs: 10_000,
    // Results, progress and outcomes carry this worker fleet's signature: the app posts nothing else as them.
    signNotify: (job) => signNotify(job, 'worker', config.notifySigningKey),
    // The early warning's diagnoses: marked as the workers' own (seal key).
    signDiagnose: (job, jobId) => signDiagnoseByWorker(job, jobId, config.planSealKeys, clockWatch.now()),
  });
  // Every plan this worker stores (diagnosis plans, undo plans) carries its seal.
  const sealed = sealingPlanStore(createPlanStore(producerConnection), config.planSealKeys);
  // Its results, replies, plans and nonces: on a replica before they count, written
  // again if a failover lost them (also after a restart, with REDIS_WAIT_JOURNAL_DIR).
  const writeDeps = {
    notify: producers.enqueueNotify,
    plans: sealed,
    redis: producerConnection,
    now: () => clockWatch.now(),
  };
  // A journal record is replayed with the worker's rights: only its own MAC is replayed.
  const journalKey = journalMacKey(config.planSealKeys.current.secret);
  const replication = startReplicationGuard(producerConnection, config.redis.wait, {
    logger,
    replayers: { [WORKER_REPLAY]: replayWorkerSteps(writeDeps) },
    journalKey,
  });
  const writes = guardWorkerWrites(writeDeps, replication);
  const plans = writes.plans;
  // What a remediation did, kept through a Redis that refuses writes (across a restart
  // too, beside the replication journal when REDIS_WAIT_JOURNAL_DIR is set).
  const outbox = createOutbox({
    writes: { notify: writes.notify, plans, redis: producerConnection },
    redis: producerConnection,
    logger,
    ...(config.redis.wait.journalDir
      ? { journal: createFileJournal(join(config.redis.wait.journalDir, 'outbox'), journalKey) }
      : {}),
  });
  const trust = createPlanTrust({
    seal: config.planSealKeys,
    approvalKeys: config.approvalPublicKeys,
    redis: producerConnection,
    onNonce: writes.nonce,
    now: () => clockWatch.now(),
  });
  return {
    producerConnection,
    producers,
    writes,
    plans,
    outbox,
    replication,
    trust,
    metrics,
    clockWatch,
    clock,
  };
}

/** The diagnose and remediate queues' BullMQ workers. */
function startQueueWorkers(
  config: WorkerConfig,
  logger: Logger,
  cluster: ClusterDeps,
  side: ReturnType<typeof startWriteSide>,
  options: { lockDurationMs?: number; stalledIntervalMs?: number },
) {
  const { plans, writes, producerConnection, trust, metrics, outbox, clock, clockWatch } = side;
  // Every time a job checks or writes is Redis's, unless the cluster's deps
  // bring a clock (a drill that is minutes later moves it rather than wait them out).
  const now = cluster.now ?? ((): number => clockWatch.now());
  const common = { plans, planTtlMs: config.planTtlSeconds * 1000, notify: writes.notify, logger, now };
  // Each audit event that names a workload also goes to its incident's record (incident-journal.ts).
  const audit = journaledAudit(logger, producerConnection, config.incidentRetentionMs);
  const connection = createWorkerConnection(config.redis.target);
  connection.on('error', (error) => logger.warn({ err: error }, 'redis (worker) error'));
  const workerOptions = {
    connection,
    prefix: QUEUE_PREFIX,
    lockDuration: options.lockDurationMs ?? 15_000,
    stalledInterval: options.stalledIntervalMs ?? 5_000,
    maxStalledCount: 2,
  };
  const diagnosing = trackRunning(
    createDiagnoseProcessor({
      ...cluster,
      ...common,
      verifyJob: (data, jobId) =>
        verifyDiagnoseJob(
          data,
          jobId,
          { approval: config.approvalPublicKeys, seal: config.planSealKeys },
          now(),
        ),
      audit,
      clock,
      withdrawn: (request) => isWithdrawn(producerConnection, request),
      superseded: (job) =>
        superseded(producerConnection, {
          queue: diagnoseQueueName(config.cluster),
          jobId: String(job.id),
          attempt: job.attemptsStarted,
        }),
      answered: {
        by: (job) =>
          runAnsweredBy(
            producerConnection,
            redisKeys.runAnswered(config.cluster, String(job.id), job.timestamp),
          ),
        mark: (job) =>
          markRunAnswered(
            producerConnection,
            redisKeys.runAnswered(config.cluster, String(job.id), job.timestamp),
            job.attemptsStarted,
          ),
      },
    }),
  );
  const diagnose = new Worker<DiagnoseJob>(diagnoseQueueName(config.cluster), diagnosing.processor, {
    ...workerOptions,
    concurrency: config.diagnoseConcurrency,
  });
  const remediating = trackRunning(
    createRemediateProcessor({
      ...cluster,
      ...common,
      trust,
      audit,
      onOutcome: (kind, outcome) => metrics.remediations.inc({ kind, outcome }),
      keep: (fence) => outbox.forAttempt(fence),
      clock,
      holds: (job, token) =>
        assertHolds(
          producerConnection,
          { queue: remediateQueueName(config.cluster), jobId: String(job.id) },
          token,
        ),
    }),
  );
  const remediate = new Worker<RemediateJob>(remediateQueueName(config.cluster), remediating.processor, {
    ...workerOptions,
    concurrency: config.remediateConcurrency,
  });
  const logWorkerError = createRepeatLimitedErrorLog(logger);
  for (const worker of [diagnose, remediate] as Worker[]) {
    worker.on('error', (error) => logWorkerError(error, { queue: worker.name }, 'worker error'));
    worker.on('failed', (job, error) =>
      logger.warn(
        { queue: worker.name, jobId: job?.id, attempts: job?.attemptsMade, err: error },
        'job failed',
      ),
    );
    worker.on('stalled', (jobId) => logger.warn({ queue: worker.name, jobId }, 'job stalled; re-queued'));
  }
  return { connection, diagnose, diagnosing, remediate, remediating };
}

/**
 * The "Propose in Git" queue's worker: one job at a time (a clone, a render, a push),
 * answering every job, with the Git token or saying this worker holds none.
 */
function startProposeWorker(
  config: WorkerConfig,
  logger: Logger,
  cluster: ClusterDeps,
  side: ReturnType<typeof startWriteSide>,
): { worker: Worker<ProposeJob>; proposing: RunningJobs<ProposeJob, unknown>; connection: Redis } {
  const { producerConnection, writes, plans, trust } = side;
  const connection = createWorkerConnection(config.redis.target);
  connection.on('error', (error) => logger.warn({ err: error }, 'redis (propose worker) error'));
  // Tracked so that a stop with nothing running ends at once, Redis gone or not (close.ts `idle`).
  const proposing = trackRunning(
    createProposeProcessor({
      plans,
      trust,
      propose: cluster.propose,
      notify: (job) => writes.notify(job),
      audit: journaledAudit(logger, producerConnection, config.incidentRetentionMs),
      logger,
    }),
  );
  const worker = new Worker<ProposeJob>(proposeQueueName(config.cluster), proposing.processor, {
    connection,
    prefix: QUEUE_PREFIX,
    concurrency: 1,
  });
  const logWorkerError = createRepeatLimitedErrorLog(logger);
  worker.on('error', (error) => logWorkerError(error, { queue: worker.name }, 'worker error'));
  worker.on('failed', (job, error) =>
    logger.warn({ queue: worker.name, jobId: job?.id, err: error }, 'job failed'),
  );
  return { worker, proposing, connection };
}

/**
 * The expiry sweep of node exclusions, on Redis's clock and Redis's claims (one worker
 * acts on each exclusion), writing through the cluster's executor like a remediation.
 */
function startExpirySweep(
  config: WorkerConfig,
  logger: Logger,
  cluster: ClusterDeps,
  side: ReturnType<typeof startWriteSide>,
): ExclusionExpiry | undefined {
  if (!cluster.exclusions) return undefined;
  const { producerConnection, clockWatch } = side;
  const now = cluster.now ?? ((): number => clockWatch.now());
  return startExclusionExpiry(
    {
      cluster: config.cluster,
      list: cluster.exclusions.list,
      nodes: cluster.exclusions.nodes,
      claim: async (key, ttlMs) =>
        (await producerConnection.set(
          redisKeys.exclusionClaim(config.cluster, key),
          '1',
          'PX',
          ttlMs,
          'NX',
        )) === 'OK',
      prove: async (plan) => proveRemoval(await cluster.collect(plan.target, () => undefined), plan),
      apply: (plan) => cluster.apply(plan, { now }),
      audit: journaledAudit(logger, producerConnection, config.incidentRetentionMs),
      logger,
      now,
    },
    config.exclusions.checkIntervalMs,
  );
}

export function startWorkers(
  config: WorkerConfig,
  logger: Logger,
  cluster: ClusterDeps,
  options: { lockDurationMs?: number; stalledIntervalMs?: number } = {},
): WorkerRuntime {
  const side = startWriteSide(config, logger);
  const { producerConnection, producers, replication, outbox, metrics, clockWatch, clock } = side;
  const { connection, diagnose, diagnosing, remediate, remediating } = startQueueWorkers(
    config,
    logger,
    cluster,
    side,
    options,
  );
  const earlyWarning = startEarlyWarning({
    cluster: config.cluster,
    recordSigner: { by: 'worker', key: config.notifySigningKey },
    leaseKeys: config.planSealKeys,
    watch: config.watch,
    scan: cluster.scan,
    producers,
    redis: producerConnection,
    ...(cluster.listWatch ? { listWatch: cluster.listWatch } : {}),
    ...(cluster.resolvePodOwner ? { resolvePodOwner: cluster.resolvePodOwner } : {}),
    logger,
  });
  const exclusionExpiry = startExpirySweep(config, logger, cluster, side);
  const {
    worker: propose,
    proposing,
    connection: proposeConnection,
  } = startProposeWorker(config, logger, cluster, side);
  logger.info({ cluster: config.cluster }, 'workers started');
  return {
    diagnose,
    remediate,
    propose,
    earlyWarning,
    exclusionExpiry,
    replication,
    outbox,
    health: {
      connections: () => ({ jobs: connection.status, notify: producerConnection.status }),
      ping: () => producerConnection.ping(),
      writable: () => pingWritable(producerConnection),
      clock,
      metrics: () => metrics.registry.metrics(),
    },
    async stop() {
      clockWatch.stop();
      await earlyWarning?.stop();
      await exclusionExpiry?.stop();
      // What outlives the grace period goes back to wait at once, for another worker.
      const handBack = (running: { handBack(): Promise<string[]> }, queue: string) => async () => {
        const jobs = await running.handBack();
        if (jobs.length > 0) logger.info({ queue, jobs }, 'running jobs handed back to the queue');
      };
      // Drained once nothing runs: BullMQ's pause() alone waits on Redis (src/queue/close.ts).
      const results = await Promise.all([
        closeWorkerWithGrace(
          diagnose,
          config.drainGraceMs,
          handBack(diagnosing, diagnose.name),
          diagnosing.idle,
        ),
        closeWorkerWithGrace(
          remediate,
          config.drainGraceMs,
          handBack(remediating, remediate.name),
          remediating.idle,
        ),
        // A proposal is not retried: one that outlives the grace period is pressed again.
        closeWorkerWithGrace(propose, config.drainGraceMs, undefined, proposing.idle),
      ]);
      proposeConnection.disconnect();
      logger.info({ diagnose: results[0], remediate: results[1] }, 'workers stopped');
      // Outcomes still kept: a short last try, then they wait in the journal (if any) for the next worker.
      if (!(await outbox.drained(Math.min(config.drainGraceMs, 5_000))))
        logger.warn({ kept: outbox.pending() }, 'outcomes not delivered before stopping');
      outbox.stop();
      // Watched writes stay in the journal (if any) for the next worker.
      replication.stop();
      await producers.close();
      connection.disconnect();
      await closeConnection(producerConnection);
    },
    abandon() {
      clockWatch.stop();
      outbox.stop();
      replication.stop();
      // The workers' own connections (the blocking one is a duplicate of `connection`).
      for (const worker of [diagnose, remediate, propose] as Worker[])
        worker.disconnect().catch(() => undefined);
      connection.disconnect();
      proposeConnection.disconnect();
      producerConnection.disconnect();
      return {
        jobsLeft: { [diagnose.name]: diagnosing.ids(), [remediate.name]: remediating.ids() },
      };
    },
  };
}
