/**
 * What each process is given from the environment, frozen: the app holds Slack
 * credentials and no cluster settings, a worker holds cluster settings and no Slack
 * token (DESIGN.md §2). Each process loads the part it needs: the app with
 * loadAppConfig (app-environment.ts), a worker with loadWorkerConfig
 * (worker-environment.ts), `postmortem --incident` with loadIncidentReaderConfig here;
 * how they read a variable is env-fields.ts.
 */
import type { KeyObject } from 'node:crypto';
import { z } from 'zod';
import type { Lang } from '../i18n/lang.js';
import type { SigningKey } from '../trust/approval-signature.js';
import type { SealKeys } from '../trust/plan-seal.js';
import type { AlertMap } from './alert-map.js';
import type { NamespaceRoutes } from './alert-routes.js';
import type { Env, LOG_LEVELS } from './env-fields.js';
import { redisEnvShape, redisProblems, redisSettings, type RedisSettings } from './redis.js';
import type { SlackConfig } from './slack.js';
import type { TeamsConfig } from './teams.js';

/** A missing or malformed variable; the message names every bad one. */
export class ConfigError extends Error {
  override name = 'ConfigError';
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

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
  /**
   * "Propose in Git" buttons beside Approve for GitOps-owned workloads
   * (ROLLOUT_DOCTOR_PROPOSE_IN_GIT=true: the workers hold a Git token; docs/propose-in-git.md).
   * Absent or false: no button.
   */
  readonly proposeInGit?: boolean;
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
     * every app replica together: a budget of their own, never the alerts'.
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
  /**
   * "Propose in Git": the token file (ROLLOUT_DOCTOR_GIT_TOKEN_FILE; else the token is
   * ROLLOUT_DOCTOR_GIT_TOKEN, read by src/propose/token.ts, never kept here) and the REST
   * API base (ROLLOUT_DOCTOR_GITHUB_API). Optional: a config built by hand proposes nothing.
   */
  readonly git?: { readonly tokenFile?: string; readonly githubApi: string };
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
   * Node exclusions that end themselves: how long one lasts unless its
   * approver picks otherwise, and how often the worker looks for expired ones
   * (src/worker/exclusion-expiry.ts).
   */
  readonly exclusions: { readonly ttl: string; readonly checkIntervalMs: number };
  readonly logLevel: (typeof LOG_LEVELS)[number];
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
