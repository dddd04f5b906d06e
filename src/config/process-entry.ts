/**
 * What the two process entry points (`npm start`, `npm run worker`) share: a clear
 * one-line failure instead of a stack trace when they cannot start, and a single
 * drain on SIGTERM/SIGINT. Only entry points call these (they exit the process).
 */
import type { Logger } from 'pino';
import { ConfigError } from './environment.js';
import { quoted } from '../text/clean.js';

/**
 * `--help` (or `-h`) prints what the process is and where its settings are, and exits 0:
 * both entries take no arguments and are configured by the environment alone, so without
 * this `npm start -- --help` started the service (or printed configuration errors).
 * Any other argument is refused with exit 2 rather than ignored.
 */
export function helpOrExit(argv: readonly string[], command: string, what: string): void {
  if (argv.length === 0) return;
  const usage = `Usage: ${command}\n\n${what}\nConfigured by environment variables only: docs/configuration.md lists them\n(README.md, "Running it", shows a minimal set).\n`;
  if (argv.length === 1 && (argv[0] === '--help' || argv[0] === '-h')) {
    process.stdout.write(usage);
    process.exit(0);
  }
  process.stderr.write(`${command}: takes no arguments, got ${argv.map(quoted).join(' ')}\n\n${usage}`);
  process.exit(2);
}

/** Loads configuration; a bad environment prints every bad variable and exits 2. */
export function loadConfigOrExit<T>(load: () => T): T {
  try {
    return load();
  } catch (error) {
    console.error(error instanceof ConfigError ? error.message : String(error));
    process.exit(2);
  }
}

/** Runs a start-up step; a failure is logged as one fatal line and exits 1. */
export async function startOrExit<T>(logger: Logger, what: string, start: () => T | Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (error) {
    logger.fatal(
      { err: error },
      `could not start: ${what}: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exit(1);
  }
}

/** How the shutdown is bounded: past `boundMs` from the signal, `abandon` cuts what still waits. */
interface ShutdownBound {
  boundMs: number;
  /**
   * Cuts the Redis connections at once (ioredis `disconnect()`, no QUIT) and says what
   * was left: the running jobs, which BullMQ's stalled-job check retries once their lock
   * lapses. Synchronous: nothing it does may wait on Redis.
   */
  abandon: () => Record<string, unknown>;
}

/**
 * Stops once on the first SIGTERM or SIGINT, then exits 0 (1 if stopping failed).
 * With `bound`, the process exits within `boundMs` of the signal whatever Redis does
 * (a worker whose Redis had gone once waited on it until the kubelet's SIGKILL):
 * a stop still running then is abandoned (`bound.abandon`), logged, and the process exits 0,
 * its running jobs left for another worker.
 */
export function stopOnSignals(logger: Logger, stop: () => Promise<void>, bound?: ShutdownBound): void {
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal, boundMs: bound?.boundMs }, 'shutting down');
    void boundedStop(logger, stop, bound).then((code) => process.exit(code));
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

/**
 * Runs `stop`; resolves with the exit code: 0 once it finished, 1 if it failed, and 0
 * when `bound.boundMs` passed first (then `bound.abandon` has cut the connections).
 * Never rejects, and with a bound never takes longer than it.
 */
export async function boundedStop(
  logger: Logger,
  stop: () => Promise<void>,
  bound?: ShutdownBound,
): Promise<number> {
  const started = Date.now();
  const stopped = stop().then(
    () => 0,
    (error: unknown) => {
      logger.error({ err: error }, 'shutdown failed');
      return 1;
    },
  );
  if (bound === undefined) return stopped;
  let timer: NodeJS.Timeout | undefined;
  const cut = new Promise<'cut'>((resolve) => {
    timer = setTimeout(() => resolve('cut'), bound.boundMs);
  });
  const first = await Promise.race([stopped, cut]);
  clearTimeout(timer);
  if (first !== 'cut') return first;
  let left: Record<string, unknown> = {};
  try {
    left = bound.abandon();
  } catch (error) {
    logger.error({ err: error }, 'cutting the connections failed');
  }
  logger.warn(
    { boundMs: bound.boundMs, ms: Date.now() - started, ...left },
    'shutdown bound reached: Redis connections cut; running jobs are retried once their lock lapses',
  );
  return 0;
}
