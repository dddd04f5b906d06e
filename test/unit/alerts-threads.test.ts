import { Redis } from 'ioredis';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createEarlyWarningOpener } from '../../src/app/alerts/early-warning-threads.js';
import { createAdmissionWarningOpener } from '../../src/app/alerts/admission-threads.js';
import { createThreadBudget } from '../../src/app/alerts/thread-budget.js';
import type { AlertThreadJob } from '../../src/queue/alert-jobs.js';
import { groupHash, workloadHash } from '../../src/queue/alert-keys.js';
import { deliverAlertResult, ThreadNotReadyError, type RunResult } from '../../src/app/alerts/results.js';
import { handleAlertThreadJob } from '../../src/app/alerts/thread-updates.js';
import { createSlackChatAdapter } from '../../src/chat/slack/chat-adapter.js';
import { createThreadStore, ThreadBusyError, type ThreadStore } from '../../src/queue/alert-thread-store.js';
import { verdictKey } from '../../src/app/alerts/verdict-key.js';
import type { Diagnosis } from '../../src/engine/diagnosis.js';
import type { Finding } from '../../src/diagnosis/finding.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { ephemeralPlanKeys } from '../support/plan-keys.js';

let server: TestRedis;
let redis: Redis;
let store: ThreadStore;
let calls: { method: 'post' | 'update'; args: Record<string, unknown> }[];
let nextTs = 1;

/** Slack's Web API as the Slack adapter calls it, recording each post and update. */
const webClient = {
  chat: {
    async postMessage(args: Record<string, unknown>) {
      calls.push({ method: 'post', args });
      nextTs += 1;
      return { ok: true, ts: `1700000000.${String(nextTs).padStart(6, '0')}` };
    },
    async update(args: Record<string, unknown>) {
      calls.push({ method: 'update', args });
      return { ok: true };
    },
  },
};
/** The chat adapters thread handling posts through: Slack's, on the recording client. */
const chats = () => ({ slack: createSlackChatAdapter(webClient as never) });
const logger = { debug: () => undefined, info: () => undefined };

const WEB = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'web' });
const G1 = groupHash('{}:{alertname="KubePodCrashLooping"}');
const G2 = groupHash('{}:{alertname="KubeDeploymentRolloutStuck"}');

function job(overrides: Partial<AlertThreadJob> = {}): AlertThreadJob {
  return {
    kind: 'alert-thread',
    groupHash: G1,
    workloadHash: WEB,
    channel: 'C0ALERTS',
    status: 'firing',
    workload: {
      cluster: 'default',
      namespace: 'shop',
      deployment: 'web',
      guessed: true,
      pods: ['web-6d4cf56db6-x7k2p'],
    },
    alertNames: ['KubePodCrashLooping'],
    summary: 'Pod shop/web-6d4cf56db6-x7k2p is crash looping',
    startsAt: '2026-11-20T10:00:00Z',
    truncatedAlerts: 0,
    receivedAt: '2026-11-20T10:00:02Z',
    ...overrides,
  };
}

function finding(code: Finding['code'], badNodes: string[] = []): Finding {
  return {
    code,
    severity: 'critical',
    summary: `${code} summary`,
    evidence:
      badNodes.length > 0 ? [{ type: 'node-diff', badNodes, goodNodes: ['n2'], differences: [] }] : [],
    remediations: [],
  };
}

function result(findings: Finding[], jobId = 'diagnose.shop.web'): RunResult {
  const diagnosis: Diagnosis = {
    target: { kind: 'Deployment', namespace: 'shop', name: 'web' },
    capturedAt: '2026-11-20T10:01:00Z',
    observed: { uid: 'u', generation: 1, resourceVersion: '1' },
    findings,
    remediations: [],
    analyzerErrors: [],
  };
  return { cluster: 'default', jobId, outcome: { status: 'diagnosed', diagnosis } };
}

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
  calls = [];
});

