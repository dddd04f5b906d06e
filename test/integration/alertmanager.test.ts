import { Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { createLogger } from '../../src/logger.js';
import { closeConnection, createWorkerConnection } from '../../src/queue/connection.js';
import { NOTIFY_QUEUES, QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { alertmanagerAvailable, startAlertmanager, type TestAlertmanager } from '../support/alertmanager.js';
import { waitForIdleQueues } from '../support/queue-idle.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { workerNotifyProducers } from '../support/worker-notify.js';
import { startSlackStandin, type SlackStandin, type StoredMessage } from '../support/slack-standin.js';
import { testKeys } from '../support/plan-keys.js';
import { waitUntil } from '../support/wait.js';

/**
 * The real Alertmanager (Debian's prometheus-alertmanager) delivers to the real app
 * (Bolt HTTP receiver, BullMQ, notify consumer) and the Slack stand-in records what
 * the thread looks like. The cluster side is a stand-in diagnose processor that
 * answers every job with a CrashLoopOnNode diagnosis of the resolved Deployment: this
 * test is about the alert path, not the analyzers.
 */

const TOKEN = 'it-alertmanager-token';
const CHANNEL = 'C0ALERTS';

let redis: TestRedis;
let slack: SlackStandin;
let app: AppRuntime;
let alertmanager: TestAlertmanager;
let diagnoseWorker: Worker<DiagnoseJob>;
let workerConnection: ReturnType<typeof createWorkerConnection>;
/** Stands in for the worker: its results are signed with the workers' notify key. */
let workerNotify: ReturnType<typeof workerNotifyProducers>;
const diagnoseJobs: DiagnoseJob[] = [];

function diagnosisFor(job: DiagnoseJob): Diagnosis {
  if (job.mode !== 'workload') throw new Error('scan not expected');
  // Owner resolution stand-in: the pod names follow <deployment>-<hash>-<suffix>.
  const name = job.resolveFromPods?.[0]?.replace(/-[a-z0-9]+-[a-z0-9]{5}$/, '') ?? job.target.name;
  return {
    target: { kind: 'Deployment', namespace: job.target.namespace, name },
    capturedAt: new Date().toISOString(),
    observed: { uid: 'uid-web', generation: 3, resourceVersion: '42' },
    findings: [
      {
        code: 'CrashLoopOnNode',
        severity: 'critical',
        summary: `pods of ${name} crash only on node gpu-7`,
        evidence: [{ type: 'node-diff', badNodes: ['gpu-7'], goodNodes: ['gpu-1'], differences: [] }],
        remediations: [],
      },
    ],
    remediations: [],
    analyzerErrors: [],
  };
}

function rootMessages(): StoredMessage[] {
  return [...slack.messages.values()].filter((m) => m.channel === CHANNEL && m.threadTs === undefined);
}

function replies(root: StoredMessage): StoredMessage[] {
  return [...slack.messages.values()].filter((m) => m.threadTs === root.ts);
}

const until = waitUntil;

// Throws under CI when the binary is missing; locally the file is skipped, said why.
const AVAILABLE = alertmanagerAvailable();

const untilAsync = waitUntil;

beforeAll(async () => {
  if (!AVAILABLE) return;
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: 'xoxb-it' });
  const config = loadAppConfig({
    ...testKeys.appEnv,
    // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
    ROLLOUT_DOCTOR_READERS: '*',
    SLACK_BOT_TOKEN: 'xoxb-it',
    SLACK_SIGNING_SECRET: 'it-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: redis.url,
    PORT: '0',
    ALERTMANAGER_TOKEN: TOKEN,
    ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNEL,
    ROLLOUT_DOCTOR_ALERT_WINDOW_SECONDS: '600',
    LOG_LEVEL: 'silent',
  });
  app = await startAppRuntime(config, createLogger({ level: 'silent', name: 'it-alerts' }), {
    host: '127.0.0.1',
    port: 0,
  });
  workerConnection = createWorkerConnection(redis.url);
  workerNotify = workerNotifyProducers(redis.url);
  diagnoseWorker = new Worker<DiagnoseJob>(
    diagnoseQueueName('default'),
    async (job: Job<DiagnoseJob>) => {
      diagnoseJobs.push(job.data);
      await workerNotify.enqueueNotify({
        kind: 'diagnosis-result',
        jobId: job.id ?? '',
        cluster: 'default',
        runTs: job.timestamp,
        seq: 1,
        outcome: {
          status: 'diagnosed',
          diagnosis: diagnosisFor(job.data),
          dryRuns: {},
        },
      });
    },
    { connection: workerConnection, prefix: QUEUE_PREFIX },
  );
  diagnoseWorker.on('error', () => undefined);
  alertmanager = await startAlertmanager({
    webhookUrl: `${app.handle.url}/alerts/alertmanager`,
    token: TOKEN,
    groupBy: ['alertname', 'namespace'],
  });
});

