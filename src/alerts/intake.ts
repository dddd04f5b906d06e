import type { AlertMap } from './alert-map.js';
import type { AlertDiagnosisRequest, AlertOverflowJob, AlertThreadJob } from './jobs.js';
import { diagnosisDedupId, overflowDedupId, threadUpdateDedupId } from './keys.js';
import type { AlertmanagerPayload } from './payload.js';
import { mapNotification, type AlertTarget } from './targets.js';

/** BullMQ deduplication (throttle mode): later adds with the same id are dropped until ttl passes. */
export interface Dedup {
  id: string;
  ttlMs: number;
}

/** Minimal logger (pino's shape) so intake does not depend on a logging library. */
export interface IntakeLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

export interface AlertIntakeDeps {
  alertMap: AlertMap;
  defaultCluster: string;
  /** Clusters that have a worker queue (AppConfig.clusters). */
  clusters: readonly string[];
  channelFor: (namespace: string) => string;
  /** A re-fire within this window starts no new diagnosis and no new thread update. */
  windowMs: number;
  /**
   * Workloads of one notification that get a thread and a diagnosis. The rest are
   * counted in one summary per channel: a notification naming thousands of made-up
   * workloads must not become thousands of threads and diagnoses.
   */
  maxWorkloads: number;
  enqueueThreadUpdate: (data: AlertThreadJob | AlertOverflowJob, dedup: Dedup) => Promise<void>;
  enqueueDiagnosis: (cluster: string, data: AlertDiagnosisRequest, dedup: Dedup) => Promise<void>;
  /**
   * Optional fast path for storms: given all of one notification's work, says in one
   * Redis round trip which dedup windows are already open (those adds would be
   * dropped anyway, so they are skipped) and links the diagnoses to their workloads
   * on the way. Without it every add is sent and BullMQ drops the duplicates.
   */
  openWindows?: (work: readonly IntakeWork[]) => Promise<boolean[]>;
  logger: IntakeLogger;
  now?: () => Date;
}

/** One add the intake would make for a notification: a thread update or a diagnosis. */
export type IntakeWork =
  | { kind: 'thread'; data: AlertThreadJob | AlertOverflowJob; dedup: Dedup }
  | { kind: 'diagnosis'; cluster: string; data: AlertDiagnosisRequest; dedup: Dedup };

/** What one notification turned into; the route logs it, tests assert on it. */
export interface IntakeSummary {
  targets: number;
  firing: number;
  resolved: number;
  ignored: number;
  /** Workloads past the per-notification cap: summarised, no thread, no diagnosis. */
  overflow: number;
}

/**
 * Builds the intake step of the webhook: maps alerts to workloads and queues, per
 * workload, a thread update (notify queue) and, when firing, a diagnosis (cluster
 * queue). Dedup ids are deterministic and live in Redis, so a storm spread over
 * several app replicas still yields one diagnosis per workload per window.
 */
export function createAlertIntake(
  deps: AlertIntakeDeps,
): (payload: AlertmanagerPayload) => Promise<IntakeSummary> {
  const now = deps.now ?? (() => new Date());
  return async (payload) => {
    const mapped = mapNotification(payload, {
      alertMap: deps.alertMap,
      defaultCluster: deps.defaultCluster,
      clusters: deps.clusters,
    });
    for (const alert of mapped.ignored) {
      deps.logger.debug({ alertname: alert.alertname, reason: alert.reason }, 'alert ignored');
    }
    const receivedAt = now().toISOString();
    const work: IntakeWork[] = [];
    const kept = mapped.targets.slice(0, deps.maxWorkloads);
    const over = mapped.targets.slice(deps.maxWorkloads);
    for (const job of overflowJobs(over, mapped.groupHash, deps, receivedAt)) {
      // Once per group and channel per window: Alertmanager's retries and re-sends add nothing.
      work.push({
        kind: 'thread',
        data: job,
        dedup: { id: overflowDedupId(mapped.groupHash, job.channel), ttlMs: deps.windowMs },
      });
    }
    for (const target of kept) {
      const thread = threadJob(target, mapped.groupHash, payload, mapped.truncatedAlerts, receivedAt, deps);
      work.push({
        kind: 'thread',
        data: thread,
        dedup: {
          id: threadUpdateDedupId(mapped.groupHash, target.workloadHash, target.status, target.startsAt),
          ttlMs: deps.windowMs,
        },
      });
      if (target.status === 'firing') {
        work.push({
          kind: 'diagnosis',
          cluster: target.cluster,
          data: {
            workload: thread.workload,
            reply: { kind: 'alert-thread', groupHash: mapped.groupHash, workloadHash: target.workloadHash },
          },
          dedup: { id: diagnosisDedupId(target.workloadHash), ttlMs: deps.windowMs },
        });
      }
    }
    // In a storm nearly every notification repeats one whose adds were already made
    // in this window: one check instead of a BullMQ script per add.
    const open = work.length > 0 && deps.openWindows ? await deps.openWindows(work) : [];
    await Promise.all(
      work.map((item, i) => {
        if (open[i] === true) return undefined;
        return item.kind === 'thread'
          ? deps.enqueueThreadUpdate(item.data, item.dedup)
          : deps.enqueueDiagnosis(item.cluster, item.data, item.dedup);
      }),
    );
    const firing = mapped.targets.filter((t) => t.status === 'firing').length;
    return {
      targets: mapped.targets.length,
      firing,
      resolved: mapped.targets.length - firing,
      ignored: mapped.ignored.length,
      overflow: over.length,
    };
  };
}

/** One summary per channel of the workloads past the cap, with a few names to go on. */
function overflowJobs(
  over: readonly AlertTarget[],
  groupHash: string,
  deps: AlertIntakeDeps,
  receivedAt: string,
): AlertOverflowJob[] {
  const byChannel = new Map<string, AlertTarget[]>();
  for (const target of over) {
    const channel = deps.channelFor(target.namespace);
    byChannel.set(channel, [...(byChannel.get(channel) ?? []), target]);
  }
  const firstDistinct = (values: Iterable<string>): string[] => [...new Set(values)].slice(0, 10);
  return [...byChannel].map(([channel, targets]) => ({
    kind: 'alert-overflow',
    groupHash,
    channel,
    workloads: targets.length,
    firing: targets.filter((t) => t.status === 'firing').length,
    limit: deps.maxWorkloads,
    alertNames: firstDistinct(targets.flatMap((t) => t.alertNames)).map((n) => n.slice(0, 100)),
    namespaces: firstDistinct(targets.map((t) => t.namespace)),
    receivedAt,
  }));
}

function threadJob(
  target: AlertTarget,
  group: string,
  payload: AlertmanagerPayload,
  truncatedAlerts: number,
  receivedAt: string,
  deps: AlertIntakeDeps,
): AlertThreadJob {
  return {
    kind: 'alert-thread',
    groupHash: group,
    workloadHash: target.workloadHash,
    channel: deps.channelFor(target.namespace),
    status: target.status,
    workload: {
      cluster: target.cluster,
      namespace: target.namespace,
      ...(target.deployment !== undefined ? { deployment: target.deployment } : {}),
      guessed: target.guessed,
      pods: target.pods,
    },
    alertNames: target.alertNames.slice(0, 50),
    ...(target.summary !== undefined ? { summary: target.summary } : {}),
    startsAt: target.startsAt,
    ...(target.endsAt !== undefined ? { endsAt: target.endsAt } : {}),
    ...(payload.externalURL !== '' ? { externalURL: payload.externalURL.slice(0, 500) } : {}),
    truncatedAlerts,
    receivedAt,
  };
}
