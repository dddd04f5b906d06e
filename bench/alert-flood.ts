/**
 * Alert flood benchmark: 30 Alertmanager notifications naming 100
 * made-up workloads each (3,000 in all) arrive within about two seconds, while a person
 * runs `/rollout-doctor` in another channel. Against the real app and worker runtimes
 * in-process (BullMQ on a private redis-server, the Slack stand-in; the worker's
 * cluster side is the fake of test/support/fake-cluster.ts). Reports threads and
 * posts made, jobs created, Redis keys and memory once everything settled, and how
 * long the person waited for their result during the flood.
 *
 * Run: npx tsx bench/alert-flood.ts
 */
import { pathToFileURL } from 'node:url';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { startAppRuntime } from '../src/app/runtime.js';
import { loadAppConfig } from '../src/config/app-environment.js';
import { loadWorkerConfig } from '../src/config/worker-environment.js';
import { createLogger } from '../src/logger.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../src/trust/keygen.js';
import { NOTIFY_QUEUES, QUEUE_PREFIX, diagnoseQueueName } from '../src/queue/names.js';
import { startWorkers } from '../src/worker/runtime.js';
import { fakeClusterDeps } from '../test/support/fake-cluster.js';
import { waitForIdleQueues } from '../test/support/queue-idle.js';
import { startRedis } from '../test/support/redis.js';
import { postSigned, slashCommandBody } from '../test/support/slack-sign.js';
import { startSlackStandin } from '../test/support/slack-standin.js';

export interface FloodResult {
  workloads: number;
  notifications: number;
  threadsOpened: number;
  slackPosts: number;
  /** Diagnoses the worker ran for the flood (the person's two commands not counted). */
  diagnoseJobs: number;
  notifyJobs: number;
  redisKeys: number;
  redisKeysByFamily: Record<string, number>;
  redisUsedMemoryBytes: number;
  commandResultMs: number;
  /** Result latency of the same command with no flood, for comparison. */
  quietCommandResultMs: number;
}

const TOKEN = 'bench-flood-alertmanager';
const SECRET = 'bench-flood-secret';
const ALERT_CHANNEL = 'C0FLOOD';
const PERSON_CHANNEL = 'C0ONCALL';

/** One Alertmanager notification naming `perNotification` made-up workloads (batch `n`). */
/** The workers of a flood bench on a cluster with nothing in it, counting the diagnoses they run. */
export function startCountingWorkers(
  redisUrl: string,
  keys: ReturnType<typeof generatePlanKeys>,
  logger: ReturnType<typeof createLogger>,
): { workers: ReturnType<typeof startWorkers>; diagnoses: () => number } {
  const cluster = fakeClusterDeps([]);
  let diagnoses = 0;
  const workers = startWorkers(
    loadWorkerConfig({ ...workerKeyEnv(keys), REDIS_URL: redisUrl, ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2' }),
    logger,
    {
      ...cluster,
      collect: (...args) => {
        diagnoses += 1;
        return cluster.collect(...args);
      },
    },
  );
  return { workers, diagnoses: () => diagnoses };
}

export function notification(n: number, perNotification: number): string {
  const alerts = Array.from({ length: perNotification }, (_, i) => ({
    status: 'firing',
    labels: {
      alertname: 'KubeDeploymentRolloutStuck',
      namespace: `flood-${(n * perNotification + i) % 40}`,
      deployment: `made-up-${n}-${i}`,
    },
    annotations: { summary: 'rollout stuck' },
    startsAt: new Date().toISOString(),
    endsAt: '0001-01-01T00:00:00Z',
    generatorURL: '',
    fingerprint: `${n}-${i}`,
  }));
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{alertname="KubeDeploymentRolloutStuck", batch="${n}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'rollout-doctor',
    groupLabels: { alertname: 'KubeDeploymentRolloutStuck' },
    commonLabels: { alertname: 'KubeDeploymentRolloutStuck' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    alerts,
  });
}

/** Counts keys by the family their name starts with (rd:alerts:*, rd:plan:*, BullMQ queues). */
async function keyFamilies(redis: Redis): Promise<Record<string, number>> {
  const families: Record<string, number> = {};
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) {
      const parts = key.split(':');
      // rd:alerts:<kind>:…, BullMQ's rd:<queue>:…, everything else rd:<kind>:….
      const family = parts.slice(0, parts[1] === 'alerts' ? 3 : 2).join(':');
      families[family] = (families[family] ?? 0) + 1;
    }
  } while (cursor !== '0');
  return Object.fromEntries(Object.entries(families).sort(([a], [b]) => a.localeCompare(b)));
}

