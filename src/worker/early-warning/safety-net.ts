import { EARLY_WARNING_CODES, type Dedup } from '../../queue/alert-jobs.js';
import { diagnosisDedupId, workloadHash } from '../../queue/alert-keys.js';
import { DEFAULT_WORKLOAD_KIND, type WorkloadKind, type WorkloadRef } from '../../diagnosis/workload-ref.js';

/**
 * Early warning: KubeDeploymentRolloutStuck fires only after the progress deadline
 * plus its `for` (about 25 minutes with defaults). Two paths queue a diagnosis of a
 * workload before any alert, with the thread key an alert for that workload would
 * use (one incident, one thread); the app opens the thread when the result confirms a
 * surge deadlock or node-local crash loop (no Slack token here):
 * - the watch (session.ts): signals from the API server's watch streams,
 *   debounced per workload by `createWorkloadTrigger` (trigger.ts), within seconds;
 * - the slow safety net, `createEarlyWarningWatch`: a scan of the namespaces every
 *   interval, queued with the alert dedup id (one diagnosis per window), for what a
 *   watch can miss (events expire after an hour, a re-list does not see old ones).
 */

/** One workload a scan flagged. */
export interface ScanHit {
  /** Absent: a Deployment. */
  kind?: WorkloadKind;
  namespace: string;
  name: string;
  code: string;
  summary: string;
}

interface EarlyWarningDeps {
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
