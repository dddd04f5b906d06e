import { DEFAULT_EXCLUSION_TTL, ttlProblem } from '../remediation/exclusion-ttl.js';
import { DEFAULT_LANG, LANGS, type Lang } from '../i18n/lang.js';
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import { parsePublicKeys, parseSigningKey, type SigningKey } from '../trust/approval-signature.js';
import { ownKeyAmong } from '../trust/keygen.js';
import { parseSealKeys, type SealKeys } from '../trust/plan-seal.js';
import { mergeAlertMaps, parseAlertMap, type AlertMap } from './alert-map.js';
import { parseNamespaceRoutes, type NamespaceRoutes } from './alert-routes.js';
import { redisEnvShape, redisProblems, redisSettings, type RedisSettings } from './redis.js';
import { canonicalId, isPrincipal } from '../policy/policy-ids.js';
import { chatPlatformProblems, slackEnvShape, slackSettings, type SlackConfig } from './slack.js';
import { teamsEnvShape, teamsProblems, teamsSettings, type TeamsConfig } from './teams.js';

/**
 * The only reader of the environment. Each process loads the part it needs:
 * the app holds Slack credentials and no cluster settings, a worker holds cluster
 * settings and no Slack token (DESIGN.md §2). Results are frozen.
 */

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** A missing or malformed variable; the message names every bad one. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

const emptyToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

const clusterName = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('default')
    .refine((v) => DNS1123_LABEL.test(v) && v.length <= 63, 'must be a DNS-1123 label (a-z, 0-9, -)'),
);

/** A comma-separated list (blanks dropped) whose every item passes `valid`. */
const commaList = (fallback: string, valid: (item: string) => boolean, message: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(fallback)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      )
      .refine((list) => list.every(valid), message),
  );

const isDnsLabel = (v: string): boolean => DNS1123_LABEL.test(v) && v.length <= 63;

const clusterList = commaList(
  'default',
  isDnsLabel,
  'every cluster must be a DNS-1123 label (a-z, 0-9, -)',
).refine((list) => list.length > 0, 'must name at least one cluster');

/** Entra object ids compare in lower case (src/policy/policy-ids.ts). */
const lowerGuids = (list: string[]): string[] => list.map(canonicalId);

const readerList = commaList(
  '',
  (id) => id === '*' || isPrincipal(id),
  'must be `*` or comma-separated Slack user ids (U…/W…), user group ids (S…) and Entra user object ids (GUIDs, Teams)',
).transform(lowerGuids);

const approverList = commaList(
  '',
  isPrincipal,
  'must be comma-separated Slack user ids (U…/W…), user group ids (S…) or Entra user object ids (GUIDs, Teams)',
).transform(lowerGuids);

const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));

/**
 * ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS: how long an incident's record is kept in Redis
 * after its last event (src/queue/incident-journal.ts), for `postmortem --incident`.
 */
const incidentRetentionDays = z.preprocess(
  emptyToUndefined,
  z.coerce.number().int().min(1, 'must be at least 1 day').max(3650, 'must be at most 3650 days').default(30),
);
const DAY_MS = 86_400_000;

const port = z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000));

/**
 * ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: from SIGTERM to exit at most, whatever Redis does
 * (issue 67.10). Unset: the process's default (the app 10 s, the worker its drain grace + 3 s).
 */
const shutdownSeconds = z.preprocess(
  emptyToUndefined,
  z.coerce.number().int().positive().max(3600).optional(),
);

/** The app's shutdown bound when ROLLOUT_DOCTOR_SHUTDOWN_SECONDS is unset. */
export const APP_SHUTDOWN_SECONDS = 10;
/** What the worker's bound adds to its drain grace when ROLLOUT_DOCTOR_SHUTDOWN_SECONDS is unset: hand-back and close. */
export const WORKER_SHUTDOWN_MARGIN_SECONDS = 3;

const logLevel = z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info'));