describe('alert threads', () => {
  it('opens one thread on the first firing; later groups for the workload join it', async () => {
    expect(await handleAlertThreadJob({ store, chats, logger }, job())).toBe('opened');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args['channel']).toBe('C0ALERTS');
    expect(String(calls[0]?.args['text'])).toContain('KubePodCrashLooping on shop/deployment/web');

    expect(await handleAlertThreadJob({ store, chats, logger }, job())).toBe('joined');
    expect(
      await handleAlertThreadJob(
        { store, chats, logger },
        job({ groupHash: G2, alertNames: ['KubeDeploymentRolloutStuck'] }),
      ),
    ).toBe('joined');
    expect(calls).toHaveLength(1);
  });

  it('opens exactly one root message when replicas race', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => handleAlertThreadJob({ store, chats, logger }, job())),
    );
    const posts = calls.filter((c) => c.method === 'post');
    expect(posts).toHaveLength(1);
    for (const o of outcomes) {
      if (o.status === 'rejected') expect(o.reason).toBeInstanceOf(ThreadBusyError);
    }
    // A retry after the busy error joins the thread the winner opened.
    expect(await handleAlertThreadJob({ store, chats, logger }, job())).toBe('joined');
  });

  it('resolves only when every group of the thread resolved, then rewrites the root and posts a line', async () => {
    await handleAlertThreadJob({ store, chats, logger }, job());
    await handleAlertThreadJob({ store, chats, logger }, job({ groupHash: G2 }));
    const root = await store.find(WEB);
    const resolved = { status: 'resolved' as const, endsAt: '2026-11-20T10:30:00Z' };
    expect(await handleAlertThreadJob({ store, chats, logger }, job(resolved))).toBe('still-firing');
    expect(calls).toHaveLength(1);
    expect(await handleAlertThreadJob({ store, chats, logger }, job({ ...resolved, groupHash: G2 }))).toBe(
      'resolved',
    );
    const [update, line] = calls.slice(1);
    expect(update).toMatchObject({ method: 'update', args: { channel: 'C0ALERTS', ts: root?.ts } });
    expect(String(update?.args['text'])).toMatch(/^Resolved: /);
    expect(line).toMatchObject({ method: 'post', args: { thread_ts: root?.ts } });
    expect(String(line?.args['text'])).toContain('Resolved at 2026-11-20 10:30 UTC');
    // A duplicate resolved notification changes nothing.
    expect(await handleAlertThreadJob({ store, chats, logger }, job({ ...resolved, groupHash: G2 }))).toBe(
      'already-resolved',
    );
    expect(calls).toHaveLength(3);
  });

  it('a re-fire after a resolve reopens the same thread', async () => {
    await handleAlertThreadJob({ store, chats, logger }, job());
    await handleAlertThreadJob(
      { store, chats, logger },
      job({ status: 'resolved', endsAt: '2026-11-20T10:30:00Z' }),
    );
    const before = await store.find(WEB, G1);
    expect(before?.status).toBe('resolved');
    expect(await store.find(WEB)).toBeNull();
    expect(
      await handleAlertThreadJob({ store, chats, logger }, job({ startsAt: '2026-11-20T11:00:00Z' })),
    ).toBe('refired');
    const after = await store.find(WEB);
    expect(after?.ts).toBe(before?.ts);
    expect(after?.status).toBe('firing');
    expect(String(calls.at(-1)?.args['text'])).toContain('Firing again');
  });

  it('ignores a resolved notification for a thread it never saw', async () => {
    expect(await handleAlertThreadJob({ store, chats, logger }, job({ status: 'resolved' }))).toBe(
      'unknown-thread',
    );
    expect(calls).toEqual([]);
  });
});

