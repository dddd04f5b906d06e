/**
 * Reads a worker's environment (`npm run worker`, one cluster): the schema of its
 * variables, the problems across variables (Redis, keys in the wrong place, a shutdown
 * bound shorter than the drain grace), and the frozen WorkerConfig (environment.ts).
 * Needs no Slack variable.
 */
import { z } from 'zod';
import { DEFAULT_EXCLUSION_TTL, ttlProblem } from '../remediation/exclusion-ttl.js';
import { parsePublicKeys, parseSigningKey } from '../trust/approval-signature.js';
import { ownKeyAmong } from '../trust/keygen.js';
import { parseSealKeys } from '../trust/plan-seal.js';
import {
  DAY_MS,
  clusterName,
  commaList,
  emptyToUndefined,
  incidentRetentionDays,
  isDnsLabel,
  keySetting,
  logLevel,
  optionalString,
  positiveInt,
  problemsOf,
  shutdownSeconds,
  type Env,
} from './env-fields.js';
import { ConfigError, type WorkerConfig } from './environment.js';
import { foreignSecretProblems } from './foreign-secrets.js';
import { redisEnvShape, redisProblems, redisSettings } from './redis.js';

/** What the worker's bound adds to its drain grace when ROLLOUT_DOCTOR_SHUTDOWN_SECONDS is unset: hand-back and close. */
const WORKER_SHUTDOWN_MARGIN_SECONDS = 3;

/** Watched namespaces: DNS-1123 labels, or `*` alone for every namespace. */
const watchNamespaceList = commaList(
  '',
  (v) => v === '*' || isDnsLabel(v),
  'must be `*` (every namespace) or comma-separated DNS-1123 labels (a-z, 0-9, -)',
).refine(
  (list) => !list.includes('*') || list.length === 1,
  '`*` watches every namespace and cannot be combined with namespace names',
);

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
  /** "Propose in Git" (docs/propose-in-git.md): the token, or a file holding it (a mounted Secret), and the REST API. */
  ROLLOUT_DOCTOR_GIT_TOKEN: optionalString,
  ROLLOUT_DOCTOR_GIT_TOKEN_FILE: optionalString,
  ROLLOUT_DOCTOR_GITHUB_API: z.preprocess(
    emptyToUndefined,
    z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).default('https://api.github.com'),
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
    git: Object.freeze({
      ...(e.ROLLOUT_DOCTOR_GIT_TOKEN_FILE ? { tokenFile: e.ROLLOUT_DOCTOR_GIT_TOKEN_FILE } : {}),
      githubApi: e.ROLLOUT_DOCTOR_GITHUB_API,
    }),
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
