import { pino, type Logger, type DestinationStream } from 'pino';

export type { Logger } from 'pino';

/** Paths pino blanks out wherever they appear: tokens, secrets, auth headers. */
export const REDACT_PATHS = [
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
  'alertmanagerToken',
];

/** Token shapes that must never reach a log line even inside free text. */
const TOKEN_PATTERN = /\b(xox[abposr]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+)/g;

/** Replaces Slack tokens inside a string (error messages can echo request bodies). */
export function scrubTokens(text: string): string {
  return text.replace(TOKEN_PATTERN, '[Redacted]');
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
          const s = pino.stdSerializers.err(err as Error);
          return { ...s, message: scrubTokens(s.message), stack: s.stack ? scrubTokens(s.stack) : s.stack };
        },
      },
    },
    destination,
  );
}
