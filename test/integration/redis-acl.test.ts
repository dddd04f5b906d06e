/**
 * The Redis users that deploy/ ships (deploy/redis-users.yaml, rendered from the chart)
 * are enough for the app and a worker to do everything they do, and no more: a command,
 * its result, an approval, the remediation and its outcome run with the app and the
 * worker each logged in as its own ACL user, while admin and dangerous commands are
 * refused. The rules are used as Redis gets them: with the SHA-256 of each password, as
 * the init container of deploy/redis.yaml writes them.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { AppRuntime } from '../../src/app/runtime.js';
import { createLogger } from '../../src/logger.js';
import type { WorkerRuntime } from '../../src/worker/runtime.js';
import { fakeClusterDeps } from '../support/fake-cluster.js';
import { startTestApp, startTestWorkers } from '../support/app-bootstrap.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { postClick, postSigned, slashCommandBody } from '../support/slack-sign.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';

const SECRET = 'acl-secret';
const TOKEN = 'xoxb-acl-token';
const LEAD = 'U0LEAD';

const shippedDocs = parseAllDocuments(readFileSync('deploy/redis-users.yaml', 'utf8')).map(
  (d) => d.toJS() as { kind: string; data?: Record<string, string>; stringData?: Record<string, string> },
);
/** The ACL rules with @APP_PASSWORD_SHA256@ / @WORKER_PASSWORD_SHA256@ where the hashes go. */
const SHIPPED_ACL = shippedDocs.find((d) => d.kind === 'ConfigMap')?.data?.['users.acl'] ?? '';
const PASSWORDS = { app: 'app-pw-0123456789', worker: 'worker-pw-0123456789' };
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('Redis ACL users shipped in deploy/', () => {
  let redis: TestRedis;
  let slack: SlackStandin;
  let app: AppRuntime;
  let workers: WorkerRuntime;
  const applied: string[] = [];
  const userUrl = (user: 'app' | 'worker'): string =>
    redis.url.replace('redis://', `redis://${user}:${PASSWORDS[user]}@`);

  beforeAll(async () => {
    redis = await startRedis();
    const admin = new Redis(redis.url);
    try {
      // The shipped rules with test passwords; the test's own default user stays on for setup.
      const rules = SHIPPED_ACL.replaceAll('@APP_PASSWORD_SHA256@', sha256(PASSWORDS.app))
        .replaceAll('@WORKER_PASSWORD_SHA256@', sha256(PASSWORDS.worker))
        .split('\n')
        .filter((line) => line.startsWith('user ') && !line.startsWith('user default '));
      expect(rules).toHaveLength(3);
      for (const line of rules) {
        const [, name, ...rest] = line.trim().split(/\s+/);
        await admin.call('ACL', 'SETUSER', name ?? '', ...rest);
      }
    } finally {
      admin.disconnect();
    }
    slack = await startSlackStandin({ botToken: TOKEN });
    ({ app } = await startTestApp({
      slack,
      redisUrl: userUrl('app'),
      secret: SECRET,
      token: TOKEN,
      env: {
        // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
        ROLLOUT_DOCTOR_READERS: '*',
        ROLLOUT_DOCTOR_APPROVERS: LEAD,
      },
    }));
    workers = startTestWorkers(userUrl('worker'), fakeClusterDeps(applied), {
      logger: createLogger({ level: 'silent', name: 'acl-worker' }),
    });
  });

  afterAll(async () => {
    await workers?.stop();
    await app?.stop();
    await slack?.close();
    await redis?.close();
  });

  it('lets the app and the worker run a command to its rolled-out reply', async () => {
    const events = `${app.handle.url}/slack/events`;
    expect(
      (await postSigned(events, SECRET, slashCommandBody({ text: 'web -n shop', user_id: LEAD }))).status,
    ).toBe(200);
    const message = await slack.waitFor((s) =>
      [...s.messages.values()].find(
        (m) => m.text.includes('deployment/web') && m.blocks.some((b) => b.type === 'actions'),
      ),
    );
    expect((await postClick(events, SECRET, message, 'approve_plan.0', LEAD)).status).toBe(200);
    await slack.waitFor((s) =>
      [...s.messages.values()].find((m) => m.threadTs === message.ts && m.text.startsWith('rolled out')),
    );
    expect(applied).toEqual(['set-recreate-shop-web']);
  });

  it('refuses other keys, admin and dangerous commands, and clients without a password', async () => {
    const app = new Redis(userUrl('app'), { maxRetriesPerRequest: 0 });
    const probe = new Redis(redis.url.replace('redis://', 'redis://healthcheck:x@'), {
      maxRetriesPerRequest: 0,
    });
    try {
      await expect(app.set('not-ours', '1')).rejects.toThrow(/NOPERM/);
      for (const command of [
        ['FLUSHALL'],
        ['CONFIG', 'GET', 'requirepass'],
        ['KEYS', '*'],
        ['DEBUG', 'SLEEP', '0'],
        ['ACL', 'LIST'],
      ]) {
        // NOPERM from the ACL (DEBUG is also off server-wide in Redis 7: either refusal will do).
        await expect(app.call(command[0] ?? '', ...command.slice(1))).rejects.toThrow(/NOPERM|not allowed/);
      }
      expect(await probe.ping()).toBe('PONG');
      await expect(probe.get('rd:plan:x')).rejects.toThrow(/NOPERM/);
    } finally {
      app.disconnect();
      probe.disconnect();
    }
    expect(SHIPPED_ACL).toMatch(/^user default off$/m);
    // The Secret (deploy/secret.yaml) holds the two passwords only; the rules hold no password at all.
    const passwords = parseAllDocuments(readFileSync('deploy/secret.yaml', 'utf8'))
      .map((d) => d.toJS() as { metadata: { name: string }; stringData: Record<string, string> })
      .find((d) => d.metadata.name === 'rollout-doctor-redis');
    expect(Object.keys(passwords?.stringData ?? {}).sort()).toEqual(['app-password', 'worker-password']);
    expect(SHIPPED_ACL).not.toMatch(/ >\S/);
  });

  it('gives Docker Compose the same users as deploy/', () => {
    const compose = parse(readFileSync('docker-compose.yml', 'utf8')) as {
      services: { redis: { command: string[] } };
    };
    // `--user a b c` on the command line is the config line `user a b c`.
    const lines = compose.services.redis.command
      .join(' ')
      .split(/ --(?=[a-z])/)
      .filter((part) => part.startsWith('user '))
      .map((line) =>
        line.replace(
          />\$\{REDIS_(APP|WORKER)_PASSWORD:\?[^}]*\}/g,
          (_m, who: string) => `<${who.toLowerCase()} password>`,
        ),
      );
    const shippedLines = SHIPPED_ACL.trim()
      .split('\n')
      .map((line) =>
        line.replace(
          /#@(APP|WORKER)_PASSWORD_SHA256@/,
          (_m, who: string) => `<${who.toLowerCase()} password>`,
        ),
      );
    expect(lines).toEqual(shippedLines);
  });
});
