import { leaderKey } from '../../src/worker/early-warning/lease.js';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workloadHash } from '../../src/queue/alert-keys.js';
import { createThreadStore } from '../../src/queue/alert-thread-store.js';
import { startEarlyWarning } from '../../src/worker/early-warning/watch.js';
import type { ListWatchSource } from '../../src/worker/early-warning/stream.js';
import { closeConnection, createProducerConnection } from '../../src/queue/connection.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../../src/queue/names.js';
import { createProducers, type Producers, BACKGROUND_PRIORITY } from '../../src/queue/producers.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { waitUntil as waitFor } from '../support/wait.js';

let redis: TestRedis;
let connection: Redis;
let producers: Producers;

beforeAll(async () => {
  redis = await startRedis();
  connection = createProducerConnection(redis.url);
  producers = createProducers({ connection, clusters: ['prod'] });
});

afterAll(async () => {
  await producers?.close();
  if (connection) await closeConnection(connection);
  await redis?.close();
});

/** Polls a condition (test/support/wait.ts): no fixed sleeps. */
const waitUntil = (condition: () => boolean): Promise<true> => waitFor('condition', condition);

describe('worker early-warning wiring', () => {
  it('is off without namespaces', () => {
    const watch = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: [], intervalMs: 1_000, windowMs: 60_000, debounceMs: 100 },
      scan: async () => ({ entries: [] }),
      producers,
      redis: connection,
      logger: { info: () => undefined, warn: () => undefined },
    });
    expect(watch).toBeUndefined();
  });

  it('queues one diagnosis per deadlocked workload on its cluster queue and marks the run as an early warning', async () => {
    const scanned: string[] = [];
    const watch = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
      scan: async (namespace) => {
        scanned.push(namespace ?? '*');
        return {
          entries: [
            {
              namespace: 'vision',
              name: 'tracker',
              findings: [
                { code: 'RolloutSurgeDeadlock', summary: 'new pod waits for the GPU the old pod holds' },
              ],
            },
          ],
        };
      },
      producers,
      redis: connection,
      logger: { info: () => undefined, warn: () => undefined },
    });
    expect(watch).toBeDefined();
    // Elected (the only replica), it ran one pass; a second pass inside the window adds no job.
    await waitUntil(() => scanned.length >= 1);
    expect(watch?.stats().leader).toBe(true);
    await watch?.scan.runOnce();
    await watch?.stop();
    expect(scanned.length).toBeGreaterThanOrEqual(2);
    const queue = new Queue(diagnoseQueueName('prod'), { connection, prefix: QUEUE_PREFIX });
    // Early-warning runs wait behind anything a person asks for (a BullMQ priority).
    const jobs = await queue.getJobs(['waiting', 'prioritized']);
    await queue.close();
    expect(jobs.map((j) => [j.id, j.data])).toEqual([
      [
        'diagnose.vision.tracker',
        {
          mode: 'workload',
          cluster: 'prod',
          target: { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
          requestedBy: 'EARLYWARNING',
        },
      ],
    ]);
    expect(jobs.map((j) => j.opts.priority)).toEqual([BACKGROUND_PRIORITY]);
    const link = await createThreadStore(connection).jobLink('prod', 'diagnose.vision.tracker');
    expect(link).toMatchObject({
      workloadHash: workloadHash({
        cluster: 'prod',
        namespace: 'vision',
        kind: 'Deployment',
        name: 'tracker',
      }),
      earlyWarning: true,
    });
  });

  it('runs on one replica at a time: the lease holder scans, another takes over when it stops', async () => {
    const scans: Record<string, number> = { a: 0, b: 0 };
    const replica = (name: 'a' | 'b') =>
      startEarlyWarning({
        cluster: 'prod',
        watch: { namespaces: ['vision'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
        scan: async () => {
          scans[name] = (scans[name] ?? 0) + 1;
          return { entries: [] };
        },
        producers,
        redis: connection,
        leaseMs: 300,
        logger: { info: () => undefined, warn: () => undefined },
      });
    const a = replica('a');
    await waitUntil(() => a?.stats().leader === true);
    const b = replica('b');
    // b competes for several lease periods and stays on standby.
    await waitUntil(() => (scans['a'] ?? 0) >= 1);
    const deadline = Date.now() + 400;
    await waitUntil(() => Date.now() > deadline);
    expect(b?.stats()).toMatchObject({ leader: false, scope: 'standby' });
    expect(scans['b']).toBe(0);
    await a?.stop();
    await waitUntil(() => b?.stats().leader === true);
    await waitUntil(() => (scans['b'] ?? 0) >= 1);
    await b?.stop();
  });

  it('takes the lease over from a holder no worker wrote, and says so (issue 27.1)', async () => {
    // A Redis writer parks a made-up holder, without expiry, to switch the early warning off.
    await connection.set(leaderKey('prod'), 'someone-else');
    const warnings: string[] = [];
    let scanned = 0;
    const keys = {
      current: { id: 's1', secret: Buffer.alloc(32, 7) },
      accepted: new Map([['s1', Buffer.alloc(32, 7)]]),
    };
    const w = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
      scan: async () => {
        scanned += 1;
        return { entries: [] };
      },
      producers,
      redis: connection,
      leaseMs: 300,
      leaseKeys: keys,
      logger: { info: () => undefined, warn: (_o: object, msg: string) => void warnings.push(msg) },
    });
    await waitUntil(() => w?.stats().leader === true);
    await waitUntil(() => scanned >= 1);
    expect(warnings.some((m) => m.includes('lease held by a value no worker wrote'))).toBe(true);
    expect(await connection.get(leaderKey('prod'))).toMatch(/^[0-9a-f-]{36}\.s1\.[0-9a-f]{64}$/);
    // A second replica with the same keys sees a worker's holder and stays on standby.
    const other = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
      scan: async () => ({ entries: [] }),
      producers,
      redis: connection,
      leaseMs: 300,
      leaseKeys: keys,
      logger: { info: () => undefined, warn: (_o: object, msg: string) => void warnings.push(msg) },
    });
    const deadline = Date.now() + 400;
    await waitUntil(() => Date.now() > deadline);
    expect(other?.stats().leader).toBe(false);
    expect(warnings.filter((m) => m.includes('lease held by a value no worker wrote'))).toHaveLength(1);
    await other?.stop();
    await w?.stop();
  });

  it('falls back to one watch per namespace when the cluster-wide watch is forbidden', async () => {
    const opened: string[] = [];
    const source: ListWatchSource = {
      async listPage(spec) {
        return { items: [], resourceVersion: spec.namespace ? '7' : '3' };
      },
      async watch(spec, _options, _onEvent, signal) {
        opened.push(`${spec.resource} ${spec.namespace ?? '(all)'}`);
        // RBAC refuses the cluster-wide pod watch only: the cluster-wide event stream must not linger.
        if (spec.namespace === undefined && spec.resource === 'pods') return 403;
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return 0;
      },
    };
    const watch = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision', 'shop'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
      scan: async () => ({ entries: [] }),
      producers,
      redis: connection,
      listWatch: source,
      logger: { info: () => undefined, warn: () => undefined },
    });
    await waitUntil(() => watch?.stats().scope === 'namespaces' && watch.stats().watchesHeld >= 4);
    // Give a lingering stream the chance to show: the held count stays at the four per-namespace ones.
    const settled = Date.now() + 200;
    await waitUntil(() => Date.now() > settled);
    expect(watch?.stats().watchesHeld).toBe(4);
    expect(opened.filter((o) => !o.endsWith('(all)')).sort()).toEqual([
      'events shop',
      'events vision',
      'pods shop',
      'pods vision',
    ]);
    await watch?.stop();
    expect(watch?.stats().watchesHeld).toBe(0);
  });

  it('keeps watching the namespaces RBAC allows when one of them refuses', async () => {
    const source: ListWatchSource = {
      async listPage() {
        return { items: [], resourceVersion: '5' };
      },
      async watch(spec, _options, _onEvent, signal) {
        if (spec.namespace === undefined || spec.namespace === 'shop') return 403;
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return 0;
      },
    };
    const warnings: string[] = [];
    const watch = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision', 'shop'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 100 },
      scan: async () => ({ entries: [] }),
      producers,
      redis: connection,
      listWatch: source,
      logger: { info: () => undefined, warn: (_o, msg) => void warnings.push(msg) },
    });
    await waitUntil(() =>
      warnings.some((w) => w.startsWith('early-warning watch of this namespace forbidden')),
    );
    await waitUntil(() => watch?.stats().watchesHeld === 2);
    expect(watch?.stats().scope).toBe('namespaces');
    await watch?.stop();
  });

  it('resolves a pod the pod stream has not shown yet when a re-list of events (410 Gone) names it', async () => {
    // The event watch expired while the cluster changed: its re-list holds the
    // FailedScheduling of a pod created meanwhile, which the pod stream is still behind on.
    const failed = {
      metadata: { name: 'tracker-6d4f7b9c8-abcde.1', namespace: 'vision', resourceVersion: '30' },
      involvedObject: { kind: 'Pod', name: 'tracker-6d4f7b9c8-abcde', namespace: 'vision' },
      reason: 'FailedScheduling',
      type: 'Warning',
      message: '0/1 nodes are available: 1 Insufficient nvidia.com/gpu.',
    };
    let eventLists = 0;
    let eventWatches = 0;
    const source: ListWatchSource = {
      async listPage(spec) {
        if (spec.resource === 'pods') return { items: [], resourceVersion: '1' };
        eventLists += 1;
        return eventLists === 1
          ? { items: [], resourceVersion: '1' }
          : { items: [failed], resourceVersion: '30' };
      },
      async watch(spec, _options, _onEvent, signal) {
        if (spec.resource === 'events' && (eventWatches += 1) === 1) return 410;
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return 0;
      },
    };
    const resolved: string[] = [];
    const watch = startEarlyWarning({
      cluster: 'prod',
      watch: { namespaces: ['vision'], intervalMs: 60_000, windowMs: 60_000, debounceMs: 20 },
      scan: async () => ({ entries: [] }),
      producers,
      redis: connection,
      listWatch: source,
      resolvePodOwner: async (namespace, pod) => {
        resolved.push(`${namespace}/${pod}`);
        return { kind: 'Deployment', name: 'tracker' };
      },
      logger: { info: () => undefined, warn: () => undefined },
    });
    await waitUntil(() => (watch?.stats().queued ?? 0) >= 1);
    expect(resolved).toEqual(['vision/tracker-6d4f7b9c8-abcde']);
    expect(eventLists).toBe(2);
    await watch?.stop();
  });
});
