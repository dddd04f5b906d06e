import { createPostedOnce } from '../chat/notify/posted-once.js';
import type { AppRoute } from './http-server.js';
import { redisKeys } from '../queue/redis-keys.js';
import { signDiagnoseByApp } from '../queue/diagnose-signature.js';
import { notifyKeys, signNotify, verifyNotify } from '../queue/notify-signature.js';
import { createAppAlerts } from './alerts/app-intake.js';
import type { Worker } from 'bullmq';
import { journaledAudit } from '../queue/incident-journal.js';
import type { AppConfig } from '../config/environment.js';
import type { Logger } from '../logger.js';
import { startClockWatch } from '../queue/clock-watch.js';
import { createMetrics, type Metrics } from '../metrics.js';
import {
  accessWarnings,
  createApprovalPolicy,
  loadPolicyFile,
  type MembershipCheck,
} from '../policy/approval-policy.js';
import { createReadPolicy } from '../policy/read-policy.js';
import { createPlanStore } from '../queue/plan-store.js';
import {
  closeConnection,
  createProducerConnection,
  createWorkerConnection,
  firstConnection,
} from '../queue/connection.js';
import { probeWrites, RedisReadOnlyError } from '../queue/role.js';
import type { Redis } from 'ioredis';
import type { RecordSigner, RecordVerifier } from '../queue/record-mark.js';
import { closeWorkerWithGrace } from '../queue/close.js';
import { describeTarget } from '../queue/redis-url.js';
import { journalMacKey, startReplicationGuard } from '../queue/guard-journal.js';
import { appReplayers } from '../chat/use-cases/replays.js';
import { createProducers } from '../queue/producers.js';
import { startSlackApp } from './slack-app.js';
import { startPlainHttp, type AppHttpHandle } from './plain-http.js';
import { startNotifyConsumer } from './notify/consumer.js';
import { startAnnounceMover } from './notify/announce-mover.js';
import { startLaneHealth } from './notify/lane-health.js';
import { createNotifyClient, slackOffClient } from '../chat/slack/notify-client.js';
import { createSlackChatAdapter } from '../chat/slack/chat-adapter.js';
import { createRootStates } from '../chat/notify/root-store.js';
import { createPostmortemButtons } from '../chat/notify/postmortem-buttons.js';
import { createProposalApprovals } from '../chat/approvals/proposal-approvals.js';
import { createCommandBudget } from '../chat/use-cases/command-budget.js';
import { createSubscriptions } from '../chat/notify/subscriptions.js';
import type { AppServices } from './services.js';
import { teamsRoute } from './teams-route.js';
import { redisCardStore } from '../chat/teams/card-store.js';
import { redisTeamsDirectory } from '../chat/teams/directory.js';
import { redisRefreshList } from '../chat/teams/refresh-list.js';

export interface AppRuntime {
  services: AppServices;
  handle: AppHttpHandle;
  /** One notify consumer per lane (src/queue/names.ts). */
  notify: Worker[];
  /** Stops taking requests and jobs, lets running ones finish, closes connections. */
  stop(): Promise<void>;
  /**
   * Cuts the Redis connections at once (no QUIT): what the shutdown bound does to a
   * stop() that Redis holds up (src/config/process-entry.ts). A notify job still running
   * is retried by the stalled-job check once its lock lapses.
   */
  abandon(): Record<string, unknown>;
}

/**
 * The Alertmanager route and the Teams route, when configured; the alert hooks and the
 * Teams adapter join the services as they are built.
 */
function alertAndTeamsRoutes(deps: {
  config: AppConfig;
  services: AppServices;
  producers: AppServices['producers'];
  redis: Redis;
  records: { signer: RecordSigner; verifier: RecordVerifier };
  logger: Logger;
}): AppRoute[] {
  const { config, services, producers, redis, records, logger } = deps;
  const alerts = createAppAlerts({
    config,
    producers,
    redis,
    plans: services.plans,
    allows: (scope) => services.readPolicy.allowsAlert(scope),
    logger,
    records,
    markAnswered: (root) => services.subscriptions.markAnswered(root),
    ...(services.replication ? { replication: services.replication } : {}),
    // Read at each call: the Teams adapter joins services.chats when its route is built below.
    chats: () => services.chats ?? {},
  });
  services.alerts = alerts.hooks;
  if (alerts.hooks === undefined) warnNoAlertHome(logger);
  const teams =
    config.teams &&
    teamsRoute(
      services,
      config.teams,
      redisCardStore(redis, records),
      redisTeamsDirectory(redis, records),
      redisRefreshList(redis, records),
    );
  return [...alerts.routes, ...(teams ? [teams.route] : [])];
}

/** How long a start waits for the producer connection's first connect (its connectTimeout). */
const FIRST_CONNECTION_MS = 2_000;

