/**
 * Alertmanager alerts open incident threads in a Teams channel, as on Slack: a
 * Teams-only app (no Slack setting) with TEAMS_ALERT_CONVERSATION takes a signed
 * webhook, posts one thread root card per workload in the channel through the Teams
 * stand-in's Bot Connector, and the run's diagnosis result (a stand-in worker answers
 * every diagnose job, signed with the workers' notify key) lands in that thread. A
 * flood past ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS opens only that many threads and queues
 * only that many diagnoses, and posts one overflow summary for the rest in the channel.
 */
import { Worker, type Job } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import { createLogger } from '../../src/logger.js';
import { createWorkerConnection } from '../../src/queue/connection.js';
import { NOTIFY_QUEUES, QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import { crashLooping, notification } from '../support/alert-payloads.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import {
  startTeamsStandin,
  type PostedActivity,
  type TeamsStandin,
  teamsAppEnv,
} from '../support/teams-standin.js';
import { workerNotifyProducers } from '../support/worker-notify.js';
import { waitForIdleQueues } from '../support/queue-idle.js';

const TOKEN = 'teams-alert-token';
const CHANNEL = '19:alerts@thread.tacv2';
const MAX_WORKLOADS = 2;

let redis: TestRedis;
let teams: TeamsStandin;
let app: AppRuntime;
let diagnoseWorker: Worker<DiagnoseJob>;
let workerConnection: ReturnType<typeof createWorkerConnection>;
let workerNotify: ReturnType<typeof workerNotifyProducers>;
const diagnoseJobs: DiagnoseJob[] = [];

function diagnosisFor(job: DiagnoseJob): Diagnosis {
  if (job.mode !== 'workload') throw new Error('scan not expected');
  const name = job.resolveFromPods?.[0]?.replace(/-[a-z0-9]+-[a-z0-9]{5}$/, '') ?? job.target.name;
  return {
    target: { kind: 'Deployment', namespace: job.target.namespace, name },
    capturedAt: new Date().toISOString(),
    observed: { uid: `uid-${name}`, generation: 3, resourceVersion: '42' },
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

beforeAll(async () => {
  redis = await startRedis();
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  const config = loadAppConfig({
    ...testKeys.appEnv,
    ROLLOUT_DOCTOR_READERS: '*',
    REDIS_URL: redis.url,
    ALERTMANAGER_TOKEN: TOKEN,
    ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS: String(MAX_WORKLOADS),
    ...teamsAppEnv(teams),
    TEAMS_ALERT_CONVERSATION: CHANNEL,
  });
  expect(config.slack).toBeUndefined();
  app = await startAppRuntime(
    config,
    createLogger({ level: (process.env.TL as 'warn') ?? 'silent', name: 'teams-alerts' }),
    {
      host: '127.0.0.1',
      port: 0,
    },
  );
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
        outcome: { status: 'diagnosed', diagnosis: diagnosisFor(job.data), dryRuns: {} },
      });
    },
    { connection: workerConnection, prefix: QUEUE_PREFIX },
  );
  diagnoseWorker.on('error', () => undefined);
});

afterAll(async () => {
  await diagnoseWorker?.close();
  await workerNotify?.close();
  workerConnection?.disconnect();
  await app?.stop();
  await teams?.close();
  await redis?.close();
});

/** Thread roots: the activity each channel thread was created with. */
const roots = (): PostedActivity[] =>
  teams.posted(CHANNEL).filter((a) => a.conversationId === `${CHANNEL};messageid=${a.id}`);
const text = (a: PostedActivity): string => JSON.stringify(a.activity);

async function deliver(payload: unknown): Promise<number> {
  const response = await fetch(`${app.handle.url}/alerts/alertmanager`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });
  return response.status;
}

describe('alert threads in a Teams channel', () => {
  it('opens one thread root card per workload and posts the diagnosis result in it', async () => {
    expect(await deliver(notification([crashLooping('web-5d9c7b6f4-abcde')]))).toBe(200);
    const root = await teams.waitFor(() =>
      roots().find((a) => text(a).includes('shop/pod/web-5d9c7b6f4-abcde')),
    );
    expect(root.conversationId).toBe(`${CHANNEL};messageid=${root.id}`);
    expect(root.activity).toMatchObject({
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
    expect(text(root)).toContain('Firing:');
    const result = await teams.waitFor(() =>
      teams.posted(root.conversationId).find((a) => a.id !== root.id && text(a).includes('CrashLoopOnNode')),
    );
    expect(text(result)).toContain('gpu-7');
    // The app marks the thread answered, so the run deadline leaves it alone.
    const thread = { platform: 'teams' as const, channel: CHANNEL, ts: root.id };
    await vi.waitFor(async () => expect(await app.services.subscriptions.answered(thread)).toBe(true));
    // The same workload alerting again joins its thread: still one root.
    expect(await deliver(notification([crashLooping('web-5d9c7b6f4-abcde')], { groupKey: 'other' }))).toBe(
      200,
    );
    // Only once everything the delivery queued has run is "still one root" a fact.
    await waitForIdleQueues(redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES]);
    expect(roots().filter((a) => text(a).includes('shop/pod/web-'))).toHaveLength(1);
  });

  it('a flood opens at most ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS threads and diagnoses', async () => {
    const before = roots().length;
    const jobsBefore = diagnoseJobs.length;
    const pods = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) =>
      crashLooping(`flood-${n}-5d9c7b6f4-abcde`, 'batch'),
    );
    expect(await deliver(notification(pods, { groupKey: '{}/{alertname="flood"}' }))).toBe(200);
    await teams.waitFor(() => roots().length >= before + MAX_WORKLOADS + 1);
    await teams.waitFor(() => diagnoseJobs.length >= jobsBefore + MAX_WORKLOADS);
    // Any extra thread or diagnosis would be queued by now: count once the queues are idle.
    await waitForIdleQueues(redis.url, [diagnoseQueueName('default'), ...NOTIFY_QUEUES]);
    const summaries = roots().filter((a) => text(a).includes('got no thread and no diagnosis'));
    const threads = roots().filter((a) => !summaries.includes(a));
    expect(threads.length - before).toBe(MAX_WORKLOADS);
    expect(diagnoseJobs.length - jobsBefore).toBe(MAX_WORKLOADS);
    // The rest get the one overflow summary, a card posted in the Teams channel.
    expect(summaries).toHaveLength(1);
    expect(text(summaries[0] as PostedActivity)).toContain('4 more (4 firing)');
    expect(text(summaries[0] as PostedActivity)).toContain('ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS');
  });
});
