/**
 * A warned apply announced to the app, which opens the workload's incident
 * thread before the rollout starts (src/app/alerts/admission-threads.ts). The webhook's
 * answer never waits for it: `onWarned` only takes note and returns; the announcement
 * goes out in the background (a signed job on one stream the app moves from:
 * announce-queue.ts), bounded in time, in number and per namespace, and its failure is
 * counted and logged, never seen by the API server. Dedup: one announcement per workload per DEDUP_MS from this replica, and
 * one thread per workload at the app (the early warning's key), whichever replica
 * or lane comes first. A dry run (`kubectl apply --dry-run=server`) applies nothing and
 * is not announced. The job carries the object's generation and uid as reviewed: the
 * app posts it only once the cluster shows that generation (src/app/alerts/admission-parking.ts), so an
 * apply another admission step refuses is never announced.
 */
import type { Logger } from '../logger.js';
import { Lru } from '../lru.js';
import type { CheckResult } from '../check/check.js';
import { workloadHash } from '../queue/alert-keys.js';
import { notifyJobSchema, type NotifyJob } from '../queue/schemas.js';
import type { AdmissionRequest } from './review.js';
import type { AdmissionMetrics } from './metrics.js';

export type AdmissionWarningJob = Extract<NotifyJob, { kind: 'admission-warning' }>;

/** One announcement per workload per this long from one replica (a retried apply, a helm loop). */
export const DEDUP_MS = 10 * 60_000;
/** At most this many announcements on their way at once; past it, dropped (counted). */
const MAX_IN_FLIGHT = 20;
/** At most this many announcements per namespace and minute, as the early warning's diagnoses. */
export const PER_NAMESPACE_PER_MINUTE = 10;
/** An announcement not queued within this is given up (counted). */
export const SEND_TIMEOUT_MS = 2_000;
/**
 * Workloads whose announcement time is kept for the dedup, and namespaces whose minute
 * is counted: each the least recently used past it forgotten alone, so no flood of
 * workloads or namespaces grows the memory, and none forgets every other at once.
 */
export const REMEMBERED = 10_000;

interface AnnouncerOptions {
  cluster: string;
  /** Appends the job (signed) to the app's stream (announce-queue.ts); may be slow or fail. */
  send: (job: AdmissionWarningJob, dedupId: string) => Promise<void>;
  metrics: AdmissionMetrics;
  logger: Logger;
  now?: () => number;
}

export interface Announcer {
  /** ReviewDeps.onWarned: returns at once. */
  onWarned: (result: CheckResult, request: AdmissionRequest) => void;
  /** Resolves when no announcement is on its way (tests, shutdown). */
  idle: () => Promise<void>;
}

type Skip = 'dry-run' | 'deduplicated' | 'namespace-limit' | 'dropped' | 'invalid';

export function createAnnouncer(options: AnnouncerOptions): Announcer {
  const now = options.now ?? Date.now;
  const announced = new Lru<string, number>(REMEMBERED);
  const perNamespace = new Lru<string, number[]>(REMEMBERED);
  const inFlight = new Set<Promise<void>>();
  const count = (outcome: string): void => options.metrics.announcements.inc({ outcome });

  const admit = (request: AdmissionRequest, job: AdmissionWarningJob, hash: string): Skip | undefined => {
    if (request.dryRun === true) return 'dry-run';
    const t = now();
    if (t - (announced.get(hash) ?? -Infinity) < DEDUP_MS) return 'deduplicated';
    if (inFlight.size >= MAX_IN_FLIGHT) return 'dropped';
    const { namespace } = job.workload;
    const recent = (perNamespace.get(namespace) ?? []).filter((at) => t - at < 60_000);
    perNamespace.set(namespace, recent);
    if (recent.length >= PER_NAMESPACE_PER_MINUTE) return 'namespace-limit';
    if (!notifyJobSchema.safeParse(job).success) return 'invalid';
    recent.push(t);
    announced.set(hash, t);
    return undefined;
  };

  const deliver = async (job: AdmissionWarningJob, hash: string): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`not queued within ${SEND_TIMEOUT_MS} ms`)), SEND_TIMEOUT_MS);
    });
    try {
      await Promise.race([options.send(job, `admission-warning-${hash}`), late]);
      count('queued');
    } catch (error) {
      // Not announced: the next warned apply of the workload tries again.
      announced.delete(hash);
      count('failed');
      options.logger.warn(
        { err: error, namespace: job.workload.namespace, name: job.workload.name },
        'warned apply not announced',
      );
    } finally {
      clearTimeout(timer);
    }
  };

  return {
    onWarned(result, request) {
      try {
        const { kind, namespace, name } = result.target;
        const job = jobOf(options.cluster, result, request, new Date(now()).toISOString());
        const hash = workloadHash({ cluster: options.cluster, namespace, kind, name });
        const skip = admit(request, job, hash);
        if (skip) return count(skip);
        const sending = deliver(job, hash);
        inFlight.add(sending);
        void sending.finally(() => inFlight.delete(sending));
      } catch (error) {
        count('failed');
        options.logger.warn({ err: error }, 'warned apply not announced');
      }
    },
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** The notify job for a warned apply: names as the review gave them, free text cut to its bounds. */
function jobOf(
  cluster: string,
  result: CheckResult,
  request: AdmissionRequest,
  at: string,
): AdmissionWarningJob {
  const finding = result.findings[0];
  return {
    kind: 'admission-warning',
    cluster,
    workload: { ...result.target },
    user: (request.userInfo?.username ?? '').slice(0, 128),
    code: finding?.code ?? 'RolloutStuck',
    ...(result.reason !== undefined ? { reason: result.reason.slice(0, 300) } : {}),
    ...(result.fix ? { fix: result.fix.words.slice(0, 100) } : {}),
    at,
    ...objectVersion(request),
  };
}

/** The reviewed object's generation and uid, when the review carries them (what the app waits to see). */
function objectVersion(request: AdmissionRequest): { generation?: number; uid?: string } {
  const metadata = request.object?.['metadata'];
  if (typeof metadata !== 'object' || metadata === null) return {};
  const { generation, uid } = metadata as { generation?: unknown; uid?: unknown };
  return {
    ...(typeof generation === 'number' && Number.isSafeInteger(generation) && generation >= 1
      ? { generation }
      : {}),
    ...(typeof uid === 'string' && uid.length > 0 && uid.length <= 128 ? { uid } : {}),
  };
}
