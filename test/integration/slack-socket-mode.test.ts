import { Queue } from 'bullmq';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { rawRequest } from '../support/raw-http.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { slashCommandBody } from '../support/slack-sign.js';
import { startSlackSocketStandin, type SlackSocketStandin } from '../support/slack-socket-standin.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { testKeys } from '../support/plan-keys.js';

const BOT_TOKEN = 'xoxb-socket-test-token';
const APP_TOKEN = 'xapp-1-A0001-socket-test-token';

/** A slash command as Socket Mode carries it: the form fields as a JSON object. */
function slashPayload(text: string, userId = 'U0SOCKET'): Record<string, unknown> {
  return Object.fromEntries(new URLSearchParams(slashCommandBody({ text, user_id: userId })));
}

describe('Slack app in Socket Mode', () => {
  let redis: TestRedis;
  let slack: SlackStandin;
  let socket: SlackSocketStandin;
  let runtime: AppRuntime;
  let queue: Queue;
  const logLines: string[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    socket = await startSlackSocketStandin();
    slack = await startSlackStandin({ botToken: BOT_TOKEN, appToken: APP_TOKEN, socketUrl: socket.url });
    // No signing secret: SLACK_APP_TOKEN alone selects Socket Mode.
    const config = loadAppConfig({
      ...testKeys.appEnv,
      // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
      ROLLOUT_DOCTOR_READERS: '*',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_APP_TOKEN: APP_TOKEN,
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      ROLLOUT_DOCTOR_CLUSTERS: 'default',
      LOG_LEVEL: 'debug',
    });
    expect(config.mode).toBe('socket');
    const sink = new Writable({ write: (chunk: Buffer, _e, cb) => (logLines.push(chunk.toString()), cb()) });
    runtime = await startAppRuntime(config, createLogger({ level: 'debug', name: 'test' }, sink), {
      host: '127.0.0.1',
      port: 0,
    });
    queue = new Queue(diagnoseQueueName('default'), { connection: { url: redis.url }, prefix: QUEUE_PREFIX });
  });

  afterAll(async () => {
    await queue?.close();
    await runtime?.stop();
    await socket?.close();
    await slack?.close();
    await redis?.close();
  });

  it('opened the connection through SLACK_API_URL with the app token and is connected', () => {
    // The stand-in refuses apps.connections.open with any token but APP_TOKEN.
    expect(slack.callsOf('apps.connections.open').map((c) => c.response.ok)).toEqual([true]);
    expect(slack.callsOf('auth.test').map((c) => c.response.ok)).toEqual([true]);
    expect(socket.openConnections()).toBe(1);
  });

  it('serves its routes on its own HTTP server: malformed paths get 404, /healthz keeps answering', async () => {
    // Bolt's Socket Mode receiver served customRoutes from an async handler whose
    // new URL('//', base) throws: the unhandled rejection ended the process.
    const url = runtime.handle.url;
    for (const path of ['/%', '/%zz', '//', '/', '/favicon.ico']) {
      expect((await rawRequest(url, `GET ${path} HTTP/1.1\r\nHost: x`)).status, path).toBe(404);
    }
    expect((await rawRequest(url, 'POST /healthz HTTP/1.1\r\nHost: x')).status).toBe(405);
    expect((await rawRequest(url, 'GET /healthz HTTP/1.1\r\nHost: x')).status).toBe(200);
  });

  it('acks a slash_commands envelope fast with its envelope_id and queues exactly one diagnosis', async () => {
    const { envelopeId, ack, ms } = await socket.send(
      'slash_commands',
      slashPayload('vision-object-tracker -n vision'),
    );
    expect(ack.envelopeId).toBe(envelopeId);
    expect(ms).toBeLessThan(3000);
    // A plain ack: nothing ephemeral goes back for a queued command.
    expect(ack.payload?.text).toBeUndefined();

    const jobs = await queue.getJobs(['waiting', 'active', 'delayed', 'prioritized']);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]?.data).toMatchObject({
      mode: 'workload',
      cluster: 'default',
      target: { namespace: 'vision', name: 'vision-object-tracker' },
      requestedBy: 'U0SOCKET',
    });
    // The visible "diagnosing…" message goes through the Web API stand-in with the bot token.
    const post = await slack.waitFor((s) => s.callsOf('chat.postMessage')[0]);
    expect(post.response.ok).toBe(true);
    expect(String(post.args.text)).toContain('deployment/vision-object-tracker in vision');
  });

  it('answers a malformed command in the ack with the ephemeral usage and queues nothing', async () => {
    const before = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    for (const text of ['Vision_Tracker -n vision', 'vision-object-tracker -n', 'a b']) {
      const { envelopeId, ack } = await socket.send('slash_commands', slashPayload(text));
      expect(ack.envelopeId).toBe(envelopeId);
      expect(ack.payload).toMatchObject({ response_type: 'ephemeral' });
      expect(String(ack.payload?.text)).toContain('Usage');
    }
    expect(await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized')).toEqual(before);
    expect(socket.invalidFrames).toEqual([]);
  });
});
