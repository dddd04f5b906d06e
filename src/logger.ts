import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

/** Paths pino blanks out wherever they appear: tokens, secrets, auth headers. */
const REDACT_PATHS = [
  'token',
  '*.token',
  'botToken',
  '*.botToken',
  'appToken',
  '*.appToken',
  'signingSecret',
  '*.signingSecret',
  'secret',
  '*.secret',
  'password',
  '*.password',
  'authorization',
  '*.authorization',
  'headers.authorization',
  '*.headers.authorization',
  'headers["x-slack-signature"]',
  '*.headers["x-slack-signature"]',
  'req.headers.authorization',
  'config.slack.botToken',
  'config.slack.appToken',
  'config.slack.signingSecret',
  'config.alertmanagerToken',
  'appPassword',
  '*.appPassword',
  'config.teams.appPassword',
  'config.teams.credential.appPassword',
  'credential.appPassword',
  '*.credential.appPassword',
  'privateKey',
  '*.privateKey',
  'client_assertion',
  '*.client_assertion',
  'alertmanagerToken',
];

/** Token shapes that must never reach a log line even inside free text. */
const TOKEN_PATTERN = /\b(xox[abposr]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+)/g;

/** A PEM private key (the Teams certificate's), whole or cut off at the end of the text. */
const PEM_KEY_PATTERN = /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g;

/** Replaces Slack tokens and PEM private keys inside a string (error messages can echo input). */
function scrubTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, '[Redacted]').replace(PEM_KEY_PATTERN, '[Redacted]');
}

/**
 * JSON logger with secrets redacted. `destination` lets tests capture lines.
 * @example createLogger({ level: 'info', name: 'app' }).info({ cluster }, 'started')
 */
export function createLogger(
  options: { level: string; name: string },
  destination?: DestinationStream,
): Logger {
  return pino(
    {
      level: options.level,
      name: options.name,
      redact: { paths: REDACT_PATHS, censor: '[Redacted]' },
      formatters: { level: (label) => ({ level: label }) },
      hooks: {
        logMethod(args, method) {
          const scrubbed = args.map((a) => (typeof a === 'string' ? scrubTokens(a) : a)) as typeof args;
          method.apply(this, scrubbed);
        },
      },
      serializers: {
        err: (err: unknown) => {
          // A plain message under `err` (not an Error) must not take the process down.
          if (typeof err !== 'object' || err === null) return { message: scrubTokens(String(err)) };
          const s = pino.stdSerializers.err(err as Error);
          return { ...s, message: scrubTokens(s.message), stack: s.stack ? scrubTokens(s.stack) : s.stack };
        },
      },
    },
    destination,
  );
}

/**
 * Logs an error at most once per `intervalMs` for the same message, with the number
 * of repeats suppressed since the last line. A BullMQ worker whose Redis is gone
 * emits the same error in a tight loop; this keeps the log readable (and cheap).
 */
export function createRepeatLimitedErrorLog(
  logger: Logger,
  intervalMs = 10_000,
  now: () => number = Date.now,
): (error: Error, context: Record<string, unknown>, message: string) => void {
  const last = new Map<string, { at: number; suppressed: number }>();
  return (error, context, message) => {
    const key = `${message}\u0000${error.message}`;
    const seen = last.get(key);
    const t = now();
    if (seen && t - seen.at < intervalMs) {
      seen.suppressed += 1;
      return;
    }
    logger.error(
      { ...context, err: error, ...(seen?.suppressed ? { repeated: seen.suppressed } : {}) },
      message,
    );
    last.set(key, { at: t, suppressed: 0 });
  };
}
