/**
 * One leader's watch: lists-then-watches pods and warning events about pods
 * (stream.ts), feeds them to the signal tracker (signals.ts) and the per-workload
 * trigger (safety-net.ts), and reads the owner of a pod an event names before the pod
 * stream showed it. One cluster-wide pair of streams where RBAC allows (and more than
 * one namespace is watched), else one pair per namespace; a namespace RBAC refuses is
 * left to the periodic scan. Started when the replica takes the lease, stopped when
 * it loses it (watch.ts).
 */
import { isWorkloadKind } from '../../diagnosis/workload-ref.js';
import { createWorkloadTrigger, type TriggeredWorkload, type WorkloadTrigger } from './trigger.js';
import { SignalTracker, type Signal } from './signals.js';
import {
  StreamForbiddenError,
  runListWatch,
  type ListWatchSource,
  type StreamSpec,
  type StreamStats,
} from './stream.js';

interface WatchSessionDeps {
  source: ListWatchSource;
  namespaces: readonly string[];
  trigger: { debounceMs: number; cooldownMs: number; maxCooldownMs: number };
  enqueue(workload: TriggeredWorkload): Promise<void>;
  /** Owner of a pod an event names before the pod stream showed it. */
  resolvePodOwner?: (namespace: string, pod: string) => Promise<{ kind: string; name: string }>;
  /** Watch streams' server-side timeout (seconds). */
  watchTimeoutSeconds?: number;
  /** Counters shared by every session of the process (bench, logs). */
  streams: StreamStats;
  counters: { ownerReads: number };
  logger: {
    warn(obj: object, msg: string): void;
    debug?(obj: object, msg: string): void;
  };
}

export interface WatchSession {
  readonly tracker: SignalTracker;
  readonly trigger: WorkloadTrigger;
  /** Cluster-wide streams, one pair per namespace, or none left (the periodic scan alone). */
  readonly scope: 'cluster' | 'namespaces' | 'scan-only';
  /** Aborts the streams, stops the trigger, and waits for the streams to end. */
  stop(): Promise<void>;
}

/** An unknown pod an event named, handed back by the tracker for an owner read. */
type UnknownPod = { namespace: string; pod: string; reason: Signal['reason'] };

export function startWatchSession(deps: WatchSessionDeps): WatchSession {
  const { namespaces } = deps;
  const everyNamespace = namespaces.length === 1 && namespaces[0] === '*';
  const abort = new AbortController();
  const tracker = new SignalTracker((ns) => everyNamespace || namespaces.includes(ns));
  const trigger = createWorkloadTrigger({ ...deps.trigger, enqueue: deps.enqueue, logger: deps.logger });
  const resolveOwner = ownerReader(deps, tracker, trigger, abort.signal);
  let scope: WatchSession['scope'] = 'cluster';
  const pair = (namespace: string | undefined): Promise<void> =>
    runStreamPair(deps, namespace, abort.signal, tracker, trigger, resolveOwner);
  const running = watchEverywhere(deps, everyNamespace, abort.signal, pair, (s) => {
    scope = s;
  }).catch((error: unknown) => {
    if (abort.signal.aborted) return;
    scope = 'scan-only';
    // Forbidden (RBAC lacks watch on pods or events): the scan still runs.
    deps.logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'early-warning watch stopped; the periodic scan carries on alone (grant watch on pods and events)',
    );
    abort.abort();
  });
  return {
    tracker,
    trigger,
    get scope() {
      return scope;
    },
    async stop() {
      abort.abort();
      trigger.stop();
      await running;
    },
  };
}

/**
 * Reads the owner of a pod an event names before the pod stream showed it (at most 16
 * at once, each pod once at a time), and raises the event's signal once it is known.
 */
