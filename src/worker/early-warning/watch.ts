/**
 * The early warning of a worker, put together: the safety-net scan (safety-net.ts), the
 * leader lease (lease.ts) and, while this replica leads, the watch session
 * (session.ts), each queueing diagnoses the way an alert for the workload would.
 */
import type { WorkloadKind } from '../../diagnosis/workload-ref.js';
import { WATCH_REQUESTER } from '../../queue/diagnose-signature.js';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SealKeys } from '../../trust/plan-seal.js';
import type { RecordSigner } from '../../queue/record-mark.js';
import type { Redis } from 'ioredis';
import type { Dedup } from '../../queue/alert-jobs.js';
import { createEarlyWarningWatch, type EarlyWarningWatch, type ScanHit } from './safety-net.js';
import type { TriggeredWorkload } from './trigger.js';
import { emptyStats, type ListWatchSource, type StreamStats } from './stream.js';
import { startLease } from './lease.js';
import { startWatchSession, type WatchSession } from './session.js';
import { createThreadStore } from '../../queue/alert-thread-store.js';
import { workloadHash } from '../../queue/alert-keys.js';
import type { Producers } from '../../queue/producers.js';
import type { WorkloadRef } from '../../diagnosis/workload-ref.js';

export { leaderKey } from './lease.js';

/** Who "requested" a watch-started diagnosis, in job data and audit lines. */
const EARLY_WARNING_REQUESTER = WATCH_REQUESTER;

/** A namespace scan as the worker's diagnose deps provide it (undefined: every namespace). */
type NamespaceScan = (
  namespace: string | undefined,
  onProgress: (done: number, total?: number) => void,
) => Promise<{
  entries: {
    kind?: WorkloadKind;
    namespace: string;
    name: string;
    findings: { code: string; summary: string }[];
  }[];
}>;

/** Flattens a namespace scan into one hit per workload and finding. */
export function scanHits(report: Awaited<ReturnType<NamespaceScan>>): ScanHit[] {
  return report.entries.flatMap((e) =>
    e.findings.map((f) => ({
      ...(e.kind ? { kind: e.kind } : {}),
      namespace: e.namespace,
      name: e.name,
      code: f.code,
      summary: f.summary,
    })),
  );
}

/** Counters of a running early warning (bench, logs). */
interface EarlyWarningStats {
  /** Streams open now (watches held). */
  watchesHeld: number;
  streams: StreamStats;
  /** Pods held in slim records. */
  podsTracked: number;
  /** Diagnoses the watch queued. */
  queued: number;
  /** Pod owner reads for events of pods the pod stream had not shown yet. */
  ownerReads: number;
  leader: boolean;
  /** `standby`: another replica holds the lease and watches. */
  scope: 'cluster' | 'namespaces' | 'scan-only' | 'standby';
}

export interface EarlyWarning {
  /** The slow safety-net scan (runOnce for tests). */
  scan: EarlyWarningWatch;
  stats(): EarlyWarningStats;
  stop(): Promise<void>;
}

interface EarlyWarningOptions {
  cluster: string;
  /** The worker's mark on the job links it writes (its notify key; record-mark.ts). */
  recordSigner?: RecordSigner;
  /** The plan seal keys: the mark on the early-warning lease holder (lease.ts). */
  leaseKeys?: SealKeys;
  watch: {
    namespaces: readonly string[];
    intervalMs: number;
    windowMs: number;
    debounceMs: number;
    /** After a diagnosis of a workload: 5 s, doubling up to 5 min (defaults). */
    cooldownMs?: number;
    maxCooldownMs?: number;
  };
  scan: NamespaceScan;
  producers: Producers;
  redis: Redis;
  /** The API server's list/watch; absent: the periodic scan alone (tests of the scan path). */
  listWatch?: ListWatchSource;
  /** Owner of a pod an event names before the pod stream showed it. */
  resolvePodOwner?: (namespace: string, pod: string) => Promise<{ kind: string; name: string }>;
  /** Leader lock (one watching replica per cluster); default on with a 15 s lease. */
  leaseMs?: number;
  /** Watch streams' server-side timeout (seconds). */
  watchTimeoutSeconds?: number;
  logger: {
    info(obj: object, msg: string): void;
    warn(obj: object, msg: string): void;
    debug?(obj: object, msg: string): void;
  };
}

/**
 * Starts the early warning of a worker (ROLLOUT_DOCTOR_WATCH_NAMESPACES), or returns
 * undefined when no namespace is configured. Every replica runs this; only the holder
 * of the Redis lease (lease.ts) watches (session.ts) and scans (safety-net.ts), so N
 * replicas hold the watches of one and queue each diagnosis once.
 */
