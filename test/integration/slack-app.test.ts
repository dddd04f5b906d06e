import { request } from 'node:http';
import { Queue } from 'bullmq';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { postSigned, signedHeaders, slashCommandBody } from '../support/slack-sign.js';
import { testKeys } from '../support/plan-keys.js';

const SECRET = 'test-signing-secret';
const TOKEN = 'xoxb-test-token-123';

describe('Slack app over HTTP', () => {
  let redis: TestRedis;
  let slack: SlackStandin;
  let runtime: AppRuntime;
  let events: string;
  let queue: Queue;
  const logLines: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    slack = await startSlackStandin({ botToken: TOKEN });
    const config = loadAppConfig({
      ...testKeys.appEnv,
      // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
      ROLLOUT_DOCTOR_READERS: '*',
      SLACK_BOT_TOKEN: TOKEN,
      SLACK_SIGNING_SECRET: SECRET,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      ROLLOUT_DOCTOR_CLUSTERS: 'default,prod',
      ROLLOUT_DOCTOR_APPROVERS: 'U0APPROVER',
      LOG_LEVEL: 'debug',
      METRICS_PORT: '0',
      METRICS_HOST: '127.0.0.1',
    });
    const sink = new Writable({ write: (chunk: Buffer, _e, cb) => (logLines.push(chunk.toString()), cb()) });
    runtime = await startAppRuntime(config, createLogger({ level: 'debug', name: 'test' }, sink), {
      host: '127.0.0.1',
      port: 0,
    });
    events = `${runtime.handle.url}/slack/events`;
    queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
    queue.on('error', () => undefined); // Redis is stopped on purpose in one test
  });

  afterAll(async () => {
    await queue?.close();
    await runtime?.stop();
    await slack?.close();
    await redis?.close();
  });

  const queued = async (): Promise<number> =>
    (await queue.getJobCounts('waiting', 'active', 'delayed')).waiting ?? 0;

  it('called auth.test once at start and reports ready', async () => {
    expect(slack.callsOf('auth.test')).toHaveLength(1);
    const res = await fetch(`${runtime.handle.url}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ redis: 'ok', slack: 'ok' });
    expect((await fetch(`${runtime.handle.url}/healthz`)).status).toBe(200);
  });

  // Each test stands alone: they share one app, so they assert on their own targets
  // and on changes they cause (counts before and after), never on totals left by others.
  it('refuses a bad signature, a stale and a future timestamp with a bare 401 and queues nothing', async () => {
    const queuedBefore = await queued();
    const postsBefore = slack.callsOf('chat.postMessage').length;
    const body = slashCommandBody({ text: 'unsigned -n shop' });
    const now = Math.floor(Date.now() / 1000);
    for (const [secret, ts] of [
      ['wrong-secret', now],
      // Well past the 5-minute window either way, so a slow machine (seconds between
      // reading the clock here and the app checking it) cannot move one inside it.
      [SECRET, now - 400],
      [SECRET, now + 400],
    ] as const) {
      const res = await postSigned(events, secret, body, ts);
      expect(res.status).toBe(401);
      expect(res.body).toBe('');
    }
    // The same future-dated request on a raw path Bolt would normalise to /slack/events
    // (fetch would normalise it before sending, so send it with node:http): routes
    // match exactly, so it never reaches Bolt.
    const { hostname, port } = new URL(events);
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: hostname,
          port,
          path: '/./slack/events',
          method: 'POST',
          headers: signedHeaders(SECRET, body, now + 3_600),
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(404);
    expect(await queue.getJob('diagnose.shop.unsigned')).toBeUndefined();
    expect(await queued()).toBe(queuedBefore);
    expect(slack.callsOf('chat.postMessage')).toHaveLength(postsBefore);
  });

  it('answers a malformed command with the ephemeral usage and queues nothing', async () => {
    const queuedBefore = await queued();
    for (const text of ['Web_App', 'web -n', 'web --cluster nowhere', 'pods/x', 'a b']) {
      const res = await postSigned(events, SECRET, slashCommandBody({ text }));
      expect(res.status).toBe(200);
      const json = JSON.parse(res.body) as { response_type: string; text: string };
      expect(json.response_type).toBe('ephemeral');
      expect(json.text).toContain('Usage');
    }
    expect(await queued()).toBe(queuedBefore);
  });

  it('acks a valid command fast, queues one job per target and posts a visible message; a repeat joins', async () => {
    const queuedBefore = await queued();
    const postsBefore = slack.callsOf('chat.postMessage').length;
    const first = await postSigned(
      events,
      SECRET,
      slashCommandBody({ text: 'deployment/web -n shop', user_id: 'U0A' }),
    );
    expect(first.status).toBe(200);
    expect(first.ms).toBeLessThan(3000);
    const second = await postSigned(
      events,
      SECRET,
      slashCommandBody({ text: 'web -n shop', user_id: 'U0B' }),
    );
    expect(second.status).toBe(200);
    const job = await queue.getJob('diagnose.shop.web');
    expect(job?.data).toMatchObject({
      mode: 'workload',
      cluster: 'default',
      target: { namespace: 'shop', name: 'web' },
      requestedBy: 'U0A',
    });
    expect(await queued()).toBe(queuedBefore + 1);
    const posts = await slack.waitFor((s) =>
      s.callsOf('chat.postMessage').length >= postsBefore + 2
        ? s.callsOf('chat.postMessage').slice(postsBefore)
        : false,
    );
    expect(String(posts[0]?.args.text)).toContain('deployment/web in shop');
    expect(String(posts[1]?.args.text)).toContain('joining');
  });

  it('serves metrics with the command counter on METRICS_PORT only, not on the public port', async () => {
    expect((await fetch(`${runtime.handle.url}/metrics`)).status).toBe(404);
    expect(runtime.handle.metricsUrl).not.toBe(runtime.handle.url);
    const counted = async (): Promise<{ queued: number; usage: number }> => {
      const text = await (await fetch(`${runtime.handle.metricsUrl}/metrics`)).text();
      const value = (labels: string): number =>
        Number(new RegExp(`^rollout_doctor_commands_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      return {
        queued: value('command="diagnose",outcome="queued"'),
        usage: value('command="invalid",outcome="usage"'),
      };
    };
    const before = await counted();
    expect((await postSigned(events, SECRET, slashCommandBody({ text: 'metered -n shop' }))).status).toBe(
      200,
    );
    for (const text of ['Bad_Name', 'x -n']) {
      expect((await postSigned(events, SECRET, slashCommandBody({ text }))).status).toBe(200);
    }
    expect(await counted()).toEqual({ queued: before.queued + 1, usage: before.usage + 2 });
  });

  it('never logs the token or the signing secret', () => {
    const all = logLines.join('');
    expect(all.length).toBeGreaterThan(0);
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(SECRET);
  });

  it('answers "queue unavailable" within 3 s when Redis is down, and readyz says not ready', async () => {
    await redis.stop();
    try {
      const res = await postSigned(events, SECRET, slashCommandBody({ text: 'api -n shop' }));
      expect(res.status).toBe(200);
      expect(res.ms).toBeLessThan(3000);
      expect(JSON.parse(res.body)).toMatchObject({
        response_type: 'ephemeral',
        text: expect.stringContaining('queue is unavailable'),
      });
      const ready = await fetch(`${runtime.handle.url}/readyz`);
      expect(ready.status).toBe(503);
      // Only ok/unreachable and the connection's state: the error's text (addresses, a
      // URL with a password) is logged instead.
      const body = (await ready.json()) as { waitingFor: string[] };
      expect(body).toEqual({
        status: 'not ready',
        redis: 'unreachable',
        slack: 'ok',
        waitingFor: [expect.stringMatching(/^redis \((connecting|reconnecting|connect|close|end)\)$/)],
      });
    } finally {
      await redis.start();
    }
  });
});