describe('diagnosis results in alert threads', () => {
  it('posts the first verdict, stays quiet on the same verdict, posts a changed one', async () => {
    await handleAlertThreadJob({ store, chats, logger }, job());
    const posted: string[] = [];
    const deps = {
      store,
      logger,
      postInThread: async (t: { channel: string; ts: string }) => void posted.push(`${t.channel}/${t.ts}`),
    };
    expect(await deliverAlertResult(deps, result([finding('CrashLoopOnNode', ['n1'])]))).toBe('posted');
    expect(await deliverAlertResult(deps, result([finding('CrashLoopOnNode', ['n1'])]))).toBe('unchanged');
    expect(await deliverAlertResult(deps, result([finding('CrashLoopOnNode', ['n1', 'n3'])]))).toBe('posted');
    expect(posted).toHaveLength(2);
    const root = await store.find(WEB);
    expect(posted[0]).toBe(`C0ALERTS/${root?.ts}`);
  });

  it('finds the thread through the job link when the alert only named a pod', async () => {
    const podWorkload = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Pod', name: 'db-0' });
    await handleAlertThreadJob(
      { store, chats, logger },
      job({
        workloadHash: podWorkload,
        workload: { cluster: 'default', namespace: 'shop', guessed: false, pods: ['db-0'] },
      }),
    );
    await store.linkJob('default', 'diagnose.shop.db-0', podWorkload);
    let posts = 0;
    const deps = { store, logger, postInThread: async () => void (posts += 1) };
    expect(
      await deliverAlertResult(deps, {
        cluster: 'default',
        jobId: 'diagnose.shop.db-0',
        outcome: { status: 'failed', reason: 'pod shop/db-0 is controlled by StatefulSet db' },
      }),
    ).toBe('posted');
    expect(posts).toBe(1);
  });

  it('restores the verdict when posting fails so the retry posts', async () => {
    await handleAlertThreadJob({ store, chats, logger }, job());
    let fail = true;
    const deps = {
      store,
      logger,
      postInThread: async () => {
        if (fail) throw new Error('slack down');
      },
    };
    await expect(deliverAlertResult(deps, result([finding('OOMKilled')]))).rejects.toThrow('slack down');
    fail = false;
    expect(await deliverAlertResult(deps, result([finding('OOMKilled')]))).toBe('posted');
  });

  it('retries a result whose alert thread is still being opened, but not a stale link', async () => {
    await store.linkJob('default', 'diagnose.shop.web', WEB);
    const deps = { store, logger, postInThread: async () => undefined };
    await expect(deliverAlertResult(deps, result([finding('CrashLoop')]))).rejects.toBeInstanceOf(
      ThreadNotReadyError,
    );
    const later = { ...deps, now: () => Date.now() + 11 * 60 * 1000 };
    expect(await deliverAlertResult(later, result([finding('CrashLoop')]))).toBe('no-thread');
  });

  it('a result with no thread and no early-warning mark is not posted', async () => {
    const deps = { store, logger, postInThread: async () => undefined };
    expect(await deliverAlertResult(deps, result([finding('CrashLoop')]))).toBe('no-thread');
  });

  it('an early-warning result opens the thread an alert later joins', async () => {
    await store.linkJob('default', 'diagnose.shop.web', WEB, true);
    const opener = createEarlyWarningOpener({ store, chats, channelFor: () => 'C0WATCH' });
    const posted: string[] = [];
    const deps = {
      store,
      logger,
      openEarlyWarning: opener,
      postInThread: async (t: { ts: string }) => void posted.push(t.ts),
    };
    expect(await deliverAlertResult(deps, result([finding('RolloutSurgeDeadlock')]))).toBe('posted');
    expect(String(calls[0]?.args['text'])).toContain(
      'Early warning: RolloutSurgeDeadlock on shop/deployment/web',
    );
    expect(await handleAlertThreadJob({ store, chats, logger }, job({ groupHash: G2 }))).toBe('joined');
    expect(calls.filter((c) => c.method === 'post')).toHaveLength(1);
    expect(posted[0]).toBe((await store.find(WEB))?.ts);
  });

  it('an early-warning result without a deadlock or node-local crash loop opens nothing', async () => {
    await store.linkJob('default', 'diagnose.shop.web', WEB, true);
    const opener = createEarlyWarningOpener({ store, chats, channelFor: () => 'C0WATCH' });
    const deps = { store, logger, openEarlyWarning: opener, postInThread: async () => undefined };
    expect(await deliverAlertResult(deps, result([finding('CrashLoop')]))).toBe('no-thread');
    expect(calls).toEqual([]);
  });

  it('an early-warning result in a namespace the read policy closes to alerts opens nothing', async () => {
    await store.linkJob('default', 'diagnose.shop.web', WEB, true);
    const asked: unknown[] = [];
    const opener = createEarlyWarningOpener({
      store,
      chats,
      channelFor: () => 'C0WATCH',
      allows: (scope) => {
        asked.push(scope);
        return false;
      },
    });
    const deps = { store, logger, openEarlyWarning: opener, postInThread: async () => undefined };
    expect(await deliverAlertResult(deps, result([finding('RolloutSurgeDeadlock')]))).toBe('no-thread');
    expect(calls).toEqual([]);
    expect(asked).toEqual([{ cluster: 'default', namespace: 'shop', channel: 'C0WATCH' }]);
  });
});

