/**
 * Teams in the real app process (`npm start`'s runtime, private Redis), beside Slack:
 * `@rollout-doctor diagnose deployment/web -n shop` in a Teams channel, with a token
 * from the Teams stand-in's key, queues the same diagnosis job a Slack
 * `/rollout-doctor web -n shop` does (the Slack command joins it), and the announcement
 * card goes to the post's thread through the stand-in's Bot Connector. The read policy
 * holds for Teams users by Entra object id. Settings come through loadAppConfig.
 */
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { startTestApp } from '../support/app-bootstrap.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { startTeamsStandin, type Person, type TeamsStandin, teamsAppEnv } from '../support/teams-standin.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const SECRET = 'teams-app-secret';
const TOKEN = 'xoxb-teams-app';
const CHANNEL = '19:ops@thread.tacv2';
const reader: Person = { id: '29:reader', name: 'Reader', aadObjectId: randomUUID() };
const stranger: Person = { id: '29:stranger', name: 'Stranger', aadObjectId: randomUUID() };

let redis: TestRedis;
let slack: SlackStandin;
let teams: TeamsStandin;
let app: AppRuntime;
let events: string;
let botUrl: string;
let queue: Queue;

beforeAll(async () => {
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: TOKEN });
  teams = await startTeamsStandin({ appPassword: 'teams-secret' });
  ({ app, events } = await startTestApp({
    slack,
    redisUrl: redis.url,
    secret: SECRET,
    token: TOKEN,
    env: {
      // The Teams reader by Entra object id (upper case: compared in lower case), and Slack's U0SLACK.
      ROLLOUT_DOCTOR_READERS: `U0SLACK,${reader.aadObjectId.toUpperCase()}`,
      ...teamsAppEnv(teams),
      LOG_LEVEL: 'silent',
    },
  }));
  botUrl = `${app.handle.url}/api/messages`;
  queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
});

afterAll(async () => {
  await queue?.close();
  await app?.stop();
  await teams?.close();
  await slack?.close();
  await redis?.close();
});

const jobs = async () => queue.getJobs(['waiting', 'active', 'delayed']);

describe('Teams in the app', () => {
  it('queues the same diagnosis as Slack and announces it in the thread', async () => {
    const thread = `${CHANNEL};messageid=1700000000001`;
    const message = teams.message({
      text: 'diagnose deployment/web -n shop',
      from: reader,
      conversationId: thread,
    });
    expect((await teams.send(botUrl, message)).status).toBe(200);
    const queued = await jobs();
    expect(queued.map((j) => j.id)).toEqual(['diagnose.shop.web']);
    const announced = await teams.waitFor((s) => s.posted(thread)[0]);
    expect(JSON.stringify(announced.activity)).toContain('web');
    expect(announced.activity).toMatchObject({
      type: 'message',
      attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive' }],
    });
    // Slack's command for the same workload joins that job: one diagnosis, two platforms.
    const slash = await postSigned(
      events,
      SECRET,
      slashCommandBody({ text: 'web -n shop', user_id: 'U0SLACK' }),
    );
    expect(slash.status).toBe(200);
    expect((await jobs()).map((j) => j.id)).toEqual(['diagnose.shop.web']);
  });

  it('refuses a Teams user the read policy does not list, privately in their personal chat, and queues nothing', async () => {
    const thread = `${CHANNEL};messageid=1700000000002`;
    const message = teams.message({
      text: 'diagnose deployment/api -n shop',
      from: stranger,
      conversationId: thread,
    });
    expect((await teams.send(botUrl, message)).status).toBe(200);
    // Never in the thread, where everyone reads it (issue 54): the bot's personal chat.
    const reply = await teams.waitFor(
      (s) => s.posted(`a:personal-${stranger.id.slice(3)}`)[0],
      SIGNAL_WAIT_MS,
    );
    expect(JSON.stringify(reply.activity)).toContain('you may not read namespace shop');
    expect(teams.posted(thread)).toEqual([]);
    expect((await jobs()).map((j) => j.id)).not.toContain('diagnose.shop.api');
  });

  it('refuses an unsigned activity on the app port', async () => {
    const message = teams.message({
      text: 'diagnose deployment/web -n shop',
      from: reader,
      conversationId: CHANNEL,
    });
    expect((await teams.send(botUrl, message, { token: null })).status).toBe(401);
  });
});
