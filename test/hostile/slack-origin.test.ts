/**
 * Requests signed with the right secret but from another workspace or app (an
 * org-wide install, a signing secret shared between apps): with SLACK_TEAM_ID and
 * SLACK_APP_ID set they are acked and dropped, queue nothing and post nothing; the
 * same request from the configured team and app is served.
 */
import { Writable } from 'node:stream';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp } from '../support/app-bootstrap.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { blockActionBody, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';

const SECRET = 'origin-secret';
const TOKEN = 'xoxb-origin';

let redis: TestRedis;
let slack: SlackStandin;
let app: AppRuntime;
let events: string;
let queue: Queue;
const logLines: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: TOKEN });
  const sink = new Writable({ write: (chunk: Buffer, _e, cb) => (logLines.push(chunk.toString()), cb()) });
  ({ app, events } = await startTestApp({
    slack,
    redisUrl: redis.url,
    secret: SECRET,
    token: TOKEN,
    env: {
      // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
      ROLLOUT_DOCTOR_READERS: '*',
      // slashCommandBody and blockActionPayload use team T0001 and app A0001.
      SLACK_TEAM_ID: 'T0001',
      SLACK_APP_ID: 'A0001',
      LOG_LEVEL: 'info',
    },
    logger: createLogger({ level: 'info', name: 'origin' }, sink),
  }));
  queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
});

afterAll(async () => {
  await queue?.close();
  await app?.stop();
  await slack?.close();
  await redis?.close();
});

const jobs = async (): Promise<number> => (await queue.getJobs(['waiting', 'active', 'delayed'])).length;

const command = (fields: Record<string, string>): string => {
  const params = new URLSearchParams(slashCommandBody({ text: 'web -n shop' }));
  for (const [k, v] of Object.entries(fields)) params.set(k, v);
  return params.toString();
};

describe('requests from another workspace or app', () => {
  it('acks and drops a slash command from another team or app; queues and posts nothing', async () => {
    const foreign: Record<string, string>[] = [
      { team_id: 'T0EVIL' },
      { api_app_id: 'A0EVIL' },
      { team_id: '' },
    ];
    for (const fields of foreign) {
      const res = await postSigned(events, SECRET, command(fields));
      expect(res.status).toBe(200);
      expect(res.body).toBe('');
    }
    expect(await jobs()).toBe(0);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(0);
    expect(logLines.filter((l) => l.includes('another workspace or app'))).toHaveLength(3);
  });

  it('drops a block action whose team.id is another workspace', async () => {
    const payload = {
      type: 'block_actions',
      user: { id: 'U0001', team_id: 'T0EVIL' },
      api_app_id: 'A0001',
      team: { id: 'T0EVIL', domain: 'evil' },
      container: { type: 'message', message_ts: '1.2', channel_id: 'C0001' },
      channel: { id: 'C0001' },
      trigger_id: '1.1.abc',
      response_url: 'http://127.0.0.1:9/actions',
      actions: [{ action_id: 'rerun_diagnosis', block_id: 'b0', type: 'button', value: 'x', action_ts: '1' }],
    };
    const before = logLines.length;
    const res = await postSigned(events, SECRET, blockActionBody(payload));
    expect(res.status).toBe(200);
    expect(logLines.slice(before).some((l) => l.includes('foreign-team'))).toBe(true);
    expect(await jobs()).toBe(0);
  });

  it('serves the same command from the configured team and app', async () => {
    const res = await postSigned(events, SECRET, command({}));
    expect(res.status).toBe(200);
    expect(await jobs()).toBe(1);
  });
});