describe('verdictKey', () => {
  it('ignores order and volatile details, keeps codes and bad nodes', () => {
    expect(verdictKey({ findings: [finding('OOMKilled'), finding('CrashLoop')] })).toBe(
      'CrashLoop,OOMKilled',
    );
    expect(verdictKey({ findings: [finding('CrashLoopOnNode', ['n2', 'n1'])] })).toBe(
      'CrashLoopOnNode@n1+n2',
    );
    expect(verdictKey({ findings: [] })).toBe('healthy');
  });

  it('early-warning threads take from the budget alert threads use: past it no thread, one summary line per channel and minute (issue 27.4)', async () => {
    const budget = createThreadBudget(redis, 3, () => Date.UTC(2026, 10, 24, 1, 2, 3));
    expect(await budget.take(2)).toBe(2); // two alert threads this minute
    const opener = createEarlyWarningOpener({ store, chats, channelFor: () => 'C0WATCH', budget });
    const hash = (name: string) =>
      workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name });
    const deadlock = result([finding('RolloutSurgeDeadlock')]);
    expect(await opener(deadlock, hash('a'))).not.toBeNull();
    expect(await opener(deadlock, hash('b'))).toBeNull();
    expect(await opener(deadlock, hash('c'))).toBeNull();
    const posts = calls.filter((c) => c.method === 'post').map((c) => String(c.args['text']));
    expect(posts).toHaveLength(2);
    expect(posts[0]).toContain('Early warning: RolloutSurgeDeadlock');
    expect(posts[1]).toContain('More new incident threads this minute than rollout-doctor opens');
    expect(posts[1]).toContain('limit 3 per minute for alert and early-warning threads together');
    // and the alert intake finds the minute spent too
    expect(await budget.take(1)).toBe(0);
  });

  it('job links and verdicts carry their writer’s mark: a planted link routes nothing, a planted verdict silences nothing (issue 27.1)', async () => {
    const appKey = ephemeralPlanKeys({ seal: 's9', approval: 'a9', notify: 'n9' });
    const forged: string[] = [];
    const marked = createThreadStore(redis, {
      signer: { by: 'app', key: { keyId: appKey.approval.keyId, privateKey: appKey.approval.privateKey } },
      verifier: { keys: appKey.notify.keys, onForged: (record) => void forged.push(record) },
    });
    const worker = createThreadStore(redis, { signer: { by: 'worker', key: appKey.notify.signing } });
    await worker.linkJob('default', 'diagnose.shop.web', WEB, true);
    expect(await marked.jobLink('default', 'diagnose.shop.web')).toMatchObject({
      workloadHash: WEB,
      earlyWarning: true,
    });
    // A Redis writer points the run at another workload's thread.
    await redis.set('rd:alerts:job:default:diagnose.shop.web', `${'f'.repeat(16)} alert ${Date.now()}`);
    expect(await marked.jobLink('default', 'diagnose.shop.web')).toBeNull();
    expect(forged).toEqual(['alert job link']);

    expect(await marked.swapVerdict('t1', 'RolloutSurgeDeadlock')).toBeNull();
    expect(await marked.swapVerdict('t1', 'RolloutSurgeDeadlock')).toBe('RolloutSurgeDeadlock');
    // Planting the next verdict would make the app think it was already posted.
    await redis.set('rd:alerts:thread:t1:verdict', 'CrashLoop');
    expect(await marked.swapVerdict('t1', 'CrashLoop')).toBeNull();
    expect(forged).toEqual(['alert job link', 'alert thread verdict']);
  });

  it('a worker key’s mark does not pass for records only the app signs: thread records and verdicts (issue 41)', async () => {
    const keys = ephemeralPlanKeys({ seal: 's8', approval: 'a8', notify: 'n8' });
    const forged: string[] = [];
    const app = createThreadStore(redis, {
      signer: { by: 'app', key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey } },
      verifier: { keys: keys.notify.keys, onForged: (record) => void forged.push(record) },
    });
    // A thief of the worker's notify key writes a thread of the attacker's choosing and
    // its verdict, each with a mark that verifies under the worker's public key.
    const thief = createThreadStore(redis, { signer: { by: 'worker', key: keys.notify.signing } });
    const api = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'api' });
    await thief.open(
      { workloadHash: api, channel: 'C0ATTACKER', title: 'All clear' },
      async () => '1700000000.000009',
    );
    expect(await app.find(api)).toBeNull();
    expect(forged).toEqual(['alert thread']);
    await thief.swapVerdict('t9', 'RolloutSurgeDeadlock');
    expect(await app.swapVerdict('t9', 'RolloutSurgeDeadlock')).toBeNull();
    expect(forged).toEqual(['alert thread', 'alert thread verdict']);
  });
});

