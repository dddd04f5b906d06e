import type { Redis } from 'ioredis';
import { createAlertIntake, type IntakeLogger } from './intake.js';
import type { AlertDiagnosisRequest } from './jobs.js';
import { createAlertNotifyHooks, type AlertNotifyHooks } from './notify-hooks.js';
import { createChannelRouter } from './routing.js';
import { createThreadStore } from './thread-store.js';
import {
  createAlertmanagerRoute,
  type AlertmanagerRoute,
  type RouteLogger,
} from '../app/routes/alertmanager.js';
import type { AppConfig } from '../config.js';
import type { PlanStore } from '../plans/store.js';
import type { DiagnoseJob } from '../queue/schemas.js';
import type { Producers } from '../queue/producers.js';

/** Who "requested" an alert-triggered diagnosis, in job data and audit lines. */
export const ALERT_REQUESTER = 'ALERTMANAGER';

/** The diagnose job for an alert: the Deployment when named, else resolved from pods by the worker. */
export function alertDiagnoseJob(cluster: string, request: AlertDiagnosisRequest): DiagnoseJob {
  const { workload } = request;
  const name = workload.deployment ?? workload.pods[0] ?? '';
  const resolve = workload.deployment === undefined || workload.guessed;
  return {
    mode: 'deployment',
    cluster,
    target: { kind: 'Deployment', namespace: workload.namespace, name },
    requestedBy: ALERT_REQUESTER,
    ...(resolve && workload.pods.length > 0 ? { resolveFromPods: workload.pods } : {}),
  };
}

/**
 * Alert wiring for the app process: the `POST /alerts/alertmanager` route (only when
 * ALERTMANAGER_TOKEN is set) and the notify hooks that keep incident threads. Logs
 * never include the token.
 */
export function createAppAlerts(deps: {
  config: AppConfig;
  producers: Producers;
  redis: Redis;
  plans: PlanStore;
  logger: IntakeLogger & RouteLogger;
}): { routes: AlertmanagerRoute[]; hooks: AlertNotifyHooks | undefined } {
  const { config } = deps;
  const token = config.alertmanagerToken;
  const channel = config.alertChannel;
  if (token === undefined || channel === undefined) return { routes: [], hooks: undefined };
  const store = createThreadStore(deps.redis);
  const channelFor = createChannelRouter(channel, config.alerts.routes);
  const intake = createAlertIntake({
    alertMap: config.alerts.alertMap,
    defaultCluster: config.defaultCluster,
    clusters: config.clusters,
    channelFor,
    windowMs: config.alerts.windowMs,
    logger: deps.logger,
    async enqueueThreadUpdate(data, dedup) {
      await deps.producers.enqueueNotify(data, { deduplication: { id: dedup.id, ttl: dedup.ttlMs } });
    },
    async enqueueDiagnosis(cluster, request, dedup) {
      const { jobId } = await deps.producers.enqueueDiagnose(alertDiagnoseJob(cluster, request), {
        deduplication: { id: dedup.id, ttl: dedup.ttlMs },
      });
      await store.linkJob(cluster, jobId, request.reply.workloadHash);
    },
  });
  const route = createAlertmanagerRoute({
    token,
    intake,
    logger: deps.logger,
    maxBodyBytes: config.alerts.maxBodyBytes,
  });
  const hooks = createAlertNotifyHooks({
    redis: deps.redis,
    plans: deps.plans,
    channelFor,
    logger: deps.logger,
    store,
  });
  return { routes: [route], hooks };
}