export async function runFloodBench(
  options: { notifications?: number; perNotification?: number } = {},
): Promise<FloodResult> {
  const notifications = options.notifications ?? 30;
  const perNotification = options.perNotification ?? 100;
  const redis = await startRedis();
  const slack = await startSlackStandin({ botToken: 'xoxb-flood' });
  const keys = generatePlanKeys({ seal: 'flood-seal', approval: 'flood-approval' });
  const logger = createLogger({ level: 'silent', name: 'bench-flood' });
  const app = await startAppRuntime(
    loadAppConfig({
      ...appKeyEnv(keys),
      SLACK_BOT_TOKEN: 'xoxb-flood',
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      ALERTMANAGER_TOKEN: TOKEN,
      ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL,
      ROLLOUT_DOCTOR_READERS: '*',
      ROLLOUT_DOCTOR_ALERT_MAX_BYTES: String(4 * 1024 * 1024),
      LOG_LEVEL: 'silent',
    }),
    logger,
    { host: '127.0.0.1', port: 0 },
  );
  const { workers, diagnoses } = startCountingWorkers(redis.url, keys, logger);
  const client = new Redis(redis.url);
  const events = `${app.handle.url}/slack/events`;
  const queues = [diagnoseQueueName('default'), ...NOTIFY_QUEUES];
  /** Sends `/rollout-doctor NAME -n oncall` and waits for its result message. */
  const command = async (name: string): Promise<number> => {
    const started = performance.now();
    await postSigned(
      events,
      SECRET,
      slashCommandBody({ text: `${name} -n oncall`, user_id: 'U0ONCALL', channel_id: PERSON_CHANNEL }),
    );
    await slack.waitFor(
      (s) =>
        [...s.messages.values()].find(
          (m) => m.channel === PERSON_CHANNEL && m.text.startsWith(`deployment/${name} in oncall:`),
        ),
      60_000,
    );
    return Math.round(performance.now() - started);
  };
  try {
    const quietCommandResultMs = await command('quiet-web');
    await waitForIdleQueues(redis.url, queues);
    const postsBefore = slack.callsOf('chat.postMessage').length;
    const flood = Array.from({ length: notifications }, (_, n) =>
      fetch(`${app.handle.url}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: notification(n, perNotification),
      }).then((r) => r.arrayBuffer()),
    );
    const commandResultMs = await command('during-flood-web');
    await Promise.all(flood);
    await waitForIdleQueues(redis.url, queues, { timeoutMs: 120_000 });
    const posts = slack.callsOf('chat.postMessage').slice(postsBefore);
    /** Finished jobs still kept (notify keeps the last 1,000 completed). */
    const counts = async (name: string): Promise<number> => {
      const queue = new Queue(name, { connection: client, prefix: QUEUE_PREFIX });
      const c = await queue.getJobCounts('completed', 'failed');
      return (c.completed ?? 0) + (c.failed ?? 0);
    };
    const memory = /used_memory:(\d+)/.exec(await client.info('memory'))?.[1];
    return {
      workloads: notifications * perNotification,
      notifications,
      threadsOpened: posts.filter(
        (c) => c.args.channel === ALERT_CHANNEL && c.args.thread_ts === undefined && c.status === 200,
      ).length,
      slackPosts: posts.filter((c) => c.status === 200).length,
      diagnoseJobs: diagnoses() - 2,
      notifyJobs: (await Promise.all(NOTIFY_QUEUES.map(counts))).reduce((a, b) => a + b, 0),
      redisKeys: await client.dbsize(),
      redisKeysByFamily: await keyFamilies(client),
      redisUsedMemoryBytes: Number(memory ?? 0),
      commandResultMs,
      quietCommandResultMs,
    };
  } finally {
    client.disconnect();
    await workers.stop();
    await app.stop();
    await slack.close();
    await redis.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runFloodBench().then(
    (result) => console.log(JSON.stringify(result, null, 2)),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
