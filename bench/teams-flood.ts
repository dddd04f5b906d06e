/**
 * The alert flood of bench/alert-flood.ts with alert threads in a Teams channel: 30
 * Alertmanager notifications naming 100 made-up workloads each (3,000 in all) against a
 * Teams-only app (`TEAMS_ALERT_CONVERSATION`, no Slack setting) and a worker with the
 * fake cluster, the Teams stand-in playing the Bot Connector. Reports the threads the
 * app opened in the channel, every post it made there, the overflow summaries and the
 * diagnoses run, once everything settled: the caps of the intake hold unchanged.
 *
 * Run: npx tsx bench/teams-flood.ts
 */
import { pathToFileURL } from 'node:url';
import { startAppRuntime } from '../src/app/runtime.js';
import { loadAppConfig } from '../src/config/app-environment.js';
import { createLogger } from '../src/logger.js';
import { NOTIFY_QUEUES, diagnoseQueueName } from '../src/queue/names.js';
import { appKeyEnv, generatePlanKeys } from '../src/trust/keygen.js';
import { waitForIdleQueues } from '../test/support/queue-idle.js';
import { startRedis } from '../test/support/redis.js';
import { startTeamsStandin } from '../test/support/teams-standin.js';
import { notification, startCountingWorkers } from './alert-flood.js';

const TOKEN = 'bench-teams-flood-alertmanager';
const CHANNEL = '19:flood@thread.tacv2';

export interface TeamsFloodResult {
  workloads: number;
  notifications: number;
  /** Thread roots the app created in the alerts channel (overflow summaries not counted). */
  threadsOpened: number;
  /** Overflow summaries ("… got no thread and no diagnosis") posted in the channel. */
  summaries: number;
  /** Every activity the app posted through the Bot Connector (roots, replies, summaries). */
  connectorPosts: number;
  diagnoseJobs: number;
  /** From the first notification sent until every queue was idle. */
  settledMs: number;
}

export async function runTeamsFloodBench(
  options: { notifications?: number; perNotification?: number } = {},
): Promise<TeamsFloodResult> {
  const notifications = options.notifications ?? 30;
  const perNotification = options.perNotification ?? 100;
  const redis = await startRedis();
  const teams = await startTeamsStandin({ appPassword: 'bench-flood' });
  const keys = generatePlanKeys({ seal: 'flood-seal', approval: 'flood-approval' });
  const logger = createLogger({ level: 'silent', name: 'bench-teams-flood' });
  const app = await startAppRuntime(
    loadAppConfig({
      ...appKeyEnv(keys),
      REDIS_URL: redis.url,
      ALERTMANAGER_TOKEN: TOKEN,
      ROLLOUT_DOCTOR_READERS: '*',
      ROLLOUT_DOCTOR_ALERT_MAX_BYTES: String(4 * 1024 * 1024),
      LOG_LEVEL: 'silent',
      TEAMS_APP_ID: teams.appId,
      TEAMS_APP_PASSWORD: 'bench-flood',
      TEAMS_TENANT_ID: teams.tenantId,
      TEAMS_OPENID_METADATA_URL: teams.openIdMetadataUrl,
      TEAMS_TOKEN_URL: teams.tokenUrl,
      TEAMS_SERVICE_URL: teams.serviceUrl,
      TEAMS_SERVICE_URL_HOSTS: new URL(teams.serviceUrl).host,
      TEAMS_ALERT_CONVERSATION: CHANNEL,
    }),
    logger,
    { host: '127.0.0.1', port: 0 },
  );
  const { workers, diagnoses } = startCountingWorkers(redis.url, keys, logger);
  try {
    const started = performance.now();
    await Promise.all(
      Array.from({ length: notifications }, (_, n) =>
        fetch(`${app.handle.url}/alerts/alertmanager`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
          body: notification(n, perNotification),
        }).then((r) => r.arrayBuffer()),
      ),
    );
    await waitForIdleQueues(redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES], {
      timeoutMs: 120_000,
    });
    const settledMs = Math.round(performance.now() - started);
    const posted = teams.calls.filter((c) => c.method === 'POST' && c.status < 300);
    // A new thread is POST /v3/conversations naming the channel; its root is the activity.
    const roots = posted.filter(
      (c) =>
        c.path === '/v3/conversations' &&
        (c.body.channelData as { channel?: { id?: string } } | undefined)?.channel?.id === CHANNEL,
    );
    const summaries = roots.filter((c) => JSON.stringify(c.body).includes('got no thread and no diagnosis'));
    return {
      workloads: notifications * perNotification,
      notifications,
      threadsOpened: roots.length - summaries.length,
      summaries: summaries.length,
      connectorPosts: posted.length,
      diagnoseJobs: diagnoses(),
      settledMs,
    };
  } finally {
    await workers.stop();
    await app.stop();
    await teams.close();
    await redis.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(JSON.stringify(await runTeamsFloodBench(), null, 2));
}
