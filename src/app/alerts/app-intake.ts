import {
  ADMISSION_BUDGET_KEYS,
  ADMISSION_READS_PER_THREAD,
  ADMISSION_READ_KEYS,
  createThreadBudget,
  type ThreadBudget,
} from './thread-budget.js';
import type { AdmissionWarningJob } from './messages.js';
import { DEFAULT_WORKLOAD_KIND } from '../../diagnosis/workload-ref.js';
import type { RecordSigner, RecordVerifier } from '../../queue/record-mark.js';
import type { Redis } from 'ioredis';
import type { ReplicationGuard } from '../../queue/replication-guard.js';
import { createAlertIntake, type IntakeLogger } from './intake.js';
import type { AlertDiagnosisRequest } from '../../queue/alert-jobs.js';
import { createAlertNotifyHooks, type AlertNotifyHooks } from './notify-hooks.js';
import { createChannelRouter } from '../../config/alert-routes.js';
import { JOB_LINK_SECONDS, createThreadStore, jobLinkEntry } from '../../queue/alert-thread-store.js';
import { createAlertmanagerRoute, type AlertmanagerRoute, type RouteLogger } from '../routes/alertmanager.js';
import type { AppConfig } from '../../config/environment.js';
import type { PlanStore } from '../../queue/plan-store.js';
import { waitForReady } from '../../queue/connection.js';
import { workloadHash } from '../../queue/alert-keys.js';
import { redisScript } from '../../queue/redis-script.js';
import { diagnoseJobId } from '../../queue/job-ids.js';
import type { DiagnoseJob } from '../../queue/schemas.js';
import type { Producers } from '../../queue/producers.js';
import type { ChatAdapter } from '../../chat/adapter.js';
import type { ChatPlatform } from '../../platforms/chat-refs.js';
import type { ThreadRoot } from './hooks.js';

// For each dedup key (KEYS[1..n], n = ARGV[1]): 1 when its window is open (the key
// exists with a TTL, so BullMQ would drop the add), else 0. Then writes the job links
// (KEYS[n+1..], values ARGV[3..], TTL ARGV[2] seconds) as ThreadStore.linkJob does:
// one round trip per notification.
const OPEN_WINDOWS = `
local n = tonumber(ARGV[1])
local open = {}
for i = 1, n do
  if redis.call('PTTL', KEYS[i]) > 0 then open[i] = 1 else open[i] = 0 end
end
for j = n + 1, #KEYS do
  redis.call('SET', KEYS[j], ARGV[j - n + 2], 'EX', ARGV[2])
end
return open
`;
const openWindows = redisScript(OPEN_WINDOWS);

// Grants up to ARGV[1] of this minute's ARGV[2] thread slots (KEYS[1], expiring after
// two minutes) and returns how many it granted.

/** Which dedup windows are open (OPEN_WINDOWS), writing the job links in the same round trip. */
async function openWindowsAndLink(
  redis: Redis,
  dedupKeys: readonly string[],
  links: readonly { key: string; value: string }[],
): Promise<boolean[]> {
  const reply = (await openWindows(
    redis,
    [...dedupKeys, ...links.map((l) => l.key)],
    String(dedupKeys.length),
    String(JOB_LINK_SECONDS),
    ...links.map((l) => l.value),
  )) as number[];
  return reply.map((v) => v === 1);
}

/** Who "requested" an alert-triggered diagnosis, in job data and audit lines. */
export const ALERT_REQUESTER = 'ALERTMANAGER';

/** The diagnose job for an alert: the Deployment when named, else resolved from pods by the worker. */
export function alertDiagnoseJob(
  cluster: string,
  request: Pick<AlertDiagnosisRequest, 'workload'> & Partial<AlertDiagnosisRequest>,
): DiagnoseJob {
  const { workload } = request;
  const name = workload.deployment ?? workload.pods[0] ?? '';
  const resolve = workload.deployment === undefined || workload.guessed;
  return {
    mode: 'workload',
    cluster,
    target: { kind: workload.kind ?? DEFAULT_WORKLOAD_KIND, namespace: workload.namespace, name },
    requestedBy: ALERT_REQUESTER,
    ...(resolve && workload.pods.length > 0 ? { resolveFromPods: workload.pods } : {}),
  };
}

/** Who "requested" the app's read of a warned apply's workload (admission-parking.ts). */
export const ADMISSION_REQUESTER = 'ADMISSION';