/**
 * Wires the app process: fail-fast producer connection, plan store, policy,
 * subscriptions, the Bolt app and the notify consumer.
 */
/** Root messages' states and stages, signed by the app; a forged one is reported as tampered. */
function rootStatesOf(
  redis: Redis,
  config: AppConfig,
  tampered: ReturnType<typeof tamperReporter>,
): ReturnType<typeof createRootStates> {
  return createRootStates(
    redis,
    config.approvalSigningKey,
    (planId) => tampered('root state', redisKeys.rootState(planId)),
    (message) => tampered('root stage', redisKeys.rootStage(message)),
    (planId) => tampered('plan stage', redisKeys.planStage(planId)),
  );
}

/** The keys whose notifications the app accepts, each bound to the clusters it may speak for. */
function appNotifyKeys(config: AppConfig, logger: Logger): ReturnType<typeof notifyKeys> {
  warnUnboundNotifyKeys(config, logger);
  return notifyKeys(
    config.notifyPublicKeys,
    config.approvalSigningKey,
    config.notifyKeyClusters,
    config.admissionPublicKeys,
    // An admission key not bound in ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS speaks for this cluster only.
    config.defaultCluster,
  );
}

export async function startAppRuntime(
  config: AppConfig,
  logger: Logger,
  options: { extraRoutes?: AppRoute[]; host?: string; port?: number } = {},
): Promise<AppRuntime> {
  const redis = createProducerConnection(config.redis.target);
  redis.on('error', (error) => logger.warn({ err: error }, 'redis (producer) error'));
  // Signed until a time in Redis's clock, the one every process agrees on: the watch below is read at each enqueue.
  const producers = appProducers(config, redis, logger, () => clockWatch.now());
  const verifyKeys = appNotifyKeys(config, logger);
  const metrics = createMetrics({
    defaults: true,
    collectQueueDepth: async (set) => {
      for (const row of await producers.depths()) set(row.queue, row.state, row.count);
    },
  });
  // The app's clock against Redis's: logged, on /metrics and /readyz when off.
  const clockWatch = startClockWatch(redis, {
    who: 'the app',
    logger,
    onReading: (reading) => metrics.clockOffset.set(reading.offsetMs / 1000),
  });
  const notifyClient = slackClientOf(config);
  const { approval, readPolicy } = accessPolicies(config, logger, notifyClient);
  const tampered = tamperReporter(logger, metrics);
  // The app's mark on the records it keeps in Redis, and its check of them (record-mark.ts).
  const records = {
    signer: { by: 'app' as const, key: config.approvalSigningKey },
    verifier: { keys: verifyKeys, onForged: tampered },
  };
  let slackReady = false;
  const writeProbe = redisWriteProbe(redis);
  const services: AppServices = {
    config,
    logger,
    metrics,
    audit: journaledAudit(logger, redis, config.incidentRetentionMs),
    producers,
    subscriptions: createSubscriptions(
      redis,
      (stored) => verifyNotify(stored, verifyKeys),
      config.approvalSigningKey,
      // Its own clock, not Redis's: the run record's times are the app's and BullMQ's stamps.
      { onIgnored: (key, reason) => tampered('run record', key, reason) },
    ),
    plans: createPlanStore(redis),
    commandBudget: createCommandBudget(redis, config.commandBudget),
    rootStates: rootStatesOf(redis, config, tampered),
    postedOnce: postedOnceOf(redis, logger, () => services.replication),
    // What each Draft post-mortem button drafts, kept as long as the incident's record.
    postmortems: createPostmortemButtons(redis, { records, retentionMs: config.incidentRetentionMs }),
    ...(config.proposeInGit ? { proposals: createProposalApprovals(redis) } : {}),
    policy: approval,
    readPolicy,
    // Run delivery, outcomes, deadlines and alert threads speak through these (Teams joins below).
    chats: config.slack ? { slack: createSlackChatAdapter(notifyClient) } : {},
    pingRedis: writeProbe.ping,
    // With REDIS_WAIT_JOURNAL_DIR, what an earlier app left unconfirmed is watched again.
    replication: startReplicationGuard(redis, config.redis.wait, {
      logger,
      replayers: appReplayers(() => services),
      // A journal record is replayed with the app's rights: only the app's MAC is replayed.
      journalKey: journalMacKey(config.approvalSigningKey.privateKey),
    }),
    // 'read-only replica': connected, but to a server that refuses writes (a failover).
    redisStatus: () =>
      writeProbe.readOnly() && redis.status === 'ready' ? 'read-only replica' : redis.status,
    slackReady: () => slackReady,
    slackOff: config.slack === undefined,
    clock: () => clockWatch.problem(),
    now: () => clockWatch.now(),
  };
  const extraRoutes = [
    ...(options.extraRoutes ?? []),
    ...alertAndTeamsRoutes({ config, services, producers, redis, records, logger }),
  ];
  // The first command after a start is answered with Redis as it is: a connection still
  // being made (a loaded machine, Sentinel's lookup) would fail the answer's Redis calls
  // at once (no offline queue) and say "Redis is unreachable". Redis refusing does not hold
  // the start: the answers say so.
  await firstConnection(redis, FIRST_CONNECTION_MS);
  // Slack, Teams (docs/teams.md) or both (src/config/slack.ts); without Slack, no Bolt.
  const handle = config.slack
    ? await startSlackApp(services, config.slack, {
        ...options,
        extraRoutes,
        onSlackReady: () => (slackReady = true),
      })
    : await startPlainHttp(services, { ...options, extraRoutes });
  const workerConnection = createWorkerConnection(config.redis.target);
  workerConnection.on('error', (error) => logger.warn({ err: error }, 'redis (notify consumer) error'));
  const notify = startNotifyConsumer(services, {
    connection: workerConnection,
    concurrency: config.notifyConcurrency,
    keys: verifyKeys,
  });
  const lanes = watchLanes(config, services, verifyKeys, redis);
  logStarted(config, handle, logger);
  return {
    services,
    handle,
    notify,
    stop: async () => {
      clockWatch.stop();
      services.replication?.stop();
      await lanes.stop();
      return stopRuntime({ handle, notify, producers, workerConnection, redis, logger });
    },
    abandon: () => {
      void lanes.stop();
      return abandonRuntime(notify, [workerConnection, redis]);
    },
  };
}