export function startEarlyWarning(deps: EarlyWarningOptions): EarlyWarning | undefined {
  const namespaces = deps.watch.namespaces;
  if (namespaces.length === 0) return undefined;
  const queue = earlyWarningQueue(deps);
  const scan = createEarlyWarningWatch({
    cluster: deps.cluster,
    namespaces,
    intervalMs: deps.watch.intervalMs,
    windowMs: deps.watch.windowMs,
    logger: deps.logger,
    scan: async (namespace) =>
      scanHits(await deps.scan(namespace === '*' ? undefined : namespace, () => undefined)),
    enqueueDiagnosis: queue.scanned,
    linkJob: queue.link,
  });
  const streams = emptyStats();
  const counters = { ownerReads: 0 };
  let session: WatchSession | undefined;
  let queuedBefore = 0;

  const startWatching = (): void => {
    scan.start();
    if (!deps.listWatch) return;
    session = startWatchSession({
      source: deps.listWatch,
      namespaces,
      trigger: {
        debounceMs: deps.watch.debounceMs,
        cooldownMs: deps.watch.cooldownMs ?? 5_000,
        maxCooldownMs: deps.watch.maxCooldownMs ?? 300_000,
      },
      enqueue: queue.triggered,
      ...(deps.resolvePodOwner ? { resolvePodOwner: deps.resolvePodOwner } : {}),
      ...(deps.watchTimeoutSeconds !== undefined ? { watchTimeoutSeconds: deps.watchTimeoutSeconds } : {}),
      streams,
      counters,
      logger: deps.logger,
    });
  };
  const stopWatching = async (): Promise<void> => {
    const ending = session;
    session = undefined;
    if (ending) {
      queuedBefore += ending.trigger.queued;
      await ending.stop();
    }
    await scan.stop();
  };

  const lease = startLease({
    redis: deps.redis,
    cluster: deps.cluster,
    leaseMs: deps.leaseMs ?? 15_000,
    ...(deps.leaseKeys
      ? {
          mark: leaseMark(deps.cluster, deps.leaseKeys),
          onForeign() {
            deps.logger.warn(
              { cluster: deps.cluster },
              'early-warning lease held by a value no worker wrote (written into Redis to switch the early warning off): taken over',
            );
          },
        }
      : {}),
    onLead() {
      deps.logger.info(
        { namespaces, cluster: deps.cluster },
        'early-warning watch started (this replica holds the lease)',
      );
      startWatching();
    },
    async onFollow(why) {
      if (why === 'lost')
        deps.logger.info({ cluster: deps.cluster }, 'early-warning lease lost: another replica watches');
      await stopWatching();
    },
    onUnreachable: (reason) => deps.logger.debug?.({ reason }, 'early-warning lease not renewed'),
  });

  return {
    scan,
    stats: () => ({
      watchesHeld: streams.open,
      streams: { ...streams },
      podsTracked: session?.tracker.size ?? 0,
      queued: queuedBefore + (session?.trigger.queued ?? 0),
      ownerReads: counters.ownerReads,
      leader: lease.leader,
      scope: lease.leader ? (session?.scope ?? (deps.listWatch ? 'cluster' : 'scan-only')) : 'standby',
    }),
    stop: () => lease.stop(),
  };
}

/**
 * How the early warning queues a diagnosis: with the thread key an alert for that
 * workload would use, marked as an early warning. Scan hits carry the alert dedup id
 * (one diagnosis per window); watch-triggered diagnoses carry none: the trigger's
 * cooldown bounds them, the deterministic job id joins a run still queued or running,
 * and the app posts a thread's verdict only when it changed.
 */
function earlyWarningQueue(deps: EarlyWarningOptions): {
  scanned(target: WorkloadRef, dedup: Dedup): Promise<string>;
  triggered(workload: TriggeredWorkload): Promise<void>;
  link(jobId: string, workloadHash: string): Promise<void>;
} {
  // Its links carry the worker's mark (notify key): the app routes a result by them.
  const store = createThreadStore(deps.redis, deps.recordSigner ? { signer: deps.recordSigner } : {});
  const link = (jobId: string, hash: string): Promise<void> => store.linkJob(deps.cluster, jobId, hash, true);
  const enqueue = (target: WorkloadRef, options: Parameters<Producers['enqueueDiagnose']>[1]) =>
    deps.producers.enqueueDiagnose(
      { mode: 'workload', cluster: deps.cluster, target, requestedBy: EARLY_WARNING_REQUESTER },
      options,
    );
  return {
    async scanned(target, dedup) {
      const { jobId } = await enqueue(target, {
        deduplication: { id: dedup.id, ttl: dedup.ttlMs },
        background: true,
      });
      return jobId;
    },
    async triggered(w) {
      const target: WorkloadRef = { kind: w.kind, namespace: w.namespace, name: w.name };
      const { jobId } = await enqueue(target, { background: true });
      await link(jobId, workloadHash({ cluster: deps.cluster, ...target }));
      deps.logger.info(
        { namespace: w.namespace, name: w.name, reasons: w.reasons, pods: w.pods },
        'early warning queued from the watch',
      );
    },
    link,
  };
}

/** "<uuid>.<seal key id>.<hmac>": a lease holder value only a worker can write. */
function leaseMark(
  cluster: string,
  keys: SealKeys,
): { holder(id: string): string; isWorkers(value: string): boolean } {
  const mac = (secret: Buffer, id: string): string =>
    createHmac('sha256', secret)
      .update(`rollout-doctor early-warning lease v1\n${cluster}\n${id}`)
      .digest('hex');
  return {
    holder: (id) => `${id}.${keys.current.id}.${mac(keys.current.secret, id)}`,
    isWorkers(value) {
      const [id = '', keyId = '', given = '', ...rest] = value.split('.');
      const secret = keys.accepted.get(keyId);
      if (rest.length > 0 || !secret || !/^[0-9a-f]{64}$/.test(given)) return false;
      return timingSafeEqual(Buffer.from(mac(secret, id), 'hex'), Buffer.from(given, 'hex'));
    },
  };
}
