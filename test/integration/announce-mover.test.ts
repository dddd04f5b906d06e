/**
 * Issue 67.2, the app's side of the webhook's stream (src/app/notify/announce-mover.ts),
 * against a real redis-server: an announcement is queued in the alert lane only when an
 * admission key signed it for a cluster the app serves and the key is bound to; one the
 * app dies moving reaches the lane once after the restart (or another replica's claim),
 * never lost and never twice.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AdmissionWarningJob } from '../../src/admission/announce.js';
import {
  createAnnounceMover,
  REFUSAL_LINES_PER_MINUTE,
  type AnnounceMoverOptions,
} from '../../src/app/notify/announce-mover.js';
import type { AuditEvent } from '../../src/audit.js';
import { createLogger } from '../../src/logger.js';
import { createMetrics } from '../../src/metrics.js';
import { ALERT_NOTIFY_QUEUE, QUEUE_PREFIX } from '../../src/queue/names.js';
import { notifyKeys, signNotify } from '../../src/queue/notify-signature.js';
import { createProducers, type Producers } from '../../src/queue/producers.js';
import { parsePublicKeys } from '../../src/trust/approval-signature.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';

const STREAM = 'rd:admission:announce';
const WAIT = `${QUEUE_PREFIX}:${ALERT_NOTIFY_QUEUE}:wait`;
const admission = ephemeralPlanKeys({ seal: 's-mv', approval: 'a-mv', notify: 'adm-mv' });
const admissionPublic = parsePublicKeys(admission.env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS);
const app = { keyId: testKeys.approval.keyId, privateKey: testKeys.approval.privateKey };
/** The app's keys: the webhook's key unbound, so it speaks for the app's own cluster, `default`. */
const keys = notifyKeys(testKeys.notify.keys.worker, app, undefined, admissionPublic, 'default');
const logger = createLogger({ level: 'silent', name: 'mover' });

const job = (cluster: string, name = 'tracker'): AdmissionWarningJob => ({
  kind: 'admission-warning',
  cluster,
  workload: { kind: 'Deployment', namespace: 'vision', name },
  user: 'alice',
  code: 'RolloutSurgeDeadlock',
  at: '2026-11-26T00:00:00.000Z',
});

