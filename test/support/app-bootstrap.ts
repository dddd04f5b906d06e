/**
 * The app and workers as `npm start` and `npm run worker` start them, for tests that
 * send signed Slack requests: the environment parsed by the real config loaders (test
 * keys, the Slack stand-in, the test Redis), plus each test's own settings. One place
 * for the bootstrap that about ten test files used to copy.
 */
import { Writable } from 'node:stream';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { testKeys } from './plan-keys.js';
import type { SlackStandin } from './slack-standin.js';

export interface TestApp {
  app: AppRuntime;
  /** `POST /slack/events` of the running app. */
  events: string;
}

/**
 * Starts the app with the Slack stand-in's token and URL, `secret` as signing secret,
 * the test keys, `redisUrl`, and `env` over those (any other setting of the tests').
 */
export async function startTestApp(input: {
  slack: SlackStandin;
  redisUrl: string;
  secret: string;
  token: string;
  env?: Record<string, string>;
  logger?: Logger;
}): Promise<TestApp> {
  const app = await startAppRuntime(
    loadAppConfig({
      ...testKeys.appEnv,
      SLACK_BOT_TOKEN: input.token,
      SLACK_SIGNING_SECRET: input.secret,
      SLACK_API_URL: input.slack.apiUrl,
      REDIS_URL: input.redisUrl,
      ...input.env,
    }),
    input.logger ?? createLogger({ level: 'silent', name: 'test-app' }),
    { host: '127.0.0.1', port: 0 },
  );
  return { app, events: `${app.handle.url}/slack/events` };
}

/** The workers with the test keys, `redisUrl`, a 2 s drain, and `deps` standing in for the cluster. */
export function startTestWorkers(
  redisUrl: string,
  deps: Parameters<typeof startWorkers>[2],
  options: { env?: Record<string, string>; logger?: Logger } = {},
): WorkerRuntime {
  return startWorkers(
    loadWorkerConfig({
      ...testKeys.workerEnv,
      REDIS_URL: redisUrl,
      ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
      ...options.env,
    }),
    options.logger ?? createLogger({ level: 'silent', name: 'test-worker' }),
    deps,
  );
}

/** A logger at `level` whose JSON lines are collected in `lines`. */
export function collectingLogger(lines: string[], level: 'info' | 'debug' = 'info', name = 'test'): Logger {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return createLogger({ level, name }, sink);
}
