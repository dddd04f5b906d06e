import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  createEarlyWarningWatch,
  createWorkloadTrigger,
  type EarlyWarningWatch,
  type ScanHit,
  type TriggeredWorkload,
  type WorkloadTrigger,
} from './safety-net.js';
import { SignalTracker, type Signal } from './signals.js';
import {
  StreamForbiddenError,
  emptyStats,
  runListWatch,
  type ListWatchSource,
  type StreamSpec,
  type StreamStats,
} from './stream.js';
import { createThreadStore } from '../../queue/alert-thread-store.js';
import { workloadHash } from '../../queue/alert-keys.js';
import type { Producers } from '../../queue/producers.js';
import { waitForReady } from '../../queue/connection.js';
import { isWorkloadKind, type WorkloadRef } from '../../diagnosis/workload-ref.js';

/** Who "requested" a watch-started diagnosis, in job data and audit lines. */
export const EARLY_WARNING_REQUESTER = 'EARLYWARNING';

/** A namespace scan as the worker's diagnose deps provide it (undefined: every namespace). */
type NamespaceScan = (
  namespace: string | undefined,
  onProgress: (done: number, total?: number) => void,
) => Promise<{
  entries: { namespace: string; name: string; findings: { code: string; summary: string }[] }[];
}>;

/** Flattens a namespace scan into one hit per workload and finding. */
export function scanHits(report: Awaited<ReturnType<NamespaceScan>>): ScanHit[] {
  return report.entries.flatMap((e) =>
    e.findings.map((f) => ({ namespace: e.namespace, name: e.name, code: f.code, summary: f.summary })),
  );
}

