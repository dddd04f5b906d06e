/**
 * Least privilege of the warned-apply announcement (admission.announce.enabled): the
 * chart's Redis user `admission`, as Redis gets it (the SHA-256 of its password), can
 * add the signed announcement to the app's alert notify queue and touch nothing else of
 * rollout-doctor's: no diagnose or remediate queue, no plan, no thread record.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { announceQueue, type AnnounceQueue } from '../../src/admission/announce-queue.js';
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

  it('adds a signed announcement to the alert notify queue, which the app verifies', async () => {
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
    try {
      const ids = await admin.lrange(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:wait`, 0, -1);
      expect(ids).toHaveLength(1);
      const data = JSON.parse(
        (await admin.hget(`${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:${ids[0]}`, 'data')) ?? '{}',
      );
      const appKeys = notifyKeys(
        testKeys.notify.keys.worker,
        { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey },
        undefined,
        parsePublicKeys(keys.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS),
      );
      expect(verifyNotify(data, appKeys)).toMatchObject({ ok: true });
    } finally {
      admin.disconnect();
    }
  });

  it('touches nothing else: other queues, plans and thread records are refused', async () => {
    const as = new Redis(admissionUrl, { maxRetriesPerRequest: 1 });
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