function ownerReader(
  deps: WatchSessionDeps,
  tracker: SignalTracker,
  trigger: WorkloadTrigger,
  signal: AbortSignal,
): (unknown: UnknownPod) => void {
  const resolving = new Set<string>();
  return (unknown) => {
    const resolve = deps.resolvePodOwner;
    const key = `${unknown.namespace}/${unknown.pod}`;
    if (!resolve || resolving.has(key) || resolving.size >= 16) return;
    resolving.add(key);
    deps.counters.ownerReads += 1;
    resolve(unknown.namespace, unknown.pod)
      .then((owner) => {
        if (!isWorkloadKind(owner.kind) || signal.aborted) return;
        const workload = { kind: owner.kind, namespace: unknown.namespace, name: owner.name };
        const s = tracker.adopt(workload, unknown.pod, unknown.reason);
        if (s) trigger.signal(s);
      })
      .catch((error: unknown) =>
        deps.logger.debug?.(
          { ...unknown, error: error instanceof Error ? error.message : String(error) },
          'pod owner read failed',
        ),
      )
      .finally(() => resolving.delete(key));
  };
}

/**
 * One pair of streams (pods, and warning events about pods) for a namespace, or the
 * cluster (`undefined`). The pair stops together: when one stream is refused, the
 * other is not left running.
 */
async function runStreamPair(
  deps: WatchSessionDeps,
  namespace: string | undefined,
  signal: AbortSignal,
  tracker: SignalTracker,
  trigger: WorkloadTrigger,
  resolveOwner: (unknown: UnknownPod) => void,
): Promise<void> {
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
  const raise = (signals: Signal[]): void => {
    for (const s of signals) trigger.signal(s);
  };
  const onEvent = (r: ReturnType<SignalTracker['onEvent']>): void => {
    if (r === undefined) return;
    if ('signal' in r) trigger.signal(r.signal);
    else resolveOwner(r.unknownPod);
  };
  const pair = new AbortController();
  const stopPair = (): void => pair.abort();
  signal.addEventListener('abort', stopPair, { once: true });
  const options = {
    signal: pair.signal,
    stats: deps.streams,
    logger: {
      warn: deps.logger.warn.bind(deps.logger),
      debug: (obj: object, msg: string): void => deps.logger.debug?.(obj, msg),
    },
    ...(deps.watchTimeoutSeconds === undefined ? {} : { timeoutSeconds: deps.watchTimeoutSeconds }),
  };
  const results = await Promise.allSettled(
    [
      runListWatch(
        deps.source,
        pods,
        {
          onListPage(items, first, last) {
            if (first) tracker.beginList();
            raise(tracker.listPage(items, !podsListed));
            if (last) {
              tracker.endList(namespace);
              podsListed = true;
            }
          },
          onEvent: (e) => raise(tracker.onPod(e.type, e.object)),
        },
        options,
      ),
      runListWatch(
        deps.source,
        events,
        {
          onListPage(items, _first, last) {
            // A re-list (410 Gone) brings what the watch missed: a pod the pod stream
            // has not shown yet is resolved by a read, as on the watch, not dropped.
            for (const item of items) onEvent(tracker.onEvent('ADDED', item, !eventsListed));
            if (last) eventsListed = true;
          },
          onEvent: (e) => onEvent(tracker.onEvent(e.type, e.object)),
        },
        options,
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
}

/**
 * One cluster-wide pair of streams where RBAC allows (and more than one namespace is
 * watched); else one pair per namespace. A namespace RBAC refuses is left to the
 * periodic scan; the others keep their watch. Throws when nothing can be watched.
 */
async function watchEverywhere(
  deps: WatchSessionDeps,
  everyNamespace: boolean,
  signal: AbortSignal,
  pair: (namespace: string | undefined) => Promise<void>,
  setScope: (scope: 'cluster' | 'namespaces') => void,
): Promise<void> {
  const { namespaces } = deps;
  if (everyNamespace || namespaces.length > 1) {
    try {
      setScope('cluster');
      await pair(undefined);
      return;
    } catch (error) {
      if (!(error instanceof StreamForbiddenError) || everyNamespace || signal.aborted) throw error;
      deps.logger.warn(
        { reason: error.message },
        'cluster-wide watch forbidden: watching each namespace of ROLLOUT_DOCTOR_WATCH_NAMESPACES',
      );
    }
  }
  setScope('namespaces');
  const refused = await Promise.all(
    namespaces.map((ns) =>
      pair(ns).then(
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
}