/** The deterministic id of an alert's diagnose job (what enqueueDiagnose returns). */
export function alertJobId(cluster: string, request: Pick<AlertDiagnosisRequest, 'workload'>): string {
  const job = alertDiagnoseJob(cluster, request);
  return job.mode === 'workload' ? diagnoseJobId(job.target.namespace, job.target.name, job.target.kind) : '';
}

/**
 * Alert wiring for the app process: the notify hooks that keep incident threads
 * (whenever ROLLOUT_DOCTOR_ALERT_CHANNEL is set: early-warning threads from the
 * workers' watch need no Alertmanager) and the `POST /alerts/alertmanager` route
 * (only when ALERTMANAGER_TOKEN is set too). Logs never include the token.
 */
export function createAppAlerts(deps: {
  config: AppConfig;
  producers: Producers;
  redis: Redis;
  plans: PlanStore;
  /** The read policy's word on alert diagnoses per namespace and channel. */
  allows: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
  logger: IntakeLogger & RouteLogger;
  now?: () => number;
  /** The app's mark on thread records, links and verdicts, and its check of them (record-mark.ts). */
  records?: { signer: RecordSigner; verifier: RecordVerifier };
  /** Marks a thread answered by its run's result (subscriptions.markAnswered). */
  markAnswered?: (root: ThreadRoot) => Promise<void>;
  /** WAIT for the replicas, and the redo of an alert's diagnosis a failover lost (replication-guard.ts). */
  replication?: ReplicationGuard;
  /** The chat adapters by platform (services.chats), read at each call: every thread posts through them. */
  chats: () => Partial<Record<ChatPlatform, ChatAdapter>>;
}): { routes: AlertmanagerRoute[]; hooks: AlertNotifyHooks | undefined } {
  const { config } = deps;
  const token = config.alertmanagerToken;
  // Slack's alert channel, else (Teams only) the Teams channel conversation.
  const channel = config.alertChannel ?? config.teams?.alertConversation;
  if (channel === undefined) return { routes: [], hooks: undefined };
  const store = createThreadStore(deps.redis, deps.records ?? {});
  const signer = deps.records?.signer;
  // Alert and early-warning threads share one budget per minute (thread-budget.ts).
  const budget = createThreadBudget(deps.redis, config.alerts.maxWorkloadsPerMinute, deps.now ?? Date.now);
  const channelFor = createChannelRouter(channel, config.alerts.routes);
  const hooks = createAlertNotifyHooks({
    redis: deps.redis,
    plans: deps.plans,
    channelFor,
    allows: deps.allows,
    logger: deps.logger,
    store,
    linkHosts: config.alerts.linkHosts,
    threadBudget: budget,
    ...warnedApplies(deps, channelFor),
    ...(deps.records ? { records: deps.records } : {}),
    ...(deps.markAnswered ? { markAnswered: deps.markAnswered } : {}),
    chats: deps.chats,
  });
  // Early-warning threads only: no Alertmanager route without its token.
  if (token === undefined) return { routes: [], hooks };
  const intake = createAlertIntake({
    alertMap: config.alerts.alertMap,
    defaultCluster: config.defaultCluster,
    clusters: config.clusters,
    channelFor,
    windowMs: config.alerts.windowMs,
    maxWorkloads: config.alerts.maxWorkloadsPerNotification,
    ...(deps.now ? { now: () => new Date((deps.now ?? Date.now)()) } : {}),
    allows: deps.allows,
    maxWorkloadsPerMinute: config.alerts.maxWorkloadsPerMinute,
    async minuteBudget(wanted) {
      // Like the adds that follow, wait briefly for a (re)connecting Redis; if it stays
      // away the intake fails and Alertmanager retries (503).
      await waitForReady(deps.redis, 1_500);
      return budget.take(wanted);
    },
    logger: deps.logger,
    async enqueueThreadUpdate(data, dedup) {
      await deps.producers.enqueueNotify(data, { deduplication: { id: dedup.id, ttl: dedup.ttlMs } });
    },
    async openWindows(work) {
      // Only a fast path: before the connection is ready (start, reconnect) every add
      // goes out and BullMQ waits, times out or drops duplicates as usual.
      if (deps.redis.status !== 'ready') return work.map(() => false);
      const dedupKeys = work.map((item) =>
        deps.producers.dedupKey(
          item.kind === 'thread' ? { kind: 'alert-notify' } : { kind: 'diagnose', cluster: item.cluster },
          item.dedup.id,
        ),
      );
      // Every diagnosis is linked, queued or not, as enqueueDiagnosis does after its add;
      // unlinkDiagnoses takes back the ones the per-minute cap then refuses.
      const links = work.flatMap((item) =>
        item.kind === 'diagnosis'
          ? [
              jobLinkEntry(
                item.cluster,
                alertJobId(item.cluster, item.data),
                item.data.reply.workloadHash,
                false,
                Date.now(),
                signer,
              ),
            ]
          : [],
      );
      return openWindowsAndLink(deps.redis, dedupKeys, links);
    },
    async unlinkDiagnoses(work) {
      // Rare: only diagnoses the per-minute cap refused after their links were written.
      if (work.length === 0 || deps.redis.status !== 'ready') return;
      await deps.redis.del(
        ...work.map(
          (item) =>
            jobLinkEntry(item.cluster, alertJobId(item.cluster, item.data), item.data.reply.workloadHash).key,
        ),
      );
    },
    enqueueDiagnosis: (cluster, request, dedup) =>
      enqueueAlertDiagnosis(deps, store, { cluster, request, dedup }),
  });
  const route = createAlertmanagerRoute({
    token,
    intake,
    logger: deps.logger,
    maxBodyBytes: config.alerts.maxBodyBytes,
  });
  return { routes: [route], hooks };
}

