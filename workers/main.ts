import { loadWorkerConfig } from '../src/config/worker-environment.js';
import { createKubeClient } from '../src/kube/client.js';
import { createLogger } from '../src/logger.js';
import { helpOrExit, loadConfigOrExit, startOrExit, stopOnSignals } from '../src/config/process-entry.js';
import { startHealthServer } from '../src/worker/health.js';
import { kubeClusterDeps } from '../src/worker/kube-deps.js';
import { startWorkers } from '../src/worker/runtime.js';
import { readGitToken } from '../src/propose/token.js';

// Entry point of `npm run worker`: the diagnose and remediate workers of one cluster
// (ROLLOUT_DOCTOR_CLUSTER). Wiring and signal handling only; processors live in src/worker/.
helpOrExit(
  process.argv.slice(2),
  'npm run worker',
  'A rollout-doctor worker: diagnoses and applies approved fixes on one cluster (ROLLOUT_DOCTOR_CLUSTER).',
);
const config = loadConfigOrExit(() => loadWorkerConfig(process.env));
const logger = createLogger({ level: config.logLevel, name: `rollout-doctor-worker-${config.cluster}` });
const client = await startOrExit(logger, 'Kubernetes configuration', () =>
  createKubeClient({
    kubeconfig: config.kubeconfig,
    context: config.kubeContext,
    // The in-cluster fallback, decided by src/config/environment.ts (the client reads no environment).
    environment: config.inCluster ? { KUBERNETES_SERVICE_HOST: 'set by Kubernetes' } : {},
    requestTimeoutMs: config.kubeRequestTimeoutMs,
  }),
);
const gitToken = await startOrExit(logger, 'Git token', () =>
  readGitToken(
    process.env['ROLLOUT_DOCTOR_GIT_TOKEN_FILE'] || undefined,
    process.env,
    'ROLLOUT_DOCTOR_GIT_TOKEN_FILE',
  ),
);
const runtime = startWorkers(
  config,
  logger,
  kubeClusterDeps(client, {
    rolloutTimeoutMs: config.rolloutTimeoutMs,
    redactLogs: config.redactLogs,
    argocdNamespace: config.argocdNamespace,
    exclusionTtl: config.exclusions.ttl,
    // Where the worker may list (a namespaced install: its watched namespaces), else everywhere.
    exclusionNamespaces: config.watch.namespaces.length > 0 ? config.watch.namespaces : ['*'],
    // "Propose in Git": only with a token (a Secret's file, or the environment).
    ...(gitToken
      ? {
          git: {
            token: gitToken,
            githubApi: config.git?.githubApi ?? 'https://api.github.com',
            env: process.env,
          },
        }
      : {}),
  }),
  { lockDurationMs: config.jobLockMs, stalledIntervalMs: config.stalledIntervalMs },
);
const healthPort = config.healthPort;
const health =
  healthPort === undefined
    ? undefined
    : await startOrExit(logger, `health endpoint on port ${healthPort}`, () =>
        startHealthServer(runtime.health, { port: healthPort }),
      );
if (health) logger.info({ port: health.port }, 'worker health endpoint: GET /healthz, GET /readyz');
// Bounded (ROLLOUT_DOCTOR_SHUTDOWN_SECONDS): whatever Redis does, the process exits in
// time; past the bound its connections are cut and running jobs left to the stalled check.
stopOnSignals(
  logger,
  async () => {
    await runtime.stop();
    await health?.close();
  },
  { boundMs: config.shutdownMs, abandon: () => runtime.abandon() },
);
