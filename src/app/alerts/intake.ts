import type { AlertMap } from '../../config/alert-map.js';
import { DEFAULT_WORKLOAD_KIND } from '../../diagnosis/workload-ref.js';
import type {
  AlertDiagnosisRequest,
  AlertOverflowJob,
  AlertThreadJob,
  Dedup,
} from '../../queue/alert-jobs.js';
import {
  diagnosisDedupId,
  overflowDedupId,
  overflowMinuteDedupId,
  threadUpdateDedupId,
} from '../../queue/alert-keys.js';
import type { AlertmanagerPayload } from './payload.js';
import { mapNotification, type AlertTarget } from './targets.js';

/** Minimal logger (pino's shape) so intake does not depend on a logging library. */
export interface IntakeLogger {
  debug(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

interface AlertIntakeDeps {
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
  /** The read policy's word on alerts (src/policy/read-policy.ts); a refused workload gets neither thread nor diagnosis. */
  allows?: (scope: { cluster: string; namespace: string; channel: string }) => boolean;
  /**
   * The cap across notifications: asked for `wanted` new threads or updates, grants
   * how many still fit in this minute (the rest are summarised as overflow).
   */
  minuteBudget?: (wanted: number) => Promise<number>;
  /** The per-minute cap minuteBudget enforces, named in the summary. */
  maxWorkloadsPerMinute?: number;
  enqueueThreadUpdate: (data: AlertThreadJob | AlertOverflowJob, dedup: Dedup) => Promise<void>;
  enqueueDiagnosis: (cluster: string, data: AlertDiagnosisRequest, dedup: Dedup) => Promise<void>;
  /**
   * Optional fast path for storms: given all of one notification's work, says in one
   * Redis round trip which dedup windows are already open (those adds would be
   * dropped anyway, so they are skipped) and links the diagnoses to their workloads
   * on the way. Without it every add is sent and BullMQ drops the duplicates.
   */
  openWindows?: (work: readonly IntakeWork[]) => Promise<boolean[]>;
  /** With openWindows (which links every diagnosis it is shown): removes the links of diagnoses the caps refused. */
  unlinkDiagnoses?: (work: readonly Extract<IntakeWork, { kind: 'diagnosis' }>[]) => Promise<void>;
  logger: IntakeLogger;
  now?: () => Date;
}

/** One add the intake would make for a notification: a thread update or a diagnosis. */
type IntakeWork =
  | { kind: 'thread'; data: AlertThreadJob | AlertOverflowJob; dedup: Dedup }
  | { kind: 'diagnosis'; cluster: string; data: AlertDiagnosisRequest; dedup: Dedup };

/** What one notification turned into; the route logs it, tests assert on it. */
export interface IntakeSummary {
  targets: number;
  firing: number;
  resolved: number;
  ignored: number;
  /** Workloads past the per-notification or per-minute cap: summarised, no thread, no diagnosis. */
  overflow: number;
  /** Workloads in namespaces the read policy does not open to alerts: dropped, logged. */
  notAllowed: number;
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
    const allowed = mapped.targets.filter(
      (t) =>
        deps.allows?.({
          cluster: t.cluster,
          namespace: t.namespace,
          channel: deps.channelFor(t.namespace),
        }) ?? true,
    );
    const notAllowed = mapped.targets.length - allowed.length;
    if (notAllowed > 0) {
      const namespaces = [
        ...new Set(mapped.targets.filter((t) => !allowed.includes(t)).map((t) => t.namespace)),
      ];
      deps.logger.info(
        { workloads: notAllowed, namespaces: namespaces.slice(0, 10) },
        'alerts in namespaces the read policy does not open to alerts: no thread, no diagnosis',
      );
    }
    const kept = allowed.slice(0, deps.maxWorkloads);
    const over = allowed.slice(deps.maxWorkloads);
    let perTarget = kept.map((target) =>
      workFor(target, mapped.groupHash, payload, mapped.truncatedAlerts, receivedAt, deps),
    );
    // In a storm nearly every notification repeats one whose adds were already made
    // in this window: one check instead of a BullMQ script per add.
    const flat = perTarget.flat();
    const openFlat = flat.length > 0 && deps.openWindows ? await deps.openWindows(flat) : [];
    let at = 0;
    let open = perTarget.map((items) => items.map(() => openFlat[at++] === true));
    let minuteDenied = 0;
    if (deps.minuteBudget) {
      // Only workloads that would post something count against the minute's budget.
      const fresh = kept.flatMap((_t, i) => (open[i]?.every(Boolean) ? [] : [i]));
      const granted = fresh.length > 0 ? await deps.minuteBudget(fresh.length) : 0;
      const denied = new Set(fresh.slice(granted));
      minuteDenied = denied.size;
      if (denied.size > 0) {
        over.push(...kept.filter((_t, i) => denied.has(i)));
        await deps.unlinkDiagnoses?.(
          perTarget
            .filter((_w, i) => denied.has(i))
            .flat()
            .filter((w): w is Extract<IntakeWork, { kind: 'diagnosis' }> => w.kind === 'diagnosis'),
        );
        const keep = (_v: unknown, i: number): boolean => !denied.has(i);
        perTarget = perTarget.filter(keep);
        open = open.filter(keep);
      }
    }
    const work: IntakeWork[] = [];
    const skip: boolean[] = [];
    const minute = Math.floor(now().getTime() / 60_000);
    for (const job of overflowJobs(over, mapped.groupHash, deps, receivedAt, minuteDenied > 0)) {
      // Per-notification cap: once per group and channel per window, so Alertmanager's
      // retries and re-sends add nothing. Per-minute cap: once per channel per minute,
      // however many notifications the flood is spread over.
      work.push({
        kind: 'thread',
        data: job,
        dedup:
          job.cause === 'minute'
            ? { id: overflowMinuteDedupId(job.channel, minute), ttlMs: 60_000 }
            : { id: overflowDedupId(mapped.groupHash, job.channel), ttlMs: deps.windowMs },
      });
      skip.push(false);
    }
    if (minuteDenied > 0) {
      deps.logger.info(
        { workloads: minuteDenied, limit: deps.maxWorkloadsPerMinute },
        'alert workloads past the per-minute cap: no thread, no diagnosis',
      );
    }
    perTarget.forEach((items, i) => {
      work.push(...items);
      skip.push(...(open[i] ?? items.map(() => false)));
    });
    await Promise.all(
      work.map((item, i) => {
        if (skip[i] === true) return undefined;
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
      notAllowed,
    };
  };
}

/** The thread update and, when firing, the diagnosis one workload of a notification gets. */
function workFor(
  target: AlertTarget,
  group: string,
  payload: AlertmanagerPayload,
  truncatedAlerts: number,
  receivedAt: string,
  deps: AlertIntakeDeps,
): IntakeWork[] {
  const thread = threadJob(target, group, payload, truncatedAlerts, receivedAt, deps);
  const items: IntakeWork[] = [
    {
      kind: 'thread',
      data: thread,
      dedup: {
        id: threadUpdateDedupId(group, target.workloadHash, target.status, target.startsAt),
        ttlMs: deps.windowMs,
      },
    },
  ];
  if (target.status === 'firing') {
    items.push({
      kind: 'diagnosis',
      cluster: target.cluster,
      data: {
        workload: thread.workload,
        reply: { kind: 'alert-thread', groupHash: group, workloadHash: target.workloadHash },
      },
      dedup: { id: diagnosisDedupId(target.workloadHash), ttlMs: deps.windowMs },
    });
  }
  return items;
}

/** One summary per channel of the workloads past the cap, with a few names to go on. */
function overflowJobs(
  over: readonly AlertTarget[],
  groupHash: string,
  deps: AlertIntakeDeps,
  receivedAt: string,
  perMinute: boolean,
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
    limit: perMinute ? (deps.maxWorkloadsPerMinute ?? deps.maxWorkloads) : deps.maxWorkloads,
    cause: perMinute ? ('minute' as const) : ('notification' as const),
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
      ...(target.workload.kind !== 'Pod' && target.workload.kind !== DEFAULT_WORKLOAD_KIND
        ? { kind: target.workload.kind }
        : {}),
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
