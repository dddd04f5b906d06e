import type { AlertMap } from './alert-map.js';
import type { AlertDiagnosisRequest, AlertThreadJob } from './jobs.js';
import { diagnosisDedupId, threadUpdateDedupId } from './keys.js';
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
  enqueueThreadUpdate: (data: AlertThreadJob, dedup: Dedup) => Promise<void>;
  enqueueDiagnosis: (cluster: string, data: AlertDiagnosisRequest, dedup: Dedup) => Promise<void>;
  logger: IntakeLogger;
  now?: () => Date;
}

/** What one notification turned into; the route logs it, tests assert on it. */
export interface IntakeSummary {
  targets: number;
  firing: number;
  resolved: number;
  ignored: number;
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
    const work: Promise<void>[] = [];
    for (const target of mapped.targets) {
      const thread = threadJob(target, mapped.groupHash, payload, mapped.truncatedAlerts, receivedAt, deps);
      work.push(
        deps.enqueueThreadUpdate(thread, {
          id: threadUpdateDedupId(mapped.groupHash, target.workloadHash, target.status, target.startsAt),
          ttlMs: deps.windowMs,
        }),
      );
      if (target.status === 'firing') {
        const request: AlertDiagnosisRequest = {
          workload: thread.workload,
          reply: { kind: 'alert-thread', groupHash: mapped.groupHash, workloadHash: target.workloadHash },
        };
        work.push(
          deps.enqueueDiagnosis(target.cluster, request, {
            id: diagnosisDedupId(target.workloadHash),
            ttlMs: deps.windowMs,
          }),
        );
      }
    }
    await Promise.all(work);
    const firing = mapped.targets.filter((t) => t.status === 'firing').length;
    return {
      targets: mapped.targets.length,
      firing,
      resolved: mapped.targets.length - firing,
      ignored: mapped.ignored.length,
    };
  };
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