/** A remediation's reply once per notification, however often BullMQ delivers it. */
function postedOnceOf(
  redis: Redis,
  logger: Logger,
  replication: () => AppServices['replication'],
): ReturnType<typeof createPostedOnce> {
  return createPostedOnce(redis, {
    onUnmarked: (id, error) =>
      logger.warn(
        { err: error, notification: id },
        'outcome posted, its mark not kept: a redelivery may post it again',
      ),
    // Its marks WAITed for and set again after a failover that lost them.
    replication,
  });
}

/** Whether Redis takes writes, probed on each ping: 'read-only replica' where a failover left one. */
function redisWriteProbe(redis: Redis): { ping: () => Promise<void>; readOnly: () => boolean } {
  let readOnly = false;
  return {
    ping: async () => {
      try {
        await probeWrites(redis);
        readOnly = false;
      } catch (error) {
        readOnly = error instanceof RedisReadOnlyError;
        throw error;
      }
    },
    readOnly: () => readOnly,
  };
}

/**
 * The alert lane's feed from the admission webhook (with ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS)
 * and the notify lanes' health (lane-health.ts).
 */
function watchLanes(
  config: AppConfig,
  services: AppServices,
  keys: ReturnType<typeof notifyKeys>,
  redis: Redis,
): { stop: () => Promise<void> } {
  const { logger, metrics } = services;
  const health = startLaneHealth({
    connection: redis,
    gauge: metrics.notifyLaneProblem,
    logger,
  });
  const mover =
    config.admissionPublicKeys.size > 0
      ? startAnnounceMover({
          connection: moverConnection(config, logger),
          producers: services.producers,
          keys,
          clusters: config.clusters,
          logger,
          counter: metrics.announcementsMoved,
          audit: services.audit,
        })
      : undefined;
  return {
    stop: async () => {
      health.stop();
      await mover?.stop();
    },
  };
}

function moverConnection(config: AppConfig, logger: Logger): Redis {
  const connection = createWorkerConnection(config.redis.target);
  connection.on('error', (error) => logger.warn({ err: error }, 'redis (announcement mover) error'));
  return connection;
}

/** The queues the app feeds: its own notifications and every diagnosis it queues, signed with its key. */
function appProducers(
  config: AppConfig,
  redis: Redis,
  logger: Logger,
  now: () => number,
): ReturnType<typeof createProducers> {
  return createProducers({
    connection: redis,
    clusters: config.clusters,
    onError: (error, queue) => logger.warn({ err: error, queue }, 'queue error'),
    // The app's own notifications (alert threads and summaries), signed with its own key.
    signNotify: (job) => signNotify(job, 'app', config.approvalSigningKey),
    // Every diagnosis it queues states who asked, under its approval key: workers run no other.
    signDiagnose: (job, jobId) => signDiagnoseByApp(job, jobId, config.approvalSigningKey, now()),
  });
}

function logStarted(config: AppConfig, handle: AppHttpHandle, logger: Logger): void {
  logger.info(
    {
      chat: [...(config.slack ? [`slack (${config.mode})`] : []), ...(config.teams ? ['teams'] : [])],
      url: handle.url,
      clusters: config.clusters,
      redis: describeTarget(config.redis.target),
    },
    'rollout-doctor app started',
  );
}