describe('moving the webhook’s announcements into the alert lane', () => {
  let redis: TestRedis;
  let admin: Redis;
  let producers: Producers;

  beforeAll(async () => {
    redis = await startRedis();
    admin = new Redis(redis.url);
    producers = createProducers({ connection: admin, clusters: ['default', 'prod'] });
  });
  afterEach(async () => {
    await admin.flushall();
  });
  afterAll(async () => {
    await producers?.close();
    admin?.disconnect();
    await redis?.close();
  });

  const announce = (j: AdmissionWarningJob, signer = admission.notify.signing): Promise<string | null> =>
    admin.xadd(STREAM, '*', 'job', JSON.stringify(signNotify(j, 'admission', signer)));
  const mover = (over: Partial<AnnounceMoverOptions> = {}) =>
    createAnnounceMover({
      connection: admin,
      producers,
      keys,
      clusters: ['default', 'prod'],
      logger,
      consumer: 'app-1',
      blockMs: 0,
      ...over,
    });

  it('refuses an announcement for a cluster the app does not serve, or its key is not bound to', async () => {
    const metrics = createMetrics();
    const counter = metrics.announcementsMoved;
    const audited: string[] = [];
    const audit = {
      record: (event: AuditEvent) => {
        audited.push('detail' in event ? String(event.detail) : '');
      },
    };
    // The app serves prod too, but the webhook's key is bound to `default` (its own cluster).
    await announce(job('prod'));
    // With no binding at all, a cluster the app does not serve is still refused.
    await announce(job('elsewhere'));
    // Another signer's key (a worker's) cannot make an announcement either.
    await admin.xadd(
      STREAM,
      '*',
      'job',
      JSON.stringify(signNotify(job('default'), 'admission', testKeys.notify.signing)),
    );
    await admin.xadd(STREAM, '*', 'job', '{not json');
    expect(await mover({ counter, audit }).moveOnce()).toBe(4);
    expect(await admin.llen(WAIT)).toBe(0);
    expect(await admin.xlen(STREAM)).toBe(0);
    const text = await metrics.registry.getSingleMetricAsString(
      'rollout_doctor_admission_announcements_moved_total',
    );
    expect(text).toMatch(/outcome="refused",reason="signature"\} 3/);
    expect(text).toMatch(/outcome="refused",reason="malformed"\} 1/);
    expect(audited[0]).toContain('bound to cluster(s) default');
    expect(audited[1]).toContain('bound to cluster(s) default');
    expect(audited[2]).toContain('unknown admission key');

    const unbound = notifyKeys(testKeys.notify.keys.worker, app, undefined, admissionPublic);
    await announce(job('elsewhere'));
    expect(await mover({ keys: unbound, counter }).moveOnce()).toBe(1);
    expect(await admin.llen(WAIT)).toBe(0);
    expect(
      await metrics.registry.getSingleMetricAsString('rollout_doctor_admission_announcements_moved_total'),
    ).toMatch(/outcome="refused",reason="cluster"\} 1/);

    // Its own cluster passes.
    await announce(job('default'));
    expect(await mover({ counter }).moveOnce()).toBe(1);
    expect(await admin.llen(WAIT)).toBe(1);
  });

  it('a flood of forged entries is counted, every one, but logs and audits a bounded number of lines a minute', async () => {
    const metrics = createMetrics();
    const audited: string[] = [];
    const audit = {
      record: (event: AuditEvent) => void audited.push('detail' in event ? String(event.detail) : ''),
    };
    const lines: string[] = [];
    const sink = { write: (line: string) => void lines.push(line) };
    const counted = createLogger({ level: 'warn', name: 'mover' }, sink);
    const flood = REFUSAL_LINES_PER_MINUTE + 10;
    for (let i = 0; i < flood; i += 1) await admin.xadd(STREAM, '*', 'job', `{forged ${i}`);
    expect(await mover({ counter: metrics.announcementsMoved, audit, logger: counted }).moveOnce()).toBe(
      flood,
    );
    expect(await admin.xlen(STREAM)).toBe(0);
    expect(
      await metrics.registry.getSingleMetricAsString('rollout_doctor_admission_announcements_moved_total'),
    ).toMatch(new RegExp(`outcome="refused",reason="malformed"\\} ${flood}`));
    // The other arm: up to the bound, each refusal has its lines; the last says the rest are only counted.
    expect(audited).toHaveLength(REFUSAL_LINES_PER_MINUTE);
    const refusedLines = lines.filter((l) => l.includes('admission announcement refused'));
    expect(refusedLines).toHaveLength(REFUSAL_LINES_PER_MINUTE);
    expect(refusedLines.at(-1)).toContain('further refusals this minute are counted');
  });

  it('entries trimmed from the stream before the app read them are counted lost, once across replicas; entries it handles never are', async () => {
    const metrics = createMetrics();
    const counter = metrics.announcementsMoved;
    const lines: string[] = [];
    const logged = createLogger(
      { level: 'error', name: 'mover' },
      { write: (line: string) => void lines.push(line) },
    );
    const one = mover({ counter, logger: logged, lossCheckMs: 0 });
    const two = mover({ counter, logger: logged, lossCheckMs: 0, consumer: 'app-2' });
    // Handled entries, moved and refused, are never lost.
    await announce(job('default'));
    await admin.xadd(STREAM, '*', 'job', '{forged');
    expect(await one.moveOnce()).toBe(2);
    expect(await two.moveOnce()).toBe(0);
    const text = () =>
      metrics.registry.getSingleMetricAsString('rollout_doctor_admission_announcements_moved_total');
    expect(await text()).not.toContain('outcome="lost"');
    expect(lines).toEqual([]);
    // The webhook's credential drops what is waiting: three announcements, then one more with MAXLEN 0.
    for (const name of ['a', 'b', 'c']) await announce(job('default', name));
    await admin.xadd(STREAM, 'MAXLEN', '0', '*', 'job', '{}');
    expect(await admin.xlen(STREAM)).toBe(0);
    expect(await one.moveOnce()).toBe(0);
    expect(await two.moveOnce()).toBe(0);
    expect(await one.moveOnce()).toBe(0);
    expect(await text()).toMatch(/outcome="lost",reason="trimmed"\} 4/);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('removed from the stream before the app read them');
  });

  it('an app that dies after the add and before the acknowledgement queues it once after its restart', async () => {
    await announce(job('default', 'a'));
    const crashing: Pick<Producers, 'forwardNotify'> = {
      forwardNotify: async (signed, options) => {
        await producers.forwardNotify(signed, options);
        throw new Error('killed before XACK');
      },
    };
    await expect(mover({ producers: crashing }).moveOnce()).rejects.toThrow('killed');
    expect(await admin.llen(WAIT)).toBe(1);
    // The same pod starts again: its own pending entry first.
    expect(await mover().moveOnce()).toBe(1);
    expect(await admin.llen(WAIT)).toBe(1);
    expect(await admin.xlen(STREAM)).toBe(0);
    expect(await mover().moveOnce()).toBe(0);
  });

  it('one that dies before the add loses nothing: another replica claims the entry once idle', async () => {
    await announce(job('default', 'b'));
    const dying: Pick<Producers, 'forwardNotify'> = {
      forwardNotify: async () => {
        throw new Error('killed before the add');
      },
    };
    await expect(mover({ producers: dying }).moveOnce()).rejects.toThrow('killed');
    expect(await admin.llen(WAIT)).toBe(0);
    // Not yet idle long enough: left to its holder.
    expect(await mover({ consumer: 'app-2' }).moveOnce()).toBe(0);
    expect(await mover({ consumer: 'app-2', claimIdleMs: 0 }).moveOnce()).toBe(1);
    expect(await admin.llen(WAIT)).toBe(1);
    expect(await admin.xlen(STREAM)).toBe(0);
    // The dead consumer's pending list is empty: nothing is moved twice.
    expect(await mover().moveOnce()).toBe(0);
    expect(await admin.llen(WAIT)).toBe(1);
    // A later app forgets consumers gone long ago (here: at once) that hold nothing.
    const consumers = async (): Promise<string> =>
      JSON.stringify(await admin.xinfo('CONSUMERS', STREAM, 'app'));
    expect(await consumers()).toMatch(/"app-1".*"app-2"/);
    await new Promise((r) => setTimeout(r, 5));
    expect(await mover({ consumer: 'app-3', forgetIdleMs: 1 }).moveOnce()).toBe(0);
    expect(await consumers()).not.toMatch(/"app-1"|"app-2"/);
  });
});