describe('thread records name their chat platform (issue 45)', () => {
  const keys = ephemeralPlanKeys({ seal: 's7', approval: 'a7', notify: 'n7' });
  const forged: string[] = [];
  const marked = () =>
    createThreadStore(redis, {
      signer: { by: 'app', key: { keyId: keys.approval.keyId, privateKey: keys.approval.privateKey } },
      verifier: { keys: keys.notify.keys, onForged: (record) => void forged.push(record) },
    });
  const TEAMS_CHANNEL = '19:alerts@thread.tacv2';

  it('a Teams thread reads back as Teams, a Slack one without a platform (as records before Teams)', async () => {
    const db = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'db' });
    const cache = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'cache' });
    const store = marked();
    await store.open(
      { workloadHash: db, platform: 'teams', channel: TEAMS_CHANNEL, title: 'db' },
      async () => '1700000000123',
    );
    await store.open(
      { workloadHash: cache, channel: 'C0ALERTS', title: 'cache' },
      async () => '1700000000.000100',
    );
    expect(await store.find(db)).toMatchObject({
      platform: 'teams',
      channel: TEAMS_CHANNEL,
      ts: '1700000000123',
    });
    const slackRecord = await store.find(cache);
    expect(slackRecord).toMatchObject({ channel: 'C0ALERTS' });
    expect(slackRecord).not.toHaveProperty('platform');
    expect(forged).toEqual([]);
  });

  it('the platform is under the mark: a Teams record made to read as Slack, or the other way, is refused', async () => {
    forged.length = 0;
    const queue = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'queue' });
    const mail = workloadHash({ cluster: 'default', namespace: 'shop', kind: 'Deployment', name: 'mail' });
    const store = marked();
    const teamsThread = await store.open(
      { workloadHash: queue, platform: 'teams', channel: TEAMS_CHANNEL, title: 'queue' },
      async () => '1700000000456',
    );
    const slackThread = await store.open(
      { workloadHash: mail, channel: 'C0ALERTS', title: 'mail' },
      async () => '1700000000.000200',
    );
    await redis.hdel(`rd:alerts:thread:${teamsThread.record.threadId}`, 'platform');
    expect(await store.find(queue)).toBeNull();
    await redis.hset(`rd:alerts:thread:${slackThread.record.threadId}`, 'platform', 'teams');
    expect(await store.find(mail)).toBeNull();
    await redis.hset(`rd:alerts:thread:${slackThread.record.threadId}`, 'platform', 'irc');
    expect(await store.find(mail)).toBeNull();
    expect(forged).toEqual(['alert thread', 'alert thread', 'alert thread']);
  });
});