/** Counters of a running early warning (bench, logs). */
export interface EarlyWarningStats {
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

export interface EarlyWarningOptions {
  cluster: string;
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

// Renews the lease when this replica holds it; takes it when nobody does (a Redis
// restart without persistence forgets the key: the leader keeps its role). 1: held.
const LEASE = `
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not holder then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
`;

const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

/** Redis key of the early-warning leader lease of a cluster. */
export function leaderKey(cluster: string): string {
  return `rd:early-warning:leader:${cluster}`;
}

/**
 * Starts the early warning of a worker (ROLLOUT_DOCTOR_WATCH_NAMESPACES), or returns
 * undefined when no namespace is configured. Every replica runs this; only the holder
 * of the Redis lease (`leaderKey`) watches and scans, so N replicas hold the watches
 * of one and queue each diagnosis once. When the leader dies its lease lapses and
 * another replica takes over within `leaseMs`.
 */
export function startEarlyWarning(deps: EarlyWarningOptions): EarlyWarning | undefined {
  const namespaces = deps.watch.namespaces;
  if (namespaces.length === 0) return undefined;
  const everyNamespace = namespaces.length === 1 && namespaces[0] === '*';
  const debug = (obj: object, msg: string): void => deps.logger.debug?.(obj, msg);
  const store = createThreadStore(deps.redis);

  const link = async (jobId: string, workload: WorkloadRef): Promise<void> => {
    const hash = workloadHash({ cluster: deps.cluster, ...workload });
    await store.linkJob(deps.cluster, jobId, hash, true);
  };

  const scan = createEarlyWarningWatch({
    cluster: deps.cluster,
    namespaces,
    intervalMs: deps.watch.intervalMs,
    windowMs: deps.watch.windowMs,
    logger: deps.logger,
    scan: async (namespace) =>
      scanHits(await deps.scan(namespace === '*' ? undefined : namespace, () => undefined)),
    async enqueueDiagnosis(target, dedup) {
      const { jobId } = await deps.producers.enqueueDiagnose(
        {
          mode: 'deployment',
          cluster: deps.cluster,
          target,
          requestedBy: EARLY_WARNING_REQUESTER,
        },
        { deduplication: { id: dedup.id, ttl: dedup.ttlMs }, background: true },
      );
      return jobId;
    },
    linkJob: (jobId, workload) => store.linkJob(deps.cluster, jobId, workload, true),
  });

  // Watch-triggered diagnoses carry no dedup window: the trigger's cooldown bounds
  // them, the deterministic job id joins a run still queued or running, and the app
  // posts a thread's verdict only when it changed.
  const enqueueTriggered = async (w: TriggeredWorkload): Promise<void> => {
    const { jobId } = await deps.producers.enqueueDiagnose(
      {
        mode: 'deployment',
        cluster: deps.cluster,
        target: { kind: w.kind, namespace: w.namespace, name: w.name },
        requestedBy: EARLY_WARNING_REQUESTER,
      },
      { background: true },
    );
    await link(jobId, { kind: w.kind, namespace: w.namespace, name: w.name });
    deps.logger.info(
      { namespace: w.namespace, name: w.name, reasons: w.reasons, pods: w.pods },
      'early warning queued from the watch',
    );
  };

  const streams = emptyStats();
  let ownerReads = 0;
  let scope: EarlyWarningStats['scope'] = deps.listWatch ? 'cluster' : 'scan-only';
  let tracker: SignalTracker | undefined;
  let trigger: WorkloadTrigger | undefined;
  let queuedBefore = 0;
  let abort: AbortController | undefined;
  let running: Promise<void> | undefined;

  const startWatching = (): void => {
    scan.start();
    const source = deps.listWatch;
    if (!source) return;
    abort = new AbortController();
    const signal = abort.signal;
    const inScope = (ns: string): boolean => everyNamespace || namespaces.includes(ns);
    const t = new SignalTracker(inScope);
    tracker = t;
    const trig = createWorkloadTrigger({
      debounceMs: deps.watch.debounceMs,
      cooldownMs: deps.watch.cooldownMs ?? 5_000,
      maxCooldownMs: deps.watch.maxCooldownMs ?? 300_000,
      enqueue: enqueueTriggered,
      logger: deps.logger,
    });
    trigger = trig;
    const raise = (signals: Signal[]): void => {
      for (const s of signals) trig.signal(s);
    };
    const resolving = new Set<string>();
    const resolveOwner = (unknown: { namespace: string; pod: string; reason: Signal['reason'] }): void => {
      const resolve = deps.resolvePodOwner;
      const key = `${unknown.namespace}/${unknown.pod}`;
      if (!resolve || resolving.has(key) || resolving.size >= 16) return;
      resolving.add(key);
      ownerReads += 1;
      resolve(unknown.namespace, unknown.pod)
        .then((owner) => {
          if (!isWorkloadKind(owner.kind) || signal.aborted) return;
          const workload = { kind: owner.kind, namespace: unknown.namespace, name: owner.name };
          const s = t.adopt(workload, unknown.pod, unknown.reason);
          if (s) trig.signal(s);
        })
        .catch((error: unknown) =>
          debug(
            { ...unknown, error: error instanceof Error ? error.message : String(error) },
            'pod owner read failed',
          ),
        )
        .finally(() => resolving.delete(key));
    };

    const run = async (namespace: string | undefined): Promise<void> => {
      const base = namespace === undefined ? {} : { namespace };
      const pods: StreamSpec = { resource: 'pods', ...base };
      // Warning events about pods only: FailedScheduling and FailedAttachVolume among them.
      const events: StreamSpec = {
        resource: 'events',
        ...base,
        fieldSelector: 'involvedObject.kind=Pod,type=Warning',
      };
      let podsListed = false;
      let eventsListed = false;
      // The pair stops together: when one stream is refused, the other is not left running.
      const pair = new AbortController();
      const stopPair = (): void => pair.abort();
      signal.addEventListener('abort', stopPair, { once: true });
      const options = {
        signal: pair.signal,
        stats: streams,
        logger: { warn: deps.logger.warn.bind(deps.logger), debug },
      };
      const timeout =
        deps.watchTimeoutSeconds === undefined ? {} : { timeoutSeconds: deps.watchTimeoutSeconds };
      const results = await Promise.allSettled(
        [
          runListWatch(
            source,
            pods,
            {
              onListPage(items, first, last) {
                if (first) t.beginList();
                raise(t.listPage(items, !podsListed));
                if (last) {
                  t.endList(namespace);
                  podsListed = true;
                }
              },
              onEvent: (e) => raise(t.onPod(e.type, e.object)),
            },
            { ...options, ...timeout },
          ),
          runListWatch(
            source,
            events,
            {
              onListPage(items, _first, last) {
                // A re-list (410 Gone) brings what the watch missed: a pod the pod stream
                // has not shown yet is resolved by a read, as on the watch, not dropped.
                for (const item of items) {
                  const r = t.onEvent('ADDED', item, !eventsListed);
                  if (r === undefined) continue;
                  if ('signal' in r) trig.signal(r.signal);
                  else resolveOwner(r.unknownPod);
                }
                if (last) eventsListed = true;
              },
              onEvent(e) {
                const r = t.onEvent(e.type, e.object);
                if (r === undefined) return;
                if ('signal' in r) trig.signal(r.signal);
                else resolveOwner(r.unknownPod);
              },
            },
            { ...options, ...timeout },
          ),
        ].map((stream) =>
          stream.catch((error: unknown) => {
            stopPair();
            throw error;
          }),
        ),
      );
      signal.removeEventListener('abort', stopPair);
      const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
    };

    const watchAll = async (): Promise<void> => {
      // One cluster-wide pair of streams where RBAC allows (and more than one
      // namespace is watched); else one pair per namespace.
      if (everyNamespace || namespaces.length > 1) {
        try {
          scope = 'cluster';
          await run(undefined);
          return;
        } catch (error) {
          if (!(error instanceof StreamForbiddenError) || everyNamespace || signal.aborted) throw error;
          deps.logger.warn(
            { reason: error.message },
            'cluster-wide watch forbidden: watching each namespace of ROLLOUT_DOCTOR_WATCH_NAMESPACES',
          );
        }
      }
      scope = 'namespaces';
      // A namespace RBAC refuses is left to the periodic scan; the others keep their watch.
      const refused = await Promise.all(
        namespaces.map((ns) =>
          run(ns).then(
            () => false,
            (error: unknown) => {
              if (!(error instanceof StreamForbiddenError) || signal.aborted) throw error;
              deps.logger.warn(
                { namespace: ns, reason: error.message },
                'early-warning watch of this namespace forbidden: the periodic scan covers it',
              );
              return true;
            },
          ),
        ),
      );
      if (refused.every(Boolean)) throw new StreamForbiddenError('every namespace refused the watch');
    };
    running = watchAll().catch((error: unknown) => {
      if (signal.aborted) return;
      scope = 'scan-only';
      // Forbidden (RBAC lacks watch on pods or events): the scan still runs.
      deps.logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'early-warning watch stopped; the periodic scan carries on alone (grant watch on pods and events)',
      );
      abort?.abort();
    });
  };

