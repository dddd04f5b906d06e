/**
 * Reads the app's environment (`npm start`): the schema of its variables, the problems
 * across variables (alert settings that need each other, the metrics port, Redis,
 * Teams, keys in the wrong place, notify keys bound to clusters), and the frozen
 * AppConfig (environment.ts).
 */
import { z } from 'zod';
import { DEFAULT_LANG, LANGS } from '../i18n/lang.js';
import { parsePublicKeys, parseSigningKey } from '../trust/approval-signature.js';
import { ownKeyAmong } from '../trust/keygen.js';
import { mergeAlertMaps, parseAlertMap } from './alert-map.js';
import { parseNamespaceRoutes } from './alert-routes.js';
import {
  DAY_MS,
  approverList,
  clusterList,
  clusterName,
  commaList,
  emptyToUndefined,
  incidentRetentionDays,
  keySetting,
  logLevel,
  optionalKeySetting,
  optionalString,
  parsedList,
  port,
  positiveInt,
  problemsOf,
  readerList,
  shutdownSeconds,
  type Env,
} from './env-fields.js';
import { ConfigError, type AppConfig } from './environment.js';
import { foreignSecretProblems } from './foreign-secrets.js';
import { redisEnvShape, redisProblems, redisSettings } from './redis.js';
import { chatPlatformProblems, slackEnvShape, slackSettings } from './slack.js';
import { teamsEnvShape, teamsProblems, teamsSettings } from './teams.js';

/** The app's shutdown bound when ROLLOUT_DOCTOR_SHUTDOWN_SECONDS is unset. */
const APP_SHUTDOWN_SECONDS = 10;

const appSchema = z.object({
  ...slackEnvShape,
  PORT: port,
  HOST: optionalString,
  ...redisEnvShape,
  ROLLOUT_DOCTOR_CLUSTER: clusterName,
  ROLLOUT_DOCTOR_CLUSTERS: clusterList,
  ROLLOUT_DOCTOR_APPROVERS: approverList,
  ROLLOUT_DOCTOR_READERS: readerList,
  ROLLOUT_DOCTOR_POLICY_FILE: optionalString,
  ROLLOUT_DOCTOR_PLAN_TTL_SECONDS: positiveInt(900),
  ROLLOUT_DOCTOR_USERGROUP_CACHE_SECONDS: positiveInt(300),
  ROLLOUT_DOCTOR_NOTIFY_CONCURRENCY: positiveInt(1),
  ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: shutdownSeconds,
  ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE: positiveInt(10),
  ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE: positiveInt(30),
  ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS: positiveInt(600),
  ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS: incidentRetentionDays,
  ROLLOUT_DOCTOR_PROPOSE_IN_GIT: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('false')),
  ALERTMANAGER_TOKEN: optionalString,
  ROLLOUT_DOCTOR_ALERT_CHANNEL: optionalString,
  ROLLOUT_DOCTOR_LANG: z.preprocess(emptyToUndefined, z.enum(LANGS).default(DEFAULT_LANG)),
  ROLLOUT_DOCTOR_ALERT_MAP: parsedList(parseAlertMap),
  ROLLOUT_DOCTOR_ALERT_ROUTES: parsedList(parseNamespaceRoutes),
  ROLLOUT_DOCTOR_ALERT_LINK_HOSTS: commaList(
    '',
    (host) => /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:[0-9]{1,5})?$/.test(host),
    'must be comma-separated host names, each with an optional :port (alertmanager.example.com:9093)',
  ),
  ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS: positiveInt(600),
  ROLLOUT_DOCTOR_ALERT_MAX_BYTES: positiveInt(1024 * 1024),
  ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS: positiveInt(20),
  ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: positiveInt(60),
  ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE: positiveInt(5),
  ROLLOUT_DOCTOR_HTTP_HEADERS_TIMEOUT_MS: positiveInt(10_000),
  ROLLOUT_DOCTOR_HTTP_REQUEST_TIMEOUT_MS: positiveInt(15_000),
  ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: keySetting(parseSigningKey),
  ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: keySetting(parsePublicKeys),
  ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS: optionalKeySetting(parsePublicKeys),
  ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS: commaList(
    '',
    (entry) =>
      /^[A-Za-z0-9._-]{1,64}=[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\|[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/.test(
        entry,
      ),
    'must be comma-separated KEYID=CLUSTER entries (several clusters joined by |), e.g. n-prod=prod,n-stage=stage|dev',
  ),
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: optionalString,
  ...teamsEnvShape,
  LOG_LEVEL: logLevel,
});

