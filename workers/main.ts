import { ConfigError, loadWorkerConfig } from '../src/config.js';
import { createKubeClient } from '../src/kube/client.js';
import { createLogger } from '../src/logger.js';
import { kubeClusterDeps } from '../src/worker/kube-deps.js';
import { startWorkers } from '../src/worker/runtime.js';

// Entry point of `npm run worker`: the diagnose and remediate workers of one cluster
// (ROLLOUT_DOCTOR_CLUSTER). Wiring and signal handling only; processors live in src/worker/.
let config;
try {
  config = loadWorkerConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(2);
}
const logger = createLogger({ level: config.logLevel, name: `rollout-doctor-worker-${config.cluster}` });
const client = createKubeClient({
  kubeconfig: config.kubeconfig,
  context: config.kubeContext,
  requestTimeoutMs: config.kubeRequestTimeoutMs,
});
const runtime = startWorkers(
  config,
  logger,
  kubeClusterDeps(client, { rolloutTimeoutMs: config.rolloutTimeoutMs }),
  { lockDurationMs: config.jobLockMs, stalledIntervalMs: config.stalledIntervalMs },
);

let stopping = false;
const shutdown = (signal: string): void => {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'draining');
  runtime.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
