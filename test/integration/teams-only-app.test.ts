/**
 * A Teams-only install: the real app runtime started from an environment with Teams
 * settings and no Slack variable. It serves /healthz, /readyz (ready without Slack, which
 * it reports as off) and the Teams endpoint, has no /slack/events, queues a diagnosis
 * for `@rollout-doctor diagnose …` and announces it in the Teams thread.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startTeamsStandin, type Person, type TeamsStandin, teamsAppEnv } from '../support/teams-standin.js';

const CHANNEL = '19:ops@thread.tacv2';
const reader: Person = { id: '29:reader', name: 'Reader', aadObjectId: randomUUID() };

let redis: TestRedis;
let teams: TeamsStandin;
let app: AppRuntime;
let queue: Queue;

beforeAll(async () => {
  redis = await startRedis();
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  const env = {
    ...testKeys.appEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_READERS: reader.aadObjectId,
    ...teamsAppEnv(teams),
  };
  expect(Object.keys(env).filter((k) => k.startsWith('SLACK_'))).toEqual([]);
  app = await startAppRuntime(loadAppConfig(env), createLogger({ level: 'silent', name: 'teams-only' }), {
    host: '127.0.0.1',
    port: 0,
  });
  queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
});

afterAll(async () => {
  await queue?.close();
  await app?.stop();
  await teams?.close();
  await redis?.close();
});

describe('a Teams-only install', () => {
  it('is ready without Slack, says Slack is off, and has no Slack route', async () => {
    expect(app.services.config.slack).toBeUndefined();
    expect((await fetch(`${app.handle.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${app.handle.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', redis: 'ok', slack: 'off' });
    const slack = await fetch(`${app.handle.url}/slack/events`, { method: 'POST', body: 'x' });
    expect(slack.status).toBe(404);
  });

  it('queues a diagnosis from Teams and announces it in the thread', async () => {
    const thread = `${CHANNEL};messageid=1700000000001`;
    const message = teams.message({
      text: 'diagnose deployment/web -n shop',
      from: reader,
      conversationId: thread,
    });
    expect((await teams.send(`${app.handle.url}/api/messages`, message)).status).toBe(200);
    const queued = await queue.getJobs(['waiting', 'active', 'delayed']);
    expect(queued.map((j) => j.id)).toEqual(['diagnose.shop.web']);
    const announced = await teams.waitFor((s) => s.posted(thread)[0]);
    expect(announced.activity).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
  });
});
