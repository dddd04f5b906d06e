import { EARLY_WARNING_CODES, type Dedup } from '../../queue/alert-jobs.js';
import { diagnosisDedupId, workloadHash } from '../../queue/alert-keys.js';
import { DEFAULT_WORKLOAD_KIND, type WorkloadKind, type WorkloadRef } from '../../diagnosis/workload-ref.js';

/**
 * Early warning: KubeDeploymentRolloutStuck fires only after the progress deadline
 * plus its `for` (about 25 minutes with defaults). Two paths queue a diagnosis of a
 * workload before any alert, with the thread key an alert for that workload would
 * use (one incident, one thread); the app opens the thread when the result confirms a
 * surge deadlock or node-local crash loop (no Slack token here):
 * - the watch (watch.ts): signals from the API server's watch streams,
 *   debounced per workload by `createWorkloadTrigger` below, within seconds;
 * - the slow safety net, `createEarlyWarningWatch`: a scan of the namespaces every
 *   interval, queued with the alert dedup id (one diagnosis per window), for what a
 *   watch can miss (events expire after an hour, a re-list does not see old ones).
 */

/** One workload a scan flagged. */
export interface ScanHit {
  /** Absent: a Deployment (a scan's entries name no kind yet). */
  kind?: WorkloadKind;
  namespace: string;
  name: string;
  code: string;
  summary: string;
}

export interface EarlyWarningDeps {
  cluster: string;
  /** Namespaces to watch; the watch is off when empty. */
  namespaces: readonly string[];
  intervalMs: number;
  /** Same window as alert intake: one diagnosis per workload per window. */
  windowMs: number;
  /** Targeted scan of one namespace, or of every namespace for `*` (scanCluster). */
  scan: (namespace: string) => Promise<ScanHit[]>;
  /** Queues a diagnose job for the workload; returns its job id. */
  enqueueDiagnosis: (target: WorkloadRef, dedup: Dedup) => Promise<string>;
  /** Links the job to the workload's thread key and marks it as an early warning. */
  linkJob: (jobId: string, workloadHash: string) => Promise<void>;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

export interface EarlyWarningWatch {
  /** One pass over every namespace; returns how many workloads were queued. */
  runOnce(): Promise<number>;
  start(): void;
  /** Stops the timer and waits for a pass in progress. */
  stop(): Promise<void>;
}

/** Builds the watch; `start()` runs a pass now and then every `intervalMs`, never overlapping. */
export function createEarlyWarningWatch(deps: EarlyWarningDeps): EarlyWarningWatch {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let stopped = false;

  const runOnce = async (): Promise<number> => {
    let queued = 0;
    for (const namespace of deps.namespaces) {
      let hits: ScanHit[];
      try {
        hits = await deps.scan(namespace);
      } catch (error) {
        // One unreadable namespace must not stop the watch for the others.
        deps.logger.warn(
          { namespace, reason: error instanceof Error ? error.message : String(error) },
          'early-warning scan failed',
        );
        continue;
      }
      const targets = new Map<string, ScanHit & WorkloadRef>();
      for (const hit of hits) {
        const kind = hit.kind ?? DEFAULT_WORKLOAD_KIND;
        if (EARLY_WARNING_CODES.includes(hit.code))
          targets.set(`${kind}/${hit.namespace}/${hit.name}`, { ...hit, kind });
      }
      for (const hit of targets.values()) {
        const target: WorkloadRef = { kind: hit.kind, namespace: hit.namespace, name: hit.name };
        const hash = workloadHash({ cluster: deps.cluster, ...target });
        const jobId = await deps.enqueueDiagnosis(target, {
          id: diagnosisDedupId(hash),
          ttlMs: deps.windowMs,
        });
        await deps.linkJob(jobId, hash);
        deps.logger.info(
          { namespace: hit.namespace, name: hit.name, code: hit.code },
          'early warning queued',
        );
        queued += 1;
      }
    }
    return queued;
  };

  const tick = (): void => {
    if (stopped) return;
    running = runOnce().catch((error: unknown) => {
      deps.logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'early-warning pass failed',
      );
      return 0;
    });
    void running.finally(() => {
      running = undefined;
      if (!stopped) timer = setTimeout(tick, deps.intervalMs);
    });
  };