/**
 * Validates the app's environment.
 * @throws ConfigError naming every missing or malformed variable.
 * @example loadAppConfig(process.env).port // 3000
 */
export function loadAppConfig(env: Env): AppConfig {
  const parsed = appSchema.safeParse(env);
  const problems = appProblems(env, parsed);
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const clusters = e.ROLLOUT_DOCTOR_CLUSTERS.includes(e.ROLLOUT_DOCTOR_CLUSTER)
    ? e.ROLLOUT_DOCTOR_CLUSTERS
    : [e.ROLLOUT_DOCTOR_CLUSTER, ...e.ROLLOUT_DOCTOR_CLUSTERS];
  return Object.freeze({
    mode: e.SLACK_APP_TOKEN === undefined ? 'http' : 'socket',
    slack: slackSettings(e),
    port: e.PORT,
    host: e.HOST,
    redisUrl: e.REDIS_URL,
    redis: redisSettings(e),
    defaultCluster: e.ROLLOUT_DOCTOR_CLUSTER,
    clusters: Object.freeze([...clusters]),
    approvers: Object.freeze([...e.ROLLOUT_DOCTOR_APPROVERS]),
    readers: Object.freeze([...e.ROLLOUT_DOCTOR_READERS]),
    policyFile: e.ROLLOUT_DOCTOR_POLICY_FILE,
    planTtlSeconds: e.ROLLOUT_DOCTOR_PLAN_TTL_SECONDS,
    incidentRetentionMs: e.ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS * DAY_MS,
    proposeInGit: e.ROLLOUT_DOCTOR_PROPOSE_IN_GIT === 'true',
    usergroupCacheSeconds: e.ROLLOUT_DOCTOR_USERGROUP_CACHE_SECONDS,
    notifyConcurrency: e.ROLLOUT_DOCTOR_NOTIFY_CONCURRENCY,
    commandBudget: Object.freeze({
      perUser: e.ROLLOUT_DOCTOR_COMMANDS_PER_USER_PER_MINUTE,
      perChannel: e.ROLLOUT_DOCTOR_COMMANDS_PER_CHANNEL_PER_MINUTE,
    }),
    runDeadlineMs: e.ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS * 1000,
    approvalSigningKey: e.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY,
    notifyPublicKeys: e.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
    notifyKeyClusters: keyClusters(e.ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS),
    admissionPublicKeys: e.ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS,
    alertmanagerToken: e.ALERTMANAGER_TOKEN,
    alertChannel: e.ROLLOUT_DOCTOR_ALERT_CHANNEL,
    lang: e.ROLLOUT_DOCTOR_LANG,
    alerts: Object.freeze({
      linkHosts: Object.freeze([...e.ROLLOUT_DOCTOR_ALERT_LINK_HOSTS]),
      alertMap: mergeAlertMaps(e.ROLLOUT_DOCTOR_ALERT_MAP),
      routes: e.ROLLOUT_DOCTOR_ALERT_ROUTES,
      windowMs: e.ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS * 1000,
      maxBodyBytes: e.ROLLOUT_DOCTOR_ALERT_MAX_BYTES,
      maxWorkloadsPerNotification: e.ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS,
      maxWorkloadsPerMinute: e.ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE,
      admissionMaxThreadsPerMinute: e.ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE,
    }),
    http: Object.freeze({
      headersTimeoutMs: e.ROLLOUT_DOCTOR_HTTP_HEADERS_TIMEOUT_MS,
      // Node requires requestTimeout >= headersTimeout (0 aside).
      requestTimeoutMs: Math.max(
        e.ROLLOUT_DOCTOR_HTTP_REQUEST_TIMEOUT_MS,
        e.ROLLOUT_DOCTOR_HTTP_HEADERS_TIMEOUT_MS,
      ),
      keepAliveTimeoutMs: 5_000,
    }),
    metrics: Object.freeze({ port: e.METRICS_PORT, host: e.METRICS_HOST }),
    shutdownMs: (e.ROLLOUT_DOCTOR_SHUTDOWN_SECONDS ?? APP_SHUTDOWN_SECONDS) * 1000,
    teams: teamsSettings(e),
    logLevel: e.LOG_LEVEL,
  } satisfies AppConfig);
}

