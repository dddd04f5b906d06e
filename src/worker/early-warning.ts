import { EARLY_WARNING_CODES, type Dedup } from '../queue/alert-jobs.js';
import { diagnosisDedupId, workloadHash } from '../queue/alert-keys.js';

/**
 * Early warning (issue 5 item 5): KubeDeploymentRolloutStuck fires only after the
 * progress deadline plus its `for` (about 25 minutes with defaults). This worker-side
 * watch scans the configured namespaces periodically and, for every surge deadlock or
 * node-local crash loop it finds, queues a diagnosis with the same dedup id and thread
 * key an alert for that workload would use: one incident, one diagnosis per window,
 * one thread. The app opens the thread when the result arrives (no Slack token here).
 */

/** One Deployment a scan flagged. */
export interface ScanHit {
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
  /** Targeted scan of one namespace (scanCluster, or collectSnapshot + diagnose per Deployment). */
  scan: (namespace: string) => Promise<ScanHit[]>;
  /** Queues a diagnose job for the Deployment; returns its job id. */
  enqueueDiagnosis: (target: { namespace: string; name: string }, dedup: Dedup) => Promise<string>;
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
          { namespace, err: error instanceof Error ? error.message : String(error) },
          'early-warning scan failed',
        );
        continue;
      }
      const targets = new Map<string, ScanHit>();
      for (const hit of hits) {
        if (EARLY_WARNING_CODES.includes(hit.code)) targets.set(`${hit.namespace}/${hit.name}`, hit);
      }
      for (const hit of targets.values()) {
        const hash = workloadHash({
          cluster: deps.cluster,
          namespace: hit.namespace,
          kind: 'Deployment',
          name: hit.name,
        });
        const jobId = await deps.enqueueDiagnosis(
          { namespace: hit.namespace, name: hit.name },
          { id: diagnosisDedupId(hash), ttlMs: deps.windowMs },
        );
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
        { err: error instanceof Error ? error.message : String(error) },
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