/** A comma-separated setting parsed by `parse`, which throws an Error naming the bad entry. */
const parsedList = <T>(parse: (text: string) => T) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((v, ctx) => {
        try {
          return parse(v);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
  );

const KEYGEN_HINT = 'generate keys with `rollout-doctor keygen` (docs/operations.md)';

/** Parses a key, or adds the issue that says why (never the value) and returns z.NEVER. */
function parsedKey<T>(parse: (text: string) => T, text: string, ctx: z.RefinementCtx): T {
  try {
    return parse(text);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a valid key (${error instanceof Error ? error.message : 'unreadable'}): ${KEYGEN_HINT}`,
    });
    return z.NEVER;
  }
}

/** A required key setting parsed by `parse`; the message never repeats the value. */
const keySetting = <T>(parse: (text: string) => T) =>
  z.preprocess(
    emptyToUndefined,
    z.string({ error: `is required: ${KEYGEN_HINT}` }).transform((v, ctx) => parsedKey(parse, v, ctx)),
  );

/** An optional key setting parsed by `parse` (empty: an empty map); the message never repeats the value. */
const optionalKeySetting = <T>(parse: (text: string) => ReadonlyMap<string, T>) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx): ReadonlyMap<string, T> =>
        v === undefined ? new Map() : parsedKey(parse, v, ctx),
      ),
  );

/**
 * Each side's secret that the other side must never hold: a process refuses to start
 * with the other's key in its environment, so a copied .env cannot join the halves.
 */
export const FOREIGN_SECRETS = Object.freeze({
  app: Object.freeze([
    'ROLLOUT_DOCTOR_PLAN_SEAL_KEY',
    'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY',
    'ROLLOUT_DOCTOR_ADMISSION_SIGNING_KEY',
  ]),
  worker: Object.freeze(['ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY']),
});

function foreignSecretProblems(env: Env, side: keyof typeof FOREIGN_SECRETS): string[] {
  const holder = side === 'app' ? 'only workers hold it' : 'only the app holds it';
  return FOREIGN_SECRETS[side]
    .filter((name) => (env[name] ?? '').trim() !== '')
    .map((name) => `${name} must not be set for the ${side}: ${holder}`);
}

/** Watched namespaces: DNS-1123 labels, or `*` alone for every namespace. */
const watchNamespaceList = commaList(
  '',
  (v) => v === '*' || isDnsLabel(v),
  'must be `*` (every namespace) or comma-separated DNS-1123 labels (a-z, 0-9, -)',
).refine(
  (list) => !list.includes('*') || list.length === 1,
  '`*` watches every namespace and cannot be combined with namespace names',
);

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
 * ROLLOUT_DOCTOR_EXCLUSION_TTL: how long a node exclusion lasts unless its approver
 * picks otherwise (`4h`, `24h`, `7d`, or `until-removed`; src/remediation/exclusion-ttl.ts).
 */
const exclusionTtl = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default(DEFAULT_EXCLUSION_TTL)
    .superRefine((value, ctx) => {
      const problem = ttlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
);

const workerSchema = z.object({
  ...redisEnvShape,
  ROLLOUT_DOCTOR_CLUSTER: clusterName,
  ROLLOUT_DOCTOR_PLAN_TTL_SECONDS: positiveInt(900),
  ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS: incidentRetentionDays,
  KUBECONFIG: optionalString,
  KUBE_CONTEXT: optionalString,
  /** Set by Kubernetes in every pod: use the in-cluster service account when no kubeconfig is given. */
  KUBERNETES_SERVICE_HOST: optionalString,
  ROLLOUT_DOCTOR_KUBE_TIMEOUT_MS: positiveInt(10_000),
  /** Where Argo CD Applications live when a tracking id names no namespace. */
  ROLLOUT_DOCTOR_ARGOCD_NAMESPACE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a namespace name')
      .default('argocd'),
  ),
  ROLLOUT_DOCTOR_DIAGNOSE_CONCURRENCY: positiveInt(4),
  ROLLOUT_DOCTOR_REMEDIATE_CONCURRENCY: positiveInt(2),
  ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: positiveInt(25),
  ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: shutdownSeconds,
  ROLLOUT_DOCTOR_JOB_LOCK_MS: positiveInt(15_000),
  ROLLOUT_DOCTOR_STALLED_INTERVAL_MS: positiveInt(5_000),
  ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS: positiveInt(300),
  ROLLOUT_DOCTOR_WATCH_NAMESPACES: watchNamespaceList,
  ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: positiveInt(300),
  ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: positiveInt(1_000),
  ROLLOUT_DOCTOR_EXCLUSION_TTL: exclusionTtl,
  ROLLOUT_DOCTOR_EXCLUSION_CHECK_SECONDS: positiveInt(60),
  ROLLOUT_DOCTOR_HEALTH_PORT: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(65535).optional(),
  ),
  ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS: positiveInt(600),
  ROLLOUT_DOCTOR_REDACT_LOGS: z.preprocess(emptyToUndefined, z.enum(['true', 'false']).default('true')),
  ROLLOUT_DOCTOR_PLAN_SEAL_KEY: keySetting(parseSealKeys),
  ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: keySetting(parsePublicKeys),
  ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: keySetting(parseSigningKey),
  LOG_LEVEL: logLevel,
});

/** Settings of the Slack app process (`npm start`). */
export interface AppConfig {
  /** Slack's: 'socket' with SLACK_APP_TOKEN (the app dials out), else 'http' (also when Slack is off). */
  readonly mode: 'http' | 'socket';
  /** Slack (src/config/slack.ts); undefined: Slack is off (a Teams-only install). */
  readonly slack: SlackConfig | undefined;
  readonly port: number;
  /** Address PORT binds to; undefined: all interfaces. */
  readonly host?: string;
  readonly redisUrl: string;
  /** REDIS_URL read (one endpoint or a Sentinel set) with the sentinel and WAIT settings. */
  readonly redis: RedisSettings;
  /** Cluster used when a command names none. */
  readonly defaultCluster: string;
  readonly clusters: readonly string[];
  readonly approvers: readonly string[];
  /** Who may diagnose and scan single namespaces besides approvers; `*`: anyone (src/policy/read-policy.ts). */
  readonly readers: readonly string[];
  readonly policyFile: string | undefined;
  readonly planTtlSeconds: number;
  /** How long an incident's record stays in Redis after its last event (ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS). */
  readonly incidentRetentionMs: number;
  readonly usergroupCacheSeconds: number;
  readonly notifyConcurrency: number;
  /** `/rollout-doctor` commands one person and one channel may start per minute (src/chat/use-cases/command-budget.ts). */
  readonly commandBudget: { readonly perUser: number; readonly perChannel: number };
  /**
   * How long a person's diagnosis, scan or Re-run may take before its message says it
   * could not finish (src/chat/notify/run-deadline.ts): a run that never ends (a job or run
   * record pinned in Redis, a worker that died mid-run) never leaves it waiting.
   */
  readonly runDeadlineMs: number;
  /**
   * Signs approvals (src/trust/approval-signature.ts), and the app's own notify jobs
   * under another domain (src/queue/notify-signature.ts); workers hold the public half.
   */
  readonly approvalSigningKey: SigningKey;
  /** The workers' notify keys by id: a result, progress line or outcome is posted only under one of them. */
  readonly notifyPublicKeys: ReadonlyMap<string, KeyObject>;
  /**
   * Which clusters each worker notify key may speak for (ROLLOUT_DOCTOR_NOTIFY_KEY_CLUSTERS):
   * a notification or job link of another cluster signed with it is refused. A key not
   * listed speaks for every cluster (one key for all; the app warns when it serves several).
   */
  readonly notifyKeyClusters: ReadonlyMap<string, readonly string[]>;
  /**
   * The admission webhooks' notify keys by id (ROLLOUT_DOCTOR_ADMISSION_PUBLIC_KEYS): a
   * warned apply opens a thread only under one of them; empty: none is announced.
   */
  readonly admissionPublicKeys: ReadonlyMap<string, KeyObject>;
  readonly alertmanagerToken: string | undefined;
  readonly alertChannel: string | undefined;
  /**
   * The workspace's language (ROLLOUT_DOCTOR_LANG): for alert threads, and for a reader
   * whose platform says no language we have (src/i18n/lang.ts).
   */
  readonly lang: Lang;
  /** Alert intake (src/app/alerts): mapping, routing, dedup window, body limit. */
  readonly alerts: {
    /**
     * Hosts (host or host:port, lower case) of the operator's Alertmanager and
     * Prometheus: an alert's externalURL or generatorURL on one of them is shown as a
     * link; any other stays text, defanged (the notification chooses it).
     */
    readonly linkHosts: readonly string[];
    readonly alertMap: AlertMap;
    readonly routes: NamespaceRoutes;
    readonly windowMs: number;
    readonly maxBodyBytes: number;
    /** Workloads of one notification that get a thread and a diagnosis; the rest are summarised. */
    readonly maxWorkloadsPerNotification: number;
    /** The same across all notifications, per minute (every app replica together). */
    readonly maxWorkloadsPerMinute: number;
    /**
     * Threads warned applies (the admission webhook's announcements) open per minute,
     * every app replica together: a budget of their own, never the alerts' (issue 67.1).
     */
    readonly admissionMaxThreadsPerMinute: number;
  };
  /** Limits against slow clients on the app's HTTP server (src/app/http-server.ts). */
  readonly http: {
    readonly headersTimeoutMs: number;
    readonly requestTimeoutMs: number;
    readonly keepAliveTimeoutMs: number;
  };
  /** /metrics on a port of its own (never the public one); undefined port: not served. */
  readonly metrics: { readonly port: number | undefined; readonly host: string | undefined };
  /** From SIGTERM to exit at most (ROLLOUT_DOCTOR_SHUTDOWN_SECONDS): past it the Redis connections are cut. */
  readonly shutdownMs: number;
  /** Microsoft Teams (src/config/teams.ts); undefined: Teams is off. */
  readonly teams: TeamsConfig | undefined;
  readonly logLevel: (typeof LOG_LEVELS)[number];
}

/** Settings of a worker process (`npm run worker`) serving one cluster. */
export interface WorkerConfig {
  readonly redisUrl: string;
  /** REDIS_URL read (one endpoint or a Sentinel set) with the sentinel and WAIT settings. */
  readonly redis: RedisSettings;
  readonly cluster: string;
  readonly planTtlSeconds: number;
  /** How long an incident's record stays in Redis after its last event (ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS). */
  readonly incidentRetentionMs: number;
  readonly kubeconfig: string | undefined;
  readonly kubeContext: string | undefined;
  /** Inside a pod (KUBERNETES_SERVICE_HOST set by Kubernetes): the service account is the fallback. */
  readonly inCluster: boolean;
  readonly kubeRequestTimeoutMs: number;
  /** Argo CD's namespace: where an Application named by a tracking id without `<ns>_` is read. */
  readonly argocdNamespace: string;
  readonly diagnoseConcurrency: number;
  readonly remediateConcurrency: number;
  readonly drainGraceMs: number;
  /**
   * From SIGTERM to exit at most (ROLLOUT_DOCTOR_SHUTDOWN_SECONDS): past it the Redis
   * connections are cut and the process exits, its running jobs left to the stalled check.
   */
  readonly shutdownMs: number;
  /** BullMQ lock of a running job; a dead worker's job is re-queued once it lapses. */
  readonly jobLockMs: number;
  /** How often workers look for jobs whose lock lapsed (stalled: their worker died). */
  readonly stalledIntervalMs: number;
  readonly rolloutTimeoutMs: number;
  /** Mask secret shapes in log tails and termination messages (src/diagnosis/redact-secrets.ts). */
  readonly redactLogs: boolean;
  /** Seals the plans this worker stores and verifies stored plans (src/trust/plan-seal.ts). */
  readonly planSealKeys: SealKeys;
  /** The app's approval keys by id; a plan is applied only under a signature one of them verifies. */
  readonly approvalPublicKeys: ReadonlyMap<string, KeyObject>;
  /** Signs every notify job this worker queues (src/queue/notify-signature.ts); the app holds the public half. */
  readonly notifySigningKey: SigningKey;
  /**
   * Early warning (src/worker/early-warning/); off when `namespaces` is empty, every
   * namespace when it is `['*']`. Watches of the API server trigger diagnoses within
   * `debounceMs`; a scan every `intervalMs` is the slow safety net.
   */
  readonly watch: {
    readonly namespaces: readonly string[];
    readonly intervalMs: number;
    readonly windowMs: number;
    readonly debounceMs: number;
  };
  /** `GET /healthz` of the worker (src/worker/health.ts) on 0.0.0.0:port; undefined: not served. */
  readonly healthPort: number | undefined;
  /**
   * Node exclusions that end themselves (issue 65.5): how long one lasts unless its
   * approver picks otherwise, and how often the worker looks for expired ones
   * (src/worker/exclusion-expiry.ts).
   */
  readonly exclusions: { readonly ttl: string; readonly checkIntervalMs: number };
  readonly logLevel: (typeof LOG_LEVELS)[number];
}

function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${String(issue.path[0] ?? '(environment)')} ${issue.message}`);
}

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

/**
 * Validates a worker's environment. Needs no Slack variable.
 * @throws ConfigError naming every missing or malformed variable.
 */
export function loadWorkerConfig(env: Env): WorkerConfig {
  const parsed = workerSchema.safeParse(env);
  const problems = [
    ...(parsed.success ? [] : problemsOf(parsed.error)),
    ...foreignSecretProblems(env, 'worker'),
  ];
  if (parsed.success) {
    problems.push(...redisProblems(parsed.data));
    const own = ownKeyAmong(
      parsed.data.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
      parsed.data.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY,
    );
    if (own !== undefined)
      problems.push(
        `ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS holds the public half of ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY (as "${own}"): it takes the app's approval public keys (\`rollout-doctor keygen\`, docs/operations.md)`,
      );
    const { ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: bound, ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: drain } = parsed.data;
    if (bound !== undefined && bound <= drain)
      problems.push(
        `ROLLOUT_DOCTOR_SHUTDOWN_SECONDS (${bound}) must be longer than ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS (${drain}): the bound would cut running jobs off before their grace period ends`,
      );
  }
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  return Object.freeze({
    redisUrl: e.REDIS_URL,
    redis: redisSettings(e),
    cluster: e.ROLLOUT_DOCTOR_CLUSTER,
    planTtlSeconds: e.ROLLOUT_DOCTOR_PLAN_TTL_SECONDS,
    incidentRetentionMs: e.ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS * DAY_MS,
    kubeconfig: e.KUBECONFIG,
    kubeContext: e.KUBE_CONTEXT,
    inCluster: e.KUBERNETES_SERVICE_HOST !== undefined,
    kubeRequestTimeoutMs: e.ROLLOUT_DOCTOR_KUBE_TIMEOUT_MS,
    argocdNamespace: e.ROLLOUT_DOCTOR_ARGOCD_NAMESPACE,
    diagnoseConcurrency: e.ROLLOUT_DOCTOR_DIAGNOSE_CONCURRENCY,
    remediateConcurrency: e.ROLLOUT_DOCTOR_REMEDIATE_CONCURRENCY,
    drainGraceMs: e.ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS * 1000,
    shutdownMs:
      (e.ROLLOUT_DOCTOR_SHUTDOWN_SECONDS ??
        e.ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS + WORKER_SHUTDOWN_MARGIN_SECONDS) * 1000,
    jobLockMs: e.ROLLOUT_DOCTOR_JOB_LOCK_MS,
    stalledIntervalMs: e.ROLLOUT_DOCTOR_STALLED_INTERVAL_MS,
    rolloutTimeoutMs: e.ROLLOUT_DOCTOR_ROLLOUT_TIMEOUT_SECONDS * 1000,
    redactLogs: e.ROLLOUT_DOCTOR_REDACT_LOGS === 'true',
    planSealKeys: e.ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
    approvalPublicKeys: e.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
    notifySigningKey: e.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY,
    watch: Object.freeze({
      namespaces: Object.freeze([...e.ROLLOUT_DOCTOR_WATCH_NAMESPACES]),
      intervalMs: e.ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS * 1000,
      windowMs: e.ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS * 1000,
      debounceMs: e.ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS,
    }),
    healthPort: e.ROLLOUT_DOCTOR_HEALTH_PORT,
    exclusions: Object.freeze({
      ttl: e.ROLLOUT_DOCTOR_EXCLUSION_TTL,
      checkIntervalMs: e.ROLLOUT_DOCTOR_EXCLUSION_CHECK_SECONDS * 1000,
    }),
    logLevel: e.LOG_LEVEL,
  } satisfies WorkerConfig);
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

/**
 * What `rollout-doctor postmortem --incident ID` needs to read an incident's record:
 * REDIS_URL and its Sentinel settings, checked as the app and the workers check them.
 */
export function loadIncidentReaderConfig(env: Env): { readonly redis: RedisSettings } {
  const parsed = z.object(redisEnvShape).safeParse(env);
  if (!parsed.success)
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  const problems = redisProblems(parsed.data);
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({ redis: redisSettings(parsed.data) });
}