  return {
    runOnce,
    start() {
      if (deps.namespaces.length === 0 || timer !== undefined || running !== undefined) return;
      stopped = false;
      tick();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}

/** One workload the watch signalled, and why (the reasons merged by the debounce). */
export interface TriggeredWorkload extends WorkloadRef {
  reasons: string[];
  pods: string[];
}

export interface WorkloadTriggerDeps {
  /** Signals of one workload within this window make one diagnosis. */
  debounceMs: number;
  /**
   * After a diagnosis, signals of the workload wait this long before the next one,
   * doubling with each diagnosis up to `maxCooldownMs` (a crash loop's back-off does
   * the same), and back to the start once the workload was quiet for `maxCooldownMs`.
   */
  cooldownMs: number;
  maxCooldownMs: number;
  enqueue: (workload: TriggeredWorkload) => Promise<void>;
  logger: { warn(obj: object, msg: string): void };
  now?: () => number;
}

export interface WorkloadTrigger {
  signal(s: WorkloadRef & { pod: string; reason: string }): void;
  /** Diagnoses queued so far. */
  readonly queued: number;
  stop(): void;
}

interface TriggerState {
  workload: WorkloadRef;
  timer: NodeJS.Timeout | undefined;
  lastQueuedAt: number | undefined;
  /** Diagnoses in the current run of signals (sets the cooldown). */
  streak: number;
  reasons: Set<string>;
  pods: Set<string>;
}

/**
 * Debounce per workload: the first signal arms a timer of `debounceMs`; every signal
 * of the same workload until it fires joins the same diagnosis (a burst of events
 * gives one). After a diagnosis the workload cools down (`cooldownMs`, doubling per
 * diagnosis up to `maxCooldownMs`): signals in that time are merged into one
 * diagnosis at its end. So an early signal (a first restart, before the pod counts
 * as crash-looping) is followed up within seconds, and a crash loop going on for
 * hours costs a diagnosis every few minutes at most.
 */
export function createWorkloadTrigger(deps: WorkloadTriggerDeps): WorkloadTrigger {
  const now = deps.now ?? Date.now;
  const states = new Map<string, TriggerState>();
  let queued = 0;
  let stopped = false;

  const cooldown = (st: TriggerState): number =>
    Math.min(deps.maxCooldownMs, deps.cooldownMs * 2 ** Math.max(0, st.streak - 1));

  const prune = (): void => {
    const t = now();
    for (const [key, st] of states) {
      if (
        st.timer === undefined &&
        (st.lastQueuedAt === undefined || t - st.lastQueuedAt >= deps.maxCooldownMs)
      ) {
        states.delete(key);
      }
    }
  };

  const fire = (st: TriggerState): void => {
    st.timer = undefined;
    if (stopped) return;
    const { namespace, name } = st.workload;
    const workload = { ...st.workload, reasons: [...st.reasons].sort(), pods: [...st.pods].sort() };
    st.reasons = new Set();
    st.pods = new Set();
    st.lastQueuedAt = now();
    st.streak += 1;
    queued += 1;
    deps.enqueue(workload).catch((error: unknown) => {
      // Not lost (Redis away, a restart): the signals go back and are tried again
      // after a cooldown, merged with any that came meanwhile.
      queued -= 1;
      for (const r of workload.reasons) st.reasons.add(r);
      for (const p of workload.pods) if (st.pods.size < 20) st.pods.add(p);
      if (!stopped && st.timer === undefined) st.timer = setTimeout(() => fire(st), deps.cooldownMs);
      deps.logger.warn(
        { namespace, name, reason: error instanceof Error ? error.message : String(error) },
        'early-warning diagnosis could not be queued',
      );
    });
  };

  return {
    signal(s) {
      if (stopped) return;
      const key = `${s.kind}/${s.namespace}/${s.name}`;
      let st = states.get(key);
      if (!st) {
        if (states.size >= 1_000) prune();
        st = {
          workload: { kind: s.kind, namespace: s.namespace, name: s.name },
          timer: undefined,
          lastQueuedAt: undefined,
          streak: 0,
          reasons: new Set(),
          pods: new Set(),
        };
        states.set(key, st);
      }
      st.reasons.add(s.reason);
      if (st.pods.size < 20) st.pods.add(s.pod);
      if (st.timer !== undefined) return;
      const t = now();
      // Quiet for the longest cooldown: a new episode starts from the shortest.
      if (st.lastQueuedAt !== undefined && t - st.lastQueuedAt >= deps.maxCooldownMs) st.streak = 0;
      const due = Math.max(t + deps.debounceMs, (st.lastQueuedAt ?? -Infinity) + cooldown(st));
      const state = st;
      st.timer = setTimeout(() => fire(state), due - t);
    },
    get queued() {
      return queued;
    },
    stop() {
      stopped = true;
      for (const st of states.values()) clearTimeout(st.timer);
      states.clear();
    },
  };
}
