import { spawnEntry, startedAppUrl, type Child } from '../../bench/lib/children.js';
import { testKeys } from './plan-keys.js';
import { startRedis } from './redis.js';
import { startSlackStandin } from './slack-standin.js';

export interface AppProcess {
  /** Base URL of the app's public port. */
  url: string;
  app: Child;
  /** Stops the app, the Slack stand-in and Redis. */
  close(): Promise<void>;
}

/**
 * The app process (src/app/main.ts as a child, as deployed) on a free port with a
 * private Redis and a Slack stand-in, for tests that go at its port from outside.
 * `env` adds to or overrides the bot token, Slack API URL, Redis URL and port.
 */
export async function startAppProcess(env: Record<string, string>): Promise<AppProcess> {
  const botToken = env.SLACK_BOT_TOKEN ?? 'xoxb-app-process';
  const redis = await startRedis();
  const slack = await startSlackStandin({ botToken });
  const app = await spawnEntry(
    'src/app/main.ts',
    {
      ...testKeys.appEnv,
      SLACK_BOT_TOKEN: botToken,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      // Any free port: the app says which in its start line.
      PORT: '0',
      ...env,
    },
    { ready: /rollout-doctor app started/ },
  );
  return {
    url: startedAppUrl(app),
    app,
    close: async () => {
      await app.stop('SIGTERM');
      await slack.close();
      await redis.close();
    },
  };
}
