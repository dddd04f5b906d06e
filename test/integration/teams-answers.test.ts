/**
 * Teams messages end in the answers Slack gives. A not-found diagnosis is told to the
 * asker alone (the bot's personal chat with them) and the public announcement deleted.
 * The run deadline (ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS) holds Teams messages to an
 * answer as it holds Slack ones: a Teams-only app, no worker (runs never finish, as when
 * a worker died mid-run), the Teams stand-in playing the Bot Connector. A command's
 * announcement card becomes "this run could not finish"; an alert thread's root card
 * keeps the alert and gets the answer as a reply in its thread; both audited
 * `unfinished`. A run whose result came (a signed result, as a worker sends it) keeps
 * its result card.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { AuditEvent } from '../../src/audit.js';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { crashLooping, notification } from '../support/alert-payloads.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import {
  startTeamsStandin,
  type Person,
  type PostedActivity,
  type TeamsStandin,
  teamsAppEnv,
  askDiagnosis,
} from '../support/teams-standin.js';
import { workerNotifyProducers } from '../support/worker-notify.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TOKEN = 'teams-answers-token';
const ALERTS = '19:alerts@thread.tacv2';
const OPS = '19:ops@thread.tacv2';
const COULD_NOT_FINISH = 'could not finish: no result came within 2 s';
const asker: Person = { id: '29:asker', name: 'Asker', aadObjectId: randomUUID() };

let redis: TestRedis;
let teams: TeamsStandin;
let app: AppRuntime;
let queue: Queue;
let workerNotify: ReturnType<typeof workerNotifyProducers>;
const audited: AuditEvent[] = [];

beforeAll(async () => {
  redis = await startRedis();
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  const config = loadAppConfig({
    ...testKeys.appEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_READERS: '*',
    ROLLOUT_DOCTOR_RUN_DEADLINE_SECONDS: '2',
    ALERTMANAGER_TOKEN: TOKEN,
    ...teamsAppEnv(teams),
    TEAMS_ALERT_CONVERSATION: ALERTS,
  });
  expect(config.slack).toBeUndefined();
  app = await startAppRuntime(config, createLogger({ level: 'silent', name: 'teams-answers' }), {
    host: '127.0.0.1',
    port: 0,
  });
  const record = app.services.audit.record.bind(app.services.audit);
  vi.spyOn(app.services.audit, 'record').mockImplementation((event) => {
    audited.push(event);
    record(event);
  });
  queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
  workerNotify = workerNotifyProducers(redis.url);
});

afterAll(async () => {
  await workerNotify?.close();
  await queue?.close();
  await app?.stop();
  await teams?.close();
  await redis?.close();
});

const text = (a: PostedActivity): string => JSON.stringify(a.activity);
const unfinished = (): AuditEvent[] =>
  audited.filter((e) => e.action === 'refusal' && e.reason === 'unfinished');

const command = (workload: string, thread: string): Promise<PostedActivity> =>
  askDiagnosis(teams, app.handle.url, asker, workload, thread);

describe('a not-found diagnosis on Teams', () => {
  it("is told to the asker alone in the bot's personal chat, and the public announcement goes", async () => {
    const thread = `${OPS};messageid=1700000000003`;
    const announced = await command('missing', thread);
    const job = await queue.getJob('diagnose.shop.missing');
    await workerNotify.enqueueNotify({
      kind: 'diagnosis-result',
      jobId: 'diagnose.shop.missing',
      cluster: 'default',
      runTs: job?.timestamp ?? 0,
      seq: 1,
      outcome: {
        status: 'failed',
        reason: 'deployment/missing not found in namespace shop',
        notFound: { namespace: 'shop', name: 'missing', suggestions: ['web'] },
      },
    });
    const told = await teams.waitFor((s) =>
      s
        .posted(`a:personal-${asker.id.slice(3)}`)
        .find((a) => text(a).includes('not found in namespace shop')),
    );
    expect(text(told)).toContain('did you mean deployment/web?');
    // Opened with the asker as the one member.
    expect(teams.calls).toContainEqual(
      expect.objectContaining({
        method: 'POST',
        path: '/v3/conversations',
        body: expect.objectContaining({ isGroup: false, members: [{ id: asker.id }] }),
      }),
    );
    await teams.waitFor((s) => !s.activities.has(announced.id));
    expect(teams.posted(OPS).filter((a) => text(a).includes('not found'))).toEqual([]);
  });
});

describe('the run deadline on Teams', () => {
  it("a command's announcement card says the run could not finish, audited; an answered one keeps its result", async () => {
    // Answered: a signed result reaches the card before the deadline.
    const answered = await command('api', `${OPS};messageid=1700000000001`);
    const job = await queue.getJob('diagnose.shop.api');
    await workerNotify.enqueueNotify({
      kind: 'diagnosis-result',
      jobId: 'diagnose.shop.api',
      cluster: 'default',
      runTs: job?.timestamp ?? 0,
      seq: 1,
      outcome: { status: 'failed', reason: 'cluster unreachable in the stand-in' },
    });
    await teams.waitFor((s) => {
      const card = s.activities.get(answered.id);
      return card && text(card).includes('cluster unreachable in the stand-in') ? card : undefined;
    });
    // Unanswered: nothing ever comes for it.
    const waiting = await command('web', `${OPS};messageid=1700000000002`);
    const told = await teams.waitFor((s) => {
      const card = s.activities.get(waiting.id);
      return card && text(card).includes(COULD_NOT_FINISH) ? card : undefined;
    }, SIGNAL_WAIT_MS);
    expect(text(told)).toContain('run diagnose.shop.web');
    expect(text(told)).toContain('Nothing was changed');
    expect(unfinished()).toEqual([
      expect.objectContaining({
        planId: 'diagnose',
        cluster: 'default',
        namespace: 'shop',
        deployment: 'web',
        user: asker.aadObjectId,
        detail: 'job diagnose.shop.web: no result within 2 s',
      }),
    ]);
    // The answered card's deadline passed first: it still shows its result.
    expect(text(teams.activities.get(answered.id) as PostedActivity)).not.toContain(COULD_NOT_FINISH);
  });

  it("an alert thread's root card keeps the alert; the answer is a reply in its thread, audited", async () => {
    const response = await fetch(`${app.handle.url}/alerts/alertmanager`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(notification([crashLooping('cart-5d9c7b6f4-abcde')])),
    });
    expect(response.status).toBe(200);
    const root = await teams.waitFor((s) =>
      s
        .posted(ALERTS)
        .find((a) => a.conversationId === `${ALERTS};messageid=${a.id}` && text(a).includes('cart')),
    );
    const reply = await teams.waitFor(
      (s) =>
        s.posted(root.conversationId).find((a) => a.id !== root.id && text(a).includes(COULD_NOT_FINISH)),
      SIGNAL_WAIT_MS,
    );
    expect(text(reply)).toContain('The diagnosis for this alert could not finish');
    expect(teams.activities.get(root.id)?.updates).toBe(0);
    expect(text(teams.activities.get(root.id) as PostedActivity)).toContain('Firing:');
    expect(unfinished().filter((e) => e.planId === 'alert')).toEqual([
      expect.objectContaining({ cluster: 'default', namespace: 'shop', user: 'ALERTMANAGER' }),
    ]);
  });
});
