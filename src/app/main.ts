import { loadAppConfig } from '../config/app-environment.js';
import { createLogger } from '../logger.js';
import { helpOrExit, loadConfigOrExit, startOrExit, stopOnSignals } from '../config/process-entry.js';
import { startAppRuntime } from './runtime.js';

// Entry point of `npm start`: configuration, start, and signal handling only.
helpOrExit(
  process.argv.slice(2),
  'npm start',
  'The rollout-doctor app: the Slack and Teams endpoints, the Alertmanager webhook, /healthz, /readyz and /metrics.',
);
const config = loadConfigOrExit(() => loadAppConfig(process.env));
const logger = createLogger({ level: config.logLevel, name: 'rollout-doctor-app' });
const runtime = await startOrExit(logger, 'app', () => startAppRuntime(config, logger));
// Bounded (ROLLOUT_DOCTOR_SHUTDOWN_SECONDS): past the bound the Redis connections are cut and it exits.
stopOnSignals(logger, () => runtime.stop(), {
  boundMs: config.shutdownMs,
  abandon: () => runtime.abandon(),
});
