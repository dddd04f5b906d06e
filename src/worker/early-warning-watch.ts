import type { Redis } from 'ioredis';
import { createEarlyWarningWatch, type EarlyWarningWatch, type ScanHit } from './early-warning.js';
import { createThreadStore } from '../queue/alert-thread-store.js';
import type { Producers } from '../queue/producers.js';

/** Who "requested" a watch-started diagnosis, in job data and audit lines. */
export const EARLY_WARNING_REQUESTER = 'EARLYWARNING';

/** A namespace scan as the worker's diagnose deps provide it. */
type NamespaceScan = (
  namespace: string,
  onProgress: (done: number, total?: number) => void,
) => Promise<{
  entries: { namespace: string; name: string; findings: { code: string; summary: string }[] }[];
}>;

/** Flattens a namespace scan into one hit per Deployment and finding. */
export function scanHits(report: Awaited<ReturnType<NamespaceScan>>): ScanHit[] {
  return report.entries.flatMap((e) =>
    e.findings.map((f) => ({ namespace: e.namespace, name: e.name, code: f.code, summary: f.summary })),
  );
}

/**
 * Starts the opt-in early-warning watch of a worker (ROLLOUT_DOCTOR_WATCH_NAMESPACES),
 * or returns undefined when no namespace is configured. Diagnoses go to the worker's
 * own cluster queue with the alert dedup id; the app opens the thread on the result.
 */
export function startEarlyWarning(deps: {
  cluster: string;
  watch: { namespaces: readonly string[]; intervalMs: number; windowMs: number };
  scan: NamespaceScan;
  producers: Producers;
  redis: Redis;
  logger: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}): EarlyWarningWatch | undefined {
  if (deps.watch.namespaces.length === 0) return undefined;
  const store = createThreadStore(deps.redis);
  const watch = createEarlyWarningWatch({
    cluster: deps.cluster,
    namespaces: deps.watch.namespaces,
    intervalMs: deps.watch.intervalMs,
    windowMs: deps.watch.windowMs,
    logger: deps.logger,
    scan: async (namespace) => scanHits(await deps.scan(namespace, () => undefined)),
    async enqueueDiagnosis(target, dedup) {
      const { jobId } = await deps.producers.enqueueDiagnose(
        {
          mode: 'deployment',
          cluster: deps.cluster,
          target: { kind: 'Deployment', ...target },
          requestedBy: EARLY_WARNING_REQUESTER,
        },
        { deduplication: { id: dedup.id, ttl: dedup.ttlMs }, background: true },
      );
      return jobId;
    },
    linkJob: (jobId, workloadHash) => store.linkJob(deps.cluster, jobId, workloadHash, true),
  });
  watch.start();
  deps.logger.info({ namespaces: deps.watch.namespaces }, 'early-warning watch started');
  return watch;
}
