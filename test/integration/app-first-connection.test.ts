/**
 * An app that has just started answers its first command with Redis as it is. The app's
 * producer connection has no offline queue (a command must be able to say "queue
 * unavailable" inside Slack's 3 s), so a command that came while the connection was still
 * being made was refused "Redis is unreachable" although Redis was fine: on a loaded
 * machine, four tests' first commands were refused so and they waited a minute for a
 * message that never came. The start now waits for the first connect (bounded, and not
 * when Redis refuses: then the answers say so).
 *
 * Played with a TCP proxy that holds every byte (test/support/redis-faults.ts): the app
 * starts while its connection's ready check waits, the proxy lets it through, and the
 * first command is queued and announced, not refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app-bootstrap.js';
import { startRedisPartition, type RedisPartition } from '../support/redis-faults.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { waitUntil } from '../support/wait.js';

const SECRET = 'first-connection-secret';
const TOKEN = 'xoxb-first-connection';

let redis: TestRedis;
let link: RedisPartition;
let slack: SlackStandin;
let started: TestApp | undefined;

beforeAll(async () => {
  redis = await startRedis();
  link = await startRedisPartition(redis.port);
  slack = await startSlackStandin({ botToken: TOKEN });
});

afterAll(async () => {
  await started?.app.stop();
  await slack?.close();
  await link?.close();
  await redis?.close();
});

describe('an app just started', () => {
  it('serves once its Redis connection is made: the first command is queued, not refused as "unreachable"', async () => {
    link.stall();
    const starting = startTestApp({
      slack,
      redisUrl: link.url,
      secret: SECRET,
      token: TOKEN,
      env: { ROLLOUT_DOCTOR_READERS: '*' },
    });
    // The connection's first call (its ready check) waits on the stalled link.
    await waitUntil('the app connecting to Redis', () => link.holding());
    link.heal();
    started = await starting;
    expect(started.app.services.redisStatus?.()).toBe('ready');

    const answer = await postSigned(started.events, SECRET, slashCommandBody({ text: 'web -n shop' }));
    expect(answer.status).toBe(200);
    expect(answer.body).toBe(''); // queued: no private refusal in the ack
    const announced = await slack.waitFor((s) =>
      s.callsOf('chat.postMessage').find((c) => String(c.args.text).includes('deployment/web in shop')),
    );
    expect(String(announced.args.text)).toContain('asked for a diagnosis of deployment/web in shop');
  });
});