/** Every problem of the app's environment: the schema's, and those across variables. */
function appProblems(env: Env, parsed: ReturnType<typeof appSchema.safeParse>): string[] {
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error)),
    ...foreignSecretProblems(env, 'app'),
  ];
  // Checked apart from the schema so it is reported together with any other problem.
  const present = (name: string): boolean => (env[name] ?? '').trim() !== '';
  problems.push(...chatPlatformProblems(env));
  // Alert threads go to ROLLOUT_DOCTOR_ALERT_CHANNEL, else (Teams) TEAMS_ALERT_CONVERSATION.
  const alertHome = present('ROLLOUT_DOCTOR_ALERT_CHANNEL') || present('TEAMS_ALERT_CONVERSATION');
  if (present('ALERTMANAGER_TOKEN') && !alertHome) {
    problems.push(
      'ROLLOUT_DOCTOR_ALERT_CHANNEL (or TEAMS_ALERT_CONVERSATION for Teams) is required when ALERTMANAGER_TOKEN is set (the channel for alert threads)',
    );
  }
  if (present('ROLLOUT_DOCTOR_ALERT_ROUTES') && !alertHome) {
    problems.push(
      'ROLLOUT_DOCTOR_ALERT_ROUTES needs ROLLOUT_DOCTOR_ALERT_CHANNEL or TEAMS_ALERT_CONVERSATION (the channel of namespaces no route names); without it no alert or early-warning thread is opened',
    );
  }
  if (present('ROLLOUT_DOCTOR_ALERT_MAP') && !present('ALERTMANAGER_TOKEN')) {
    problems.push(
      'ROLLOUT_DOCTOR_ALERT_MAP maps Alertmanager alerts and needs ALERTMANAGER_TOKEN: without it no alert is received',
    );
  }
  if (parsed.success && parsed.data.METRICS_PORT !== undefined && parsed.data.METRICS_PORT !== 0) {
    if (parsed.data.METRICS_PORT === parsed.data.PORT) {
      problems.push(
        `METRICS_PORT and PORT are both ${parsed.data.PORT}: /metrics is served on a port of its own, never the public one`,
      );
    }
  }
  if (parsed.success) {
    problems.push(...redisProblems(parsed.data), ...teamsProblems(parsed.data));
    const own = ownKeyAmong(
      parsed.data.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
      parsed.data.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY,
    );
    if (own !== undefined)
      problems.push(
        `ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS holds the public half of ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY (as "${own}"): it takes the workers' notify public keys (\`rollout-doctor keygen\`, docs/operations.md)`,
      );
    problems.push(
      ...keyClusterProblems(
        parsed.data.ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS,
        new Map([
          ...parsed.data.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
          ...parsed.data.ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS,
        ]),
        parsed.data.ROLLOUT_DOCTOR_CLUSTERS,
      ),
    );
  }
  return problems;
}

/** "n-prod=prod,n-stage=stage|dev" as key id -> clusters. */
function keyClusters(entries: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, string[]>();
  for (const entry of entries) {
    const [id = '', clusters = ''] = entry.split('=');
    map.set(id, [...(map.get(id) ?? []), ...clusters.split('|')]);
  }
  return map;
}

/** Entries naming a key id the public keys lack, or a cluster the app does not serve. */
function keyClusterProblems(
  entries: readonly string[],
  keys: ReadonlyMap<string, unknown>,
  clusters: readonly string[],
): string[] {
  const problems: string[] = [];
  for (const [id, named] of keyClusters(entries)) {
    if (!keys.has(id))
      problems.push(
        `ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS names key "${id}", which neither ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS nor ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS holds`,
      );
    for (const cluster of named.filter((c) => !clusters.includes(c)))
      problems.push(
        `ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS binds key "${id}" to cluster "${cluster}", which ROLLOUT_DOCTOR_CLUSTERS lacks`,
      );
  }
  return problems;
}
