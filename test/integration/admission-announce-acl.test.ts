/**
 * Least privilege of the warned-apply announcement (admission.announce.enabled): the
 * chart's Redis user `admission`, as Redis gets it (the SHA-256 of its password), can
 * append the signed announcement to its one stream and touch nothing else of
 * rollout-doctor's: not the alert lane BullMQ keeps (issue 67.2: `HSET
 * rd:notify-alerts:meta paused 1` held every alert), no SCAN of key names, no script, no
 * read of its own stream, no diagnose or remediate queue, no plan, no thread record. The
 * app's mover then verifies the entry and queues it in the alert lane.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceQueue, type AnnounceQueue } from '../../src/admission/announce-queue.js';
import { createAnnounceMover } from '../../src/app/notify/announce-mover.js';
import { createProducers } from '../../src/queue/producers.js';
import { createLogger } from '../../src/logger.js';
import { verifyNotify } from '../../src/queue/notify-signature.js';
import { ALERT_NOTIFY_QUEUE, QUEUE_PREFIX } from '../../src/queue/names.js';
import { parsePublicKeys, parseSigningKey } from '../../src/trust/approval-signature.js';
import { notifyKeys } from '../../src/queue/notify-signature.js';
import { find, helmTemplate } from '../support/helm.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const PASSWORD = 'admission-pw-0123456789';
const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
const keys = ephemeralPlanKeys({ seal: 's-acl', approval: 'a-acl', notify: 'adm-acl' });

describe('the Redis user of the admission webhook', () => {
  let redis: TestRedis;
  let queue: AnnounceQueue;
  let admissionUrl: string;

  beforeAll(async () => {
    const objects = helmTemplate({
      set: [
        'admission.enabled=true',
        'admission.announce.enabled=true',
        'admission.clientAuth.caSecretName=apiserver-client-ca',
        'redis.mode=bundled',
      ],
    });
    const acl = find(objects, 'ConfigMap', 'rollout-doctor-redis-acl') as { data?: Record<string, string> };
    const rule = (acl.data?.['users.acl'] ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.startsWith('user admission '));
    expect(rule).toBeDefined();
    redis = await startRedis();
    const admin = new Redis(redis.url);
    const [, name, ...rest] = (rule ?? '')
      .replace('@ADMISSION_PASSWORD_SHA256@', sha256(PASSWORD))
      .split(/\s+/);
    await admin.call('ACL', 'SETUSER', name ?? '', ...rest);
    admin.disconnect();
    admissionUrl = redis.url.replace('redis://', `redis://admission:${PASSWORD}@`);
    queue = announceQueue({
      redisUrl: admissionUrl,
      cluster: 'default',
      key: parseSigningKey(keys.env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY),
      logger: createLogger({ level: 'silent', name: 'acl' }),
    });
  });

  afterAll(async () => {
    await queue?.close();
    await redis?.close();
  });

  it('appends a signed announcement, which the app verifies and moves into the alert notify queue', async () => {
    await queue.send(
      {
        kind: 'admission-warning',
        cluster: 'default',
        workload: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
        user: 'alice',
        code: 'RolloutSurgeDeadlock',
        at: '2026-11-26T00:00:00.000Z',
      },
      'admission-warning-acl',
    );
    const admin = new Redis(redis.url);
    const producers = createProducers({ connection: admin, clusters: ['default'] });
    try {
      expect(await admin.xlen('rd:admission:announce')).toBe(1);
      const appKeys = notifyKeys(
        testKeys.notify.keys.worker,
        { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
        undefined,
        parsePublicKeys(keys.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS),
        'default',
      );
      const mover = createAnnounceMover({
        connection: admin,
        producers,
        keys: appKeys,
        clusters: ['default'],
        logger: createLogger({ level: 'silent', name: 'acl' }),
        blockMs: 0,
      });
      expect(await mover.moveOnce()).toBe(1);
      const ids = await admin.lrange(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:wait`, 0, -1);
      expect(ids).toHaveLength(1);
      const data = JSON.parse(
        (await admin.hget(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:${ids[0]}`, 'data')) ?? '{}',
      );
      expect(verifyNotify(data, appKeys)).toMatchObject({ ok: true });
      expect(await admin.xlen('rd:admission:announce')).toBe(0);
    } finally {
      await producers.close();
      admin.disconnect();
    }
  });

  it('cannot pause, list or script the alert lane, nor read its own stream (issue 67.2)', async () => {
    const as = new Redis(admissionUrl, { maxRetriesPerRequest: 1, enableReadyCheck: false });
    try {
      await expect(as.hset('rd:notify-alerts:meta', 'paused', '1')).rejects.toThrow(/NOPERM/);
      await expect(as.scan('0')).rejects.toThrow(/NOPERM/);
      await expect(as.eval('return 1', 0)).rejects.toThrow(/NOPERM/);
      await expect(
        as.eval("return redis.call('HSET', KEYS[1], 'paused', 1)", 1, 'rd:notify-alerts:meta'),
      ).rejects.toThrow(/NOPERM/);
      await expect(as.call('FCALL', 'x', '0')).rejects.toThrow(/NOPERM/);
      await expect(as.xadd('rd:notify-alerts:events', '*', 'event', 'x')).rejects.toThrow(/NOPERM/);
      await expect(as.lpush('rd:notify-alerts:wait', 'x')).rejects.toThrow(/NOPERM/);
      await expect(as.xrange('rd:admission:announce', '-', '+')).rejects.toThrow(/NOPERM/);
      await expect(as.xtrim('rd:admission:announce', 'MAXLEN', 0)).rejects.toThrow(/NOPERM/);
      await expect(as.del('rd:admission:announce')).rejects.toThrow(/NOPERM/);
      await expect(as.call('XGROUP', 'DESTROY', 'rd:admission:announce', 'app')).rejects.toThrow(/NOPERM/);
    } finally {
      as.disconnect();
    }
  });

  it('touches nothing else: other queues, plans and thread records are refused', async () => {
    const as = new Redis(admissionUrl, { maxRetriesPerRequest: 1, enableReadyCheck: false });
    try {
      for (const key of ['rd:diagnose.default:wait', 'rd:notify:wait', 'rd:plan:x', 'rd:alerts:thread:x']) {
        await expect(as.set(key, 'x')).rejects.toThrow(/NOPERM/);
        await expect(as.get(key)).rejects.toThrow(/NOPERM/);
      }
      await expect(as.call('FLUSHALL')).rejects.toThrow(/NOPERM/);
    } finally {
      as.disconnect();
    }
  });
});
