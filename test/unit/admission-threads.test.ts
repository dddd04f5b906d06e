/**
 * Issue 67.1 and 67.5, the app side of warned applies: their threads take from a budget
 * of their own, an alert joining one says so, and an announcement is posted only once a
 * run shows the applied object at its generation (a refused or made-up apply posts
 * nothing and holds no thread key). Against a real redis-server.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAdmissionWarningOpener } from '../../src/app/alerts/admission-threads.js';
import {
  createAdmissionParking,
  PARK_SECONDS,
  READ_BACK_DELAY_MS,
} from '../../src/app/alerts/admission-parking.js';
import {
  ADMISSION_BUDGET_KEYS,
  ADMISSION_READS_PER_THREAD,
  createThreadBudget,
} from '../../src/app/alerts/thread-budget.js';
import { handleAlertThreadJob } from '../../src/app/alerts/thread-updates.js';
import type { RunResult } from '../../src/app/alerts/results.js';
import type { AdmissionWarningJob } from '../../src/app/alerts/messages.js';
import type { AlertThreadJob } from '../../src/queue/alert-jobs.js';
import { groupHash, workloadHash } from '../../src/queue/alert-keys.js';
import { createThreadStore, type ThreadStore } from '../../src/queue/alert-thread-store.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ephemeralPlanKeys, testKeys } from '../support/plan-keys.js';
import { createAppAlerts } from '../../src/app/alerts/app-intake.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import type { DiagnoseJob } from '../../src/queue/schemas.js';
import type { PlanStore } from '../../src/queue/plan-store.js';
import type { Producers } from '../../src/queue/producers.js';

let server: TestRedis;
let redis: Redis;
let store: ThreadStore;
let posts: Record<string, unknown>[];
let nextTs = 1;

const webClient = {
  chat: {
    async postMessage(args: Record<string, unknown>) {
      posts.push(args);
      nextTs += 1;
      return { ok: true, ts: `1700000000.${String(nextTs).padStart(6, '0')}` };
    },
    async update() {
      return { ok: true };
    },
  },
};
const chats = () => ({ slack: createSlackChatAdapter(webClient as never) });
const logger = { debug: () => undefined, info: () => undefined };
const MINUTE = () => Date.UTC(2026, 10, 27, 6, 30, 0);

const hashOf = (name: string): string =>
  workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name });

function warned(name = 'web', generation = 2, uid = 'uid-web'): AdmissionWarningJob {
  return {
    kind: 'admission-warning',
    cluster: 'default',
    workload: { kind: 'Deployment', namespace: 'shop', name },
    user: 'alice',
    code: 'RolloutSurgeDeadlock',
    reason: 'its new pod needs 1 nvidia.com/gpu, held by its old pods',
    fix: 'maxSurge 0, maxUnavailable 1',
    at: '2026-11-27T06:30:00.000Z',
    generation,
    uid,
  };
}

/** A run that read the workload at `generation` (what the worker's watch or an alert's run sends). */
function seen(name = 'web', generation = 2, uid = 'uid-web'): RunResult {
  return {
    cluster: 'default',
    jobId: `diagnose.shop.${name}`,
    outcome: {
      status: 'diagnosed',
      diagnosis: {
        target: { kind: 'Deployment', namespace: 'shop', name },
        capturedAt: '2026-11-27T06:31:00Z',
        observed: { uid, generation, resourceVersion: '7' },
        findings: [],
        remediations: [],
        analyzerErrors: [],
      },
    },
  };
}

function alert(name = 'web', overrides: Partial<AlertThreadJob> = {}): AlertThreadJob {
  return {
    kind: 'alert-thread',
    groupHash: groupHash('{}:{alertname="KubeDeploymentRolloutStuck"}'),
    workloadHash: hashOf(name),
    channel: 'C0ALERTS',
    status: 'firing',
    workload: { cluster: 'default', namespace: 'shop', deployment: name, guessed: false, pods: [] },
    alertNames: ['KubeDeploymentRolloutStuck'],
    startsAt: '2026-11-27T06:32:00Z',
    truncatedAlerts: 0,
    receivedAt: '2026-11-27T06:32:01Z',
    ...overrides,
  };
}

