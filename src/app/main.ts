import { ConfigError, loadAppConfig } from '../config.js';
import { createLogger } from '../logger.js';
import { startAppRuntime } from './runtime.js';

// Entry point of `npm start`: configuration, start, and signal handling only.
let config;
try {
  config = loadAppConfig(process.env);
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : String(error));
  process.exit(2);
}
const logger = createLogger({ level: config.logLevel, name: 'rollout-doctor-app' });
try {
  const runtime = await startAppRuntime(config, logger);
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
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
} catch (error) {
  logger.fatal({ err: error }, 'could not start');
  process.exit(1);
}