describe('threads of warned applies (issue 56.3)', () => {
  const warned = (
    name = 'web',
    user = 'alice',
  ): Parameters<ReturnType<typeof createAdmissionWarningOpener>>[0] => ({
    kind: 'admission-warning',
    cluster: 'default',
    workload: { kind: 'Deployment', namespace: 'shop', name },
    user,
    code: 'RolloutSurgeDeadlock',
    reason: 'its new pod needs 1 nvidia.com/gpu, held by its old pods',
    fix: 'maxSurge 0, maxUnavailable 1',
    at: '2026-11-26T00:00:00.000Z',
  });

  it('opens the workload’s thread under the early warning’s key; the early warning’s result joins it', async () => {
    const opener = createAdmissionWarningOpener({ store, chats, channelFor: () => 'C0WATCH', logger });
    expect(await opener(warned('web', 'mallory <!here> *x*'))).toBe('opened');
    const root = String(calls[0]?.args['text']);
    expect(root).toContain('A rollout that can never finish was just applied to deployment/web by mallory');
    expect(root).not.toContain('<!here>');
    // Again (a retried apply, the other replica): nothing posted.
    expect(await opener(warned())).toBe('joined');
    expect(calls.filter((c) => c.method === 'post')).toHaveLength(1);
    // The early warning's diagnosis of the started rollout goes into that thread.
    await store.linkJob('default', 'diagnose.shop.web', WEB, true);
    const posted: string[] = [];
    const deps = {
      store,
      logger,
      openEarlyWarning: createEarlyWarningOpener({ store, chats, channelFor: () => 'C0WATCH' }),
      postInThread: async (t: { ts: string }) => void posted.push(t.ts),
    };
    expect(await deliverAlertResult(deps, result([finding('RolloutSurgeDeadlock')]))).toBe('posted');
    expect(calls.filter((c) => c.method === 'post')).toHaveLength(1);
    expect(posted).toEqual([(await store.find(WEB))?.ts]);
  });

  it('keeps the early warning’s caps: the read policy, and a per-minute budget with its one summary', async () => {
    const closed = createAdmissionWarningOpener({
      store,
      chats,
      channelFor: () => 'C0WATCH',
      logger,
      allows: () => false,
    });
    expect(await closed(warned())).toBe('refused');
    expect(calls).toEqual([]);
    const budget = createThreadBudget(redis, 1, () => Date.UTC(2026, 10, 26, 1, 2, 3));
    const opener = createAdmissionWarningOpener({
      store,
      chats,
      channelFor: () => 'C0WATCH',
      logger,
      budget,
    });
    expect(await opener(warned('a'))).toBe('opened');
    expect(await opener(warned('b'))).toBe('over-budget');
    expect(await opener(warned('c'))).toBe('over-budget');
    const posts = calls.filter((c) => c.method === 'post').map((c) => String(c.args['text']));
    expect(posts).toHaveLength(2);
    expect(posts[1]).toContain('More warned applies this minute than rollout-doctor opens threads for');
  });
});
