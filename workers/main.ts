import { ConfigError, loadWorkerConfig } from '../src/config.js';
import { diagnose } from '../src/diagnosis/run.js';
import { createKubeClient } from '../src/kube/client.js';
import { collectSnapshot } from '../src/kube/collector.js';
import { resolveWorkloadForPod } from '../src/kube/owner.js';
import { applyPlan, dryRunPlan, inversePlan } from '../src/kube/executor.js';
import { watchRollout } from '../src/kube/rollout-watcher.js';
import { scanCluster } from '../src/kube/scan.js';
import { createLogger } from '../src/logger.js';
import { renderText } from '../src/report/text.js';
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
const rolloutTimeoutMs = config.rolloutTimeoutMs;

const runtime = startWorkers(
  config,
  logger,
  {
    collect: (ref, onProgress) => collectSnapshot(client, ref, { onProgress }),
    diagnose: (snapshot) => diagnose(snapshot),
    dryRun: (plan) => dryRunPlan(client, plan),
    scan: (namespace, onProgress) =>
      scanCluster(client, namespace ? { namespace, onProgress } : { allNamespaces: true, onProgress }),
    renderText,
    resolvePodOwner: (namespace, pod) => resolveWorkloadForPod(client, namespace, pod),
    apply: (plan) => applyPlan(client, plan),
    watch: (ref, sinceGeneration) =>
      watchRollout(client, ref, { timeoutMs: rolloutTimeoutMs, sinceGeneration }),
    currentFinding: async (ref) => diagnose(await collectSnapshot(client, ref)).findings[0]?.summary,
    inverse: inversePlan,
  },
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