/**
 * The warned applies' side of the alert wiring (admission-parking.ts): their own thread
 * budget (made-up reviews never spend the alerts'), and the app's read of a
 * parked apply's workload, a background diagnosis under the read policy, bounded a
 * minute too (past it, a parked apply waits for the watch's run, an alert's or a person's).
 */
function warnedApplies(
  deps: Pick<Parameters<typeof createAppAlerts>[0], 'config' | 'redis' | 'now' | 'allows' | 'producers'>,
  channelFor: (namespace: string) => string,
): { admissionBudget: ThreadBudget; readBack: (job: AdmissionWarningJob) => Promise<void> } {
  const now = deps.now ?? Date.now;
  const limit = deps.config.alerts.admissionMaxThreadsPerMinute;
  const reads = createThreadBudget(deps.redis, ADMISSION_READS_PER_THREAD * limit, now, ADMISSION_READ_KEYS);
  return {
    admissionBudget: createThreadBudget(deps.redis, limit, now, ADMISSION_BUDGET_KEYS),
    async readBack(job) {
      const { namespace } = job.workload;
      if (!deps.allows({ cluster: job.cluster, namespace, channel: channelFor(namespace) })) return;
      if ((await reads.take(1)) === 0) return;
      const hash = workloadHash({ cluster: job.cluster, ...job.workload });
      await deps.producers.enqueueDiagnose(
        { mode: 'workload', cluster: job.cluster, target: job.workload, requestedBy: ADMISSION_REQUESTER },
        {
          background: true,
          deduplication: { id: `admission-read-${hash}-${job.generation ?? 0}`, ttl: 60_000 },
        },
      );
    },
  };
}

/**
 * Queues an alert's diagnosis and links its job to the workload's thread; on a replica
 * before Alertmanager gets its 200, and queued again (with its dedup window and link)
 * if a failover lost it (src/queue/replication-guard.ts).
 */
async function enqueueAlertDiagnosis(
  deps: { producers: Producers; replication?: ReplicationGuard },
  store: ReturnType<typeof createThreadStore>,
  work: { cluster: string; request: AlertDiagnosisRequest; dedup: { id: string; ttlMs: number } },
): Promise<void> {
  const { cluster, request, dedup } = work;
  const enqueue = async (): Promise<void> => {
    const { jobId } = await deps.producers.enqueueDiagnose(alertDiagnoseJob(cluster, request), {
      deduplication: { id: dedup.id, ttl: dedup.ttlMs },
      background: true,
    });
    await store.linkJob(cluster, jobId, request.reply.workloadHash);
  };
  const socket = deps.replication?.socket();
  await enqueue();
  await deps.replication?.confirm({
    label: 'alert',
    fields: { cluster, workload: request.reply.workloadHash },
    ...(socket === undefined ? {} : { socket }),
    redo: enqueue,
  });
}