function parking(limit = 5) {
  const budget = createThreadBudget(redis, limit, MINUTE, ADMISSION_BUDGET_KEYS);
  const open = createAdmissionWarningOpener({ store, chats, channelFor: () => 'C0ALERTS', logger, budget });
  return createAdmissionParking({ redis, open, logger });
}

const texts = (): string[] => posts.map((p) => String(p['text']));

beforeAll(async () => {
  server = await startRedis();
  redis = new Redis(server.url, { maxRetriesPerRequest: 1 });
  store = createThreadStore(redis);
});

afterAll(async () => {
  redis.disconnect();
  await server.close();
});

beforeEach(async () => {
  await redis.flushall();
  posts = [];
});

describe('warned applies wait for the cluster (issue 67.1, 67.5)', () => {
  it('posts nothing and holds no thread key for an apply the cluster never took', async () => {
    const p = parking();
    expect(await p.park(warned('web', 5))).toBe('parked');
    // Runs read the object before (generation 4) and another object of the same name (re-created).
    expect(await p.confirm(seen('web', 4))).toBe('waiting');
    expect(await p.confirm(seen('web', 9, 'uid-other'))).toBe('waiting');
    // A failed run and a run of another workload say nothing about it.
    expect(
      await p.confirm({ cluster: 'default', jobId: 'x', outcome: { status: 'failed', reason: 'gone' } }),
    ).toBe('none');
    expect(await p.confirm(seen('api', 5))).toBe('none');
    expect(posts).toEqual([]);
    expect(await store.find(hashOf('web'))).toBeNull();
    expect(await redis.keys('rd:alerts:by-workload:*')).toEqual([]);
    expect(await redis.keys('rd:alerts:creating:*')).toEqual([]);
    // It only waits so long: the parked announcement expires.
    const ttl = await redis.ttl(`rd:alerts:admission-parked:${hashOf('web')}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(PARK_SECONDS);
  });

  it('announces an apply once a run shows its object at that generation, once across replicas', async () => {
    const [a, b] = [parking(), parking()];
    await a.park(warned('web', 2));
    const outcomes = await Promise.all([a.confirm(seen('web', 2)), b.confirm(seen('web', 2))]);
    expect(outcomes.sort()).toEqual(['none', 'opened']);
    expect(texts()).toHaveLength(1);
    expect(texts()[0]).toContain(
      'A rollout that can never finish was just applied to deployment/web by alice',
    );
    expect((await store.find(hashOf('web')))?.origin).toBe('admission');
    // Later runs (the watch again, an alert's) post nothing more.
    expect(await a.confirm(seen('web', 3))).toBe('none');
    expect(texts()).toHaveLength(1);
  });

  it('asks for a read of the workload itself once parked, so no watch is needed', async () => {
    const budget = createThreadBudget(redis, 5, MINUTE, ADMISSION_BUDGET_KEYS);
    const open = createAdmissionWarningOpener({ store, chats, channelFor: () => 'C0ALERTS', logger, budget });
    const asked: AdmissionWarningJob[] = [];
    const p = createAdmissionParking({
      redis,
      open,
      logger,
      readBack: async (job) => void asked.push(job),
      readBackDelayMs: 10,
    });
    await p.park(warned('web', 4));
    expect(asked).toEqual([]); // not at once: the API server has not stored the object yet
    await vi.waitFor(() => expect(asked.map((j) => j.generation)).toEqual([4]));
    // That read's result is what confirms it.
    expect(await p.confirm(seen('web', 4))).toBe('opened');
  });

  it('a later generation confirms it too; a parked value the app did not write is not posted', async () => {
    const p = parking();
    await p.park(warned('web', 2));
    expect(await p.confirm(seen('web', 3))).toBe('opened');
    await redis.set(
      `rd:alerts:admission-parked:${hashOf('api')}`,
      JSON.stringify({ ...warned('web', 1), user: 'mallory' }),
    );
    expect(await p.confirm(seen('api', 1))).toBe('none');
    expect(texts()).toHaveLength(1);
  });
});

describe('warned applies’ thread budget (issue 67.1)', () => {
  it('is their own: spent by warned applies, it leaves an alert its thread', async () => {
    const p = parking(2);
    for (const name of ['a', 'b', 'c', 'd']) {
      await p.park(warned(name, 2, `uid-${name}`));
    }
    const outcomes: string[] = [];
    for (const name of ['a', 'b', 'c', 'd']) outcomes.push(await p.confirm(seen(name, 2, `uid-${name}`)));
    expect(outcomes).toEqual(['opened', 'opened', 'over-budget', 'over-budget']);
    // One overflow line, naming the warned applies' own limit.
    const overflow = texts().filter((t) => t.includes('More warned applies this minute'));
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toContain('ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE');
    // The alerts' budget is untouched: a real alert this minute gets its thread.
    const alerts = createThreadBudget(redis, 1, MINUTE);
    expect(await alerts.take(1)).toBe(1);
    expect(await handleAlertThreadJob({ store, chats, logger }, alert('e'))).toBe('opened');
  });
});

describe('an alert joining a warned apply’s thread (issue 67.1)', () => {
  it('says so once; an alert thread joined by another alert stays quiet', async () => {
    const p = parking();
    await p.park(warned('web', 2));
    expect(await p.confirm(seen('web', 2))).toBe('opened');
    expect(posts[0]?.['thread_ts']).toBeUndefined(); // the root
    expect(await handleAlertThreadJob({ store, chats, logger }, alert('web'))).toBe('joined');
    expect(posts).toHaveLength(2);
    const notice = posts[1];
    expect(notice?.['thread_ts']).toBe((await store.find(hashOf('web')))?.ts);
    expect(String(notice?.['text'])).toContain(
      "This thread was opened by the admission webhook's announcement of an apply",
    );
    expect(String(notice?.['text'])).toContain('was a warning at apply time, not an alert');
    // Another group of the same workload, or the same alert again: nothing more.
    await handleAlertThreadJob(
      { store, chats, logger },
      alert('web', { groupHash: groupHash('{}:{alertname="KubePodCrashLooping"}') }),
    );
    expect(posts).toHaveLength(2);
    // An alert's own thread, joined by a second alert: no notice.
    expect(await handleAlertThreadJob({ store, chats, logger }, alert('api'))).toBe('opened');
    expect(
      await handleAlertThreadJob(
        { store, chats, logger },
        alert('api', { groupHash: groupHash('{}:{alertname="KubePodCrashLooping"}') }),
      ),
    ).toBe('joined');
    expect(posts).toHaveLength(3);
  });
});

describe('what the app keeps of a warned apply is under its mark', () => {
  const keys = ephemeralPlanKeys({ seal: 's6', approval: 'a6', notify: 'n6' });
  const records = () => {
    const forged: string[] = [];
    return {
      forged,
      signer: {
        by: 'app' as const,
        key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey },
      },
      verifier: { keys: keys.notify.keys, onForged: (record: string) => void forged.push(record) },
    };
  };

  it('a parked announcement not marked by the app is not posted; one that is, is', async () => {
    const r = records();
    const marked = createThreadStore(redis, r);
    const open = createAdmissionWarningOpener({ store: marked, chats, channelFor: () => 'C0ALERTS', logger });
    const p = createAdmissionParking({ redis, open, logger, records: r });
    // Planted by a Redis writer: unmarked, or marked for another workload's key.
    await redis.set(`rd:alerts:admission-parked:${hashOf('api')}`, JSON.stringify(warned('api', 1)));
    expect(await p.confirm(seen('api', 1))).toBe('none');
    await p.park(warned('web', 1));
    const moved = await redis.get(`rd:alerts:admission-parked:${hashOf('web')}`);
    await redis.set(`rd:alerts:admission-parked:${hashOf('api')}`, String(moved));
    expect(await p.confirm(seen('api', 1))).toBe('none');
    expect(r.forged).toEqual(['parked warned apply', 'parked warned apply']);
    expect(posts).toEqual([]);
    expect(await p.confirm(seen('web', 1))).toBe('opened');
    expect((await marked.find(hashOf('web')))?.origin).toBe('admission');
  });

  it('a thread’s origin is under its mark: taken off, the record is refused', async () => {
    const r = records();
    const marked = createThreadStore(redis, r);
    const { record } = await marked.open(
      { workloadHash: hashOf('web'), channel: 'C0ALERTS', title: 'warned', origin: 'admission' },
      async () => '1700000000.000100',
    );
    expect((await marked.find(hashOf('web')))?.origin).toBe('admission');
    await redis.hdel(`rd:alerts:thread:${record.threadId}`, 'origin');
    expect(await marked.find(hashOf('web'))).toBeNull();
    expect(r.forged).toEqual(['alert thread']);
  });
});

describe('the app’s wiring of warned applies', () => {
  const env = { ...testKeys.appEnv, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };

  it('reads ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE (default 5), a positive integer', () => {
    expect(loadAppConfig(env).alerts.admissionMaxThreadsPerMinute).toBe(5);
    const set = { ...env, ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE: '2' };
    expect(loadAppConfig(set).alerts.admissionMaxThreadsPerMinute).toBe(2);
    expect(() => loadAppConfig({ ...env, ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE: '0' })).toThrow(
      /ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE/,
    );
  });

  it('parks each warned apply and reads its workload back a few seconds later, a bounded number a minute', async () => {
    const reads: DiagnoseJob[] = [];
    const producers = {
      async enqueueDiagnose(job: DiagnoseJob, options?: { background?: boolean }) {
        expect(options?.background).toBe(true);
        reads.push(job);
        return { jobId: 'x', joined: false };
      },
    } as unknown as Producers;
    const { hooks } = createAppAlerts({
      config: loadAppConfig({
        ...env,
        ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0ALERTS',
        ROLLOUT_DOCTOR_ADMISSION_MAX_THREADS_PER_MINUTE: '1',
      }),
      producers,
      redis,
      plans: {} as PlanStore,
      allows: ({ namespace }) => namespace === 'shop',
      chats,
      logger: { ...logger, warn: () => undefined, error: () => undefined },
    });
    if (!hooks) throw new Error('no hooks');
    // First a namespace the read policy closes: it is parked, never read.
    const closed = warned('x');
    expect(
      await hooks.admissionWarning({ ...closed, workload: { ...closed.workload, namespace: 'vault' } }),
    ).toBe('parked');
    for (let i = 0; i < 6; i += 1) {
      expect(await hooks.admissionWarning(warned(`w${i}`, 2, `uid-${i}`))).toBe('parked');
    }
    expect(posts).toEqual([]);
    expect(reads).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, READ_BACK_DELAY_MS + 700));
    // ADMISSION_READS_PER_THREAD × the limit of 1: four reads this minute; none where the policy says no.
    expect(reads).toHaveLength(ADMISSION_READS_PER_THREAD);
    expect(reads.map((r) => (r.mode === 'workload' ? r.target.namespace : ''))).toEqual([
      'shop',
      'shop',
      'shop',
      'shop',
    ]);
    expect(reads[0]).toMatchObject({
      mode: 'workload',
      cluster: 'default',
      target: { kind: 'Deployment', namespace: 'shop' },
      requestedBy: 'ADMISSION',
    });
    expect(posts).toEqual([]);
  });
});