afterAll(async () => {
  await workerNotify?.close();
  await alertmanager?.close();
  await diagnoseWorker?.close();
  if (workerConnection) await closeConnection(workerConnection);
  await app?.stop();
  await slack?.close();
  await redis?.close();
});

describe.runIf(AVAILABLE)('Alertmanager → Slack thread', () => {
  it('opens a thread, posts the diagnosis in it, joins later notifications and resolves it', async () => {
    const startsAt = new Date(Date.now() - 60_000).toISOString();
    const crash = (pod: string, endsAt?: string) => ({
      labels: {
        alertname: 'KubePodCrashLooping',
        namespace: 'shop',
        pod,
        container: 'app',
        severity: 'warning',
      },
      annotations: { summary: `Pod shop/${pod} is crash looping` },
      startsAt,
      ...(endsAt !== undefined ? { endsAt } : {}),
    });

    await alertmanager.postAlerts([crash('web-6d4cf56db6-x7k2p')]);
    const root = await until('root message', () => rootMessages()[0]);
    expect(root.text).toContain('Firing: KubePodCrashLooping on shop/deployment/web');

    const diagnosisReply = await until('diagnosis in the thread', () =>
      replies(root).find(
        (m) => m.text.includes('CrashLoopOnNode') || JSON.stringify(m.blocks).includes('CrashLoopOnNode'),
      ),
    );
    expect(JSON.stringify(diagnosisReply.blocks)).toContain('gpu-7');
    expect(diagnoseJobs).toHaveLength(1);
    expect(diagnoseJobs[0]).toMatchObject({
      mode: 'workload',
      cluster: 'default',
      requestedBy: 'ALERTMANAGER',
    });

    // A second crashing pod of the same Deployment: Alertmanager re-notifies the group;
    // same thread, no second diagnosis inside the window.
    const answeredBefore = await alertmanager.webhookCallsAnswered();
    await alertmanager.postAlerts([crash('web-6d4cf56db6-x7k2p'), crash('web-6d4cf56db6-b9zzq')]);
    // The re-notification reached the app and was answered (so its intake finished),
    // and everything it could have queued has run: only then is "nothing new" a fact.
    await untilAsync('the re-notification answered', async () =>
      (await alertmanager.webhookCallsAnswered()) > answeredBefore ? true : undefined,
    );
    await waitForIdleQueues(redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES]);
    expect(rootMessages()).toHaveLength(1);
    expect(diagnoseJobs).toHaveLength(1);

    // Resolve both: the root says so and the thread gets a "resolved at" line.
    const past = new Date(Date.now() - 1_000).toISOString();
    await alertmanager.postAlerts([crash('web-6d4cf56db6-x7k2p', past), crash('web-6d4cf56db6-b9zzq', past)]);
    const resolvedRoot = await until('root marked resolved', () => {
      const m = slack.messages.get(`${CHANNEL}/${root.ts}`) ?? rootMessages()[0];
      return m !== undefined && m.text.startsWith('Resolved:') ? m : undefined;
    });
    expect(resolvedRoot.ts).toBe(root.ts);
    await until('resolved line in thread', () => replies(root).find((m) => m.text.includes('Resolved at')));
    expect(rootMessages()).toHaveLength(1);
  });

  it('refuses a webhook with a wrong token', async () => {
    const res = await fetch(`${app.handle.url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: 'Bearer wrong', 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
  });
});