/** Slack's Web API client for notifications; Teams only: one that answers locally, permanently refused. */
function slackClientOf(config: AppConfig): ReturnType<typeof createNotifyClient> {
  return config.slack ? createNotifyClient(config.slack.botToken, config.slack.apiUrl) : slackOffClient();
}

/**
 * Not refused: an app may serve only commands. But a worker watching namespaces would
 * diagnose for nobody, so say it once where operators look.
 */
function warnNoAlertHome(logger: Logger): void {
  logger.warn(
    {},
    'ROLLOUT_DOCTOR_ALERT_CHANNEL is not set: early-warning results of workers with ROLLOUT_DOCTOR_WATCH_NAMESPACES are not posted (nor is TEAMS_ALERT_CONVERSATION, for Teams)',
  );
}

/** One worker key for several clusters: whoever holds it can post results as any of them. */
function warnUnboundNotifyKeys(config: AppConfig, logger: Logger): void {
  const unbound = [...config.notifyPublicKeys.keys()].filter((id) => !config.notifyKeyClusters.has(id));
  if (config.clusters.length > 1 && unbound.length > 0)
    logger.warn(
      { keys: unbound, clusters: config.clusters },
      'worker notify keys not bound to a cluster (ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS): each can post results and outcomes for every cluster; give each cluster its own key',
    );
}

/** Who may approve and who may read, from the environment and the policy file (warned about when nobody may). */
function accessPolicies(
  config: AppConfig,
  logger: Logger,
  slackClient: ReturnType<typeof createNotifyClient>,
): {
  approval: AppServices['policy'] & { isListed: MembershipCheck };
  readPolicy: AppServices['readPolicy'];
} {
  const policyFile = config.policyFile
    ? loadPolicyFile(config.policyFile)
    : { rules: [], names: {}, people: [] };
  for (const warning of accessWarnings({
    approvers: config.approvers,
    readers: config.readers,
    policy: policyFile,
  }))
    logger.warn({}, warning);
  const approval = createApprovalPolicy({
    approvers: config.approvers,
    rules: policyFile.rules,
    names: policyFile.names,
    people: policyFile.people,
    cacheMs: config.usergroupCacheSeconds * 1000,
    listGroupMembers: async (usergroup) =>
      (await slackClient.usergroups.users.list({ usergroup })).users ?? [],
  });
  const readPolicy = createReadPolicy({
    readers: config.readers.filter((r) => r !== '*'),
    everyone: config.readers.includes('*'),
    rules: policyFile.readers ?? [],
    approval,
    isListed: approval.isListed,
  });
  return { approval, readPolicy };
}

/** A Redis value that steers the bot without a valid mark: a warning and a metric, every time. */
function tamperReporter(
  logger: Logger,
  metrics: Metrics,
): (record: string, key: string, reason?: string) => void {
  return (record, key, reason) => {
    logger.warn(
      { record, key, ...(reason ? { reason } : {}) },
      'a Redis value that steers the bot has no valid mark: ignored (someone wrote into Redis)',
    );
    metrics.tamperedRecords.inc({ record });
  };
}

/** Cuts the notify lanes' and the app's Redis connections at once (the shutdown bound). */
function abandonRuntime(notify: Worker[], connections: Redis[]): Record<string, unknown> {
  for (const lane of notify) lane.disconnect().catch(() => undefined);
  for (const connection of connections) connection.disconnect();
  return {};
}

/** Stops taking requests and jobs, lets running ones finish (bounded), closes connections. */
async function stopRuntime(parts: {
  handle: AppHttpHandle;
  notify: Worker[];
  producers: ReturnType<typeof createProducers>;
  workerConnection: ReturnType<typeof createWorkerConnection>;
  redis: ReturnType<typeof createProducerConnection>;
  logger: Logger;
}): Promise<void> {
  const { handle, notify, producers, workerConnection, redis, logger } = parts;
  const step = async (name: string, work: () => Promise<unknown>): Promise<void> => {
    const started = Date.now();
    await work();
    logger.debug({ step: name, ms: Date.now() - started }, 'stopped');
  };
  await step('http', () => handle.stop());
  // Bounded: after a Redis restart BullMQ's close can wait on a dead blocking
  // call; the connections are disconnected below in any case.
  await step('notify', () =>
    Promise.race([
      Promise.all(notify.map((lane) => closeWorkerWithGrace(lane, 5_000))),
      new Promise((r) => setTimeout(r, 6_000).unref()),
    ]),
  );
  await step('producers', () => producers.close());
  workerConnection.disconnect();
  await closeConnection(redis);
}