  const stopWatching = async (): Promise<void> => {
    abort?.abort();
    if (trigger) queuedBefore += trigger.queued;
    trigger?.stop();
    trigger = undefined;
    await running;
    running = undefined;
    tracker = undefined;
    await scan.stop();
  };

  // Leadership: every replica competes; the holder watches.
  const id = randomUUID();
  const leaseMs = deps.leaseMs ?? 15_000;
  let leader = false;
  let stopped = false;
  let leaseTimer: NodeJS.Timeout | undefined;
  let transition: Promise<void> = Promise.resolve();
  const tick = async (): Promise<void> => {
    let held: boolean;
    try {
      await waitForReady(deps.redis, leaseMs / 3);
      held = Number(await deps.redis.eval(LEASE, 1, leaderKey(deps.cluster), id, String(leaseMs))) === 1;
    } catch (error) {
      // Redis away: nobody can take the lease meanwhile; keep the current role.
      debug(
        { reason: error instanceof Error ? error.message : String(error) },
        'early-warning lease not renewed',
      );
      return;
    }
    if (stopped) return;
    if (held && !leader) {
      leader = true;
      deps.logger.info(
        { namespaces, cluster: deps.cluster },
        'early-warning watch started (this replica holds the lease)',
      );
      startWatching();
    } else if (!held && leader) {
      leader = false;
      deps.logger.info({ cluster: deps.cluster }, 'early-warning lease lost: another replica watches');
      await stopWatching();
    }
  };
  const schedule = (): void => {
    if (stopped) return;
    leaseTimer = setTimeout(() => {
      transition = transition.then(tick).finally(schedule);
    }, leaseMs / 3);
  };
  transition = tick().finally(schedule);

  return {
    scan,
    stats: () => ({
      watchesHeld: streams.open,
      streams: { ...streams },
      podsTracked: tracker?.size ?? 0,
      queued: queuedBefore + (trigger?.queued ?? 0),
      ownerReads,
      leader,
      scope: leader ? scope : 'standby',
    }),
    async stop() {
      stopped = true;
      clearTimeout(leaseTimer);
      await transition;
      if (leader) {
        leader = false;
        await stopWatching();
        await deps.redis.eval(RELEASE, 1, leaderKey(deps.cluster), id).catch(() => undefined);
      }
    },
  };
}
