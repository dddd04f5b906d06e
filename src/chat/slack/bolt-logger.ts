import { LogLevel, type Logger as BoltLogger } from '@slack/bolt';
import type { Logger } from '../../logger.js';

/** Bolt's logger interface on top of our pino logger, so Bolt's lines are JSON and redacted too. */
export function boltLogger(logger: Logger): BoltLogger {
  let level = LogLevel.INFO;
  const text = (args: unknown[]): string =>
    args
      .map((a) => (typeof a === 'string' ? a : a instanceof Error ? a.message : JSON.stringify(a)))
      .join(' ');
  return {
    debug: (...args) => logger.debug({ component: 'bolt' }, text(args)),
    info: (...args) => logger.info({ component: 'bolt' }, text(args)),
    warn: (...args) => logger.warn({ component: 'bolt' }, text(args)),
    error: (...args) => logger.error({ component: 'bolt' }, text(args)),
    setLevel: (l) => {
      level = l;
    },
    getLevel: () => level,
    setName: () => undefined,
  };
}
