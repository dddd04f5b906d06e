/**
 * The early-warning watch's pure parts: which pod and event changes are signals
 * (keyed on pod and workload, never on the Event object), the per-workload debounce,
 * and list-then-watch with resume and re-list on 410 Gone (a scripted source).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WatchEvent } from '../../src/kube/client.js';
import { createWorkloadTrigger, type TriggeredWorkload } from '../../src/worker/early-warning/trigger.js';
import {
  SignalTracker,
  eventSignalOf,
  restartsClimbed,
  type Signal,
} from '../../src/worker/early-warning/signals.js';
import { deploymentOfPod } from '../../src/diagnosis/workloads/deployment/replica-sets.js';
import {
  StreamForbiddenError,
  emptyStats,
  runListWatch,
  type ListWatchSource,
  type StreamSpec,
} from '../../src/worker/early-warning/stream.js';

const logger = { warn: () => undefined, debug: () => undefined };

function pod(
  name: string,
  opts: { rs?: string; hash?: string; restarts?: number; waiting?: string; namespace?: string } = {},
): Record<string, unknown> {
  const hash = opts.hash ?? '7d9f8c6b5';
  return {
    metadata: {
      name,
      namespace: opts.namespace ?? 'vision',
      uid: `uid-${name}`,
      labels: { app: 'tracker', 'pod-template-hash': hash },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: opts.rs ?? `tracker-${hash}`, controller: true },
      ],
    },
    status: {
      phase: 'Running',
      containerStatuses: [
        {
          name: 'app',
          restartCount: opts.restarts ?? 0,
          state: opts.waiting ? { waiting: { reason: opts.waiting } } : { running: {} },
        },
      ],
    },
  };
}

function event(
  podName: string,
  reason: string,
  count: number,
  message = '0/10 nodes are available: 1 Insufficient nvidia.com/gpu.',
): Record<string, unknown> {
  return {
    metadata: {
      name: `${podName}.1879a6c2d4e5f601`,
      namespace: 'vision',
      resourceVersion: String(100 + count),
    },
    involvedObject: { kind: 'Pod', namespace: 'vision', name: podName, uid: `uid-${podName}` },
    reason,
    message,
    type: 'Warning',
    count,
  };
}

describe('signals', () => {
  it('finds the Deployment from the ReplicaSet name and the pod-template-hash label, without a read', () => {
    expect(deploymentOfPod(pod('tracker-7d9f8c6b5-x2kqz'))).toBe('tracker');
    // A ReplicaSet not named after the hash is not a Deployment's: no guess.
    expect(deploymentOfPod(pod('batch-q8w4z', { rs: 'batch' }))).toBeUndefined();
  });

  it('counts restarts past 1, 2, 4, 8 (doubling), not every crash', () => {
    expect([0, 1, 2, 3, 4, 5, 7, 8].map((n) => restartsClimbed(n, n + 1))).toEqual([
      true,
      true,
      false,
      true,
      false,
      false,
      true,
      false,
    ]);
    expect(restartsClimbed(3, 3)).toBe(false);
  });

  it('keys FailedScheduling on the pod: a repeat (MODIFIED, higher count) raises nothing new', () => {
    const t = new SignalTracker();
    t.beginList();
    t.listPage([pod('tracker-7d9f8c6b5-x2kqz')], true);
    t.endList(undefined);
    expect(t.onPod('ADDED', pod('tracker-5c4b8d7f9-mw8tn', { hash: '5c4b8d7f9' }))).toEqual([]);
    const first = t.onEvent('ADDED', event('tracker-5c4b8d7f9-mw8tn', 'FailedScheduling', 1));
    expect(first).toEqual({
      signal: {
        kind: 'Deployment',
        namespace: 'vision',
        name: 'tracker',
        pod: 'tracker-5c4b8d7f9-mw8tn',
        reason: 'FailedScheduling',
      },
    });
    expect(t.onEvent('MODIFIED', event('tracker-5c4b8d7f9-mw8tn', 'FailedScheduling', 2))).toBeUndefined();
    expect(t.onEvent('MODIFIED', event('tracker-5c4b8d7f9-mw8tn', 'FailedScheduling', 7))).toBeUndefined();
    // Another pod of the same workload is a new signal (the trigger merges them).
    t.onPod('ADDED', pod('tracker-5c4b8d7f9-bq7hd', { hash: '5c4b8d7f9' }));
    expect(t.onEvent('ADDED', event('tracker-5c4b8d7f9-bq7hd', 'FailedScheduling', 1))).toMatchObject({
      signal: { pod: 'tracker-5c4b8d7f9-bq7hd' },
    });
  });

  it('raises Multi-Attach but not other attach failures; an unknown pod is handed back for a read', () => {
    const t = new SignalTracker();
    t.onPod('ADDED', pod('tracker-5c4b8d7f9-mw8tn', { hash: '5c4b8d7f9' }));
    expect(
      t.onEvent(
        'ADDED',
        event('tracker-5c4b8d7f9-mw8tn', 'FailedAttachVolume', 1, 'AttachVolume.Attach failed: timeout'),
      ),
    ).toBeUndefined();
    expect(
      t.onEvent(
        'ADDED',
        event(
          'tracker-5c4b8d7f9-mw8tn',
          'FailedAttachVolume',
          1,
          'Multi-Attach error for volume "pvc-0f3c" Volume is already used by pod(s) tracker-7d9f8c6b5-x2kqz',
        ),
      ),
    ).toMatchObject({ signal: { reason: 'MultiAttach' } });
    expect(t.onEvent('ADDED', event('tracker-5c4b8d7f9-zz9tq', 'FailedScheduling', 1))).toEqual({
      unknownPod: { namespace: 'vision', pod: 'tracker-5c4b8d7f9-zz9tq', reason: 'FailedScheduling' },
    });
    expect(
      t.adopt(
        { kind: 'Deployment', namespace: 'vision', name: 'tracker' },
        'tracker-5c4b8d7f9-zz9tq',
        'FailedScheduling',
      ),
    ).toMatchObject({ name: 'tracker' });
    expect(t.onEvent('MODIFIED', event('tracker-5c4b8d7f9-zz9tq', 'FailedScheduling', 2))).toBeUndefined();
  });

  it("takes the namespace from the Event itself: an Event naming another namespace's pod starts nothing", () => {
    const own = event('tracker-7d9f8c6b5-x2kqz', 'FailedScheduling', 1);
    expect(eventSignalOf(own)).toEqual({
      namespace: 'vision',
      pod: 'tracker-7d9f8c6b5-x2kqz',
      reason: 'FailedScheduling',
    });
    // Created in a tenant's namespace (allowed for events.k8s.io Events with eventTime), about a pod elsewhere.
    const planted = { ...own, metadata: { name: 'x.1', namespace: 'tenant-a' } };
    expect(eventSignalOf(planted)).toBeUndefined();
    const regarding = {
      metadata: { name: 'y.1', namespace: 'tenant-a' },
      regarding: { kind: 'Pod', namespace: 'payments', name: 'pay-6d4f-abcde' },
      reason: 'FailedScheduling',
      note: '0/3 nodes are available',
    };
    expect(eventSignalOf(regarding)).toBeUndefined();
    // No namespace on the object it is about: the Event's own.
    const bare = { ...regarding, regarding: { kind: 'Pod', name: 'web-6d4f-abcde' } };
    expect(eventSignalOf(bare)).toEqual({
      namespace: 'tenant-a',
      pod: 'web-6d4f-abcde',
      reason: 'FailedScheduling',
    });
    const tracker = new SignalTracker((ns) => ns === 'payments');
    expect(tracker.onEvent('ADDED', regarding)).toBeUndefined();
  });

  it('raises CrashLoopBackOff when a container turns to it and restarts when they climb, from pod status', () => {
    const t = new SignalTracker();
    const name = 'checkout-6b8f7d9c4-t4k2p';
    const p = (restarts: number, waiting?: string) =>
      pod(name, { hash: '6b8f7d9c4', rs: 'checkout-6b8f7d9c4', restarts, ...(waiting ? { waiting } : {}) });
    expect(t.onPod('ADDED', p(0))).toEqual([]);
    expect(t.onPod('MODIFIED', p(1)).map((s) => s.reason)).toEqual(['Restarts']);
    expect(t.onPod('MODIFIED', p(1, 'CrashLoopBackOff')).map((s) => s.reason)).toEqual(['CrashLoopBackOff']);
    expect(t.onPod('MODIFIED', p(2, 'CrashLoopBackOff')).map((s) => s.reason)).toEqual(['Restarts']);
    expect(t.onPod('MODIFIED', p(3, 'CrashLoopBackOff'))).toEqual([]);
    expect(t.onPod('DELETED', p(3))).toEqual([]);
    expect(t.size).toBe(0);
  });

  it('drops pods of namespaces it does not watch and keeps only slim records', () => {
    const t = new SignalTracker((ns) => ns === 'vision');
    t.onPod('ADDED', pod('tracker-7d9f8c6b5-x2kqz'));
    t.onPod('ADDED', pod('api-7d9f8c6b5-h4jq9', { namespace: 'other', rs: 'api-7d9f8c6b5' }));
    expect(t.size).toBe(1);
    expect(t.onPod('MODIFIED', pod('api-7d9f8c6b5-h4jq9', { namespace: 'other', restarts: 5 }))).toEqual([]);
  });

  it('after a re-list, raises what changed meanwhile and forgets pods the list no longer holds', () => {
    const t = new SignalTracker();
    t.beginList();
    t.listPage([pod('tracker-7d9f8c6b5-x2kqz'), pod('tracker-7d9f8c6b5-bq7hd')], true);
    t.endList(undefined);
    expect(t.size).toBe(2);
    t.beginList();
    const signals = t.listPage([pod('tracker-7d9f8c6b5-x2kqz', { restarts: 2 })], false);
    t.endList(undefined);
    expect(signals.map((s: Signal) => [s.pod, s.reason])).toEqual([['tracker-7d9f8c6b5-x2kqz', 'Restarts']]);
    expect(t.size).toBe(1);
  });
});

describe('workload trigger (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  function trigger(debounceMs: number, cooldownMs: number, maxCooldownMs: number) {
    const queued: TriggeredWorkload[] = [];
    const t = createWorkloadTrigger({
      debounceMs,
      cooldownMs,
      maxCooldownMs,
      enqueue: async (w) => void queued.push(w),
      logger,
    });
    return { t, queued };
  }

  it('diagnoses at most 10 workloads of one namespace a minute; the rest wait for room, other namespaces do not (issue 27.4)', async () => {
    vi.useFakeTimers();
    const queued: TriggeredWorkload[] = [];
    const warn = vi.fn();
    const t = createWorkloadTrigger({
      debounceMs: 1_000,
      cooldownMs: 5_000,
      maxCooldownMs: 300_000,
      enqueue: async (w) => void queued.push(w),
      logger: { warn },
    });
    // A tenant creates 75 Deployments that all fail at once.
    for (let i = 0; i < 75; i += 1)
      t.signal({
        kind: 'Deployment',
        namespace: 'tenant-a',
        name: `spam-${i}`,
        pod: `p${i}`,
        reason: 'FailedScheduling',
      });
    t.signal({
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
      pod: 'c0',
      reason: 'CrashLoopBackOff',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(queued.filter((w) => w.namespace === 'tenant-a')).toHaveLength(10);
    expect(queued.filter((w) => w.namespace === 'shop')).toHaveLength(1);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ namespace: 'tenant-a', limit: 10 }),
      expect.stringContaining('more workloads of this namespace signalled this minute'),
    );
    // Nothing is lost: a minute later the next ten are diagnosed.
    await vi.advanceTimersByTimeAsync(59_999);
    expect(queued.filter((w) => w.namespace === 'tenant-a')).toHaveLength(10);
    await vi.advanceTimersByTimeAsync(2);
    expect(queued.filter((w) => w.namespace === 'tenant-a')).toHaveLength(20);
    expect(new Set(queued.map((w) => w.name)).size).toBe(queued.length);
    t.stop();
  });

  it('turns a burst of signals of one workload into one diagnosis, then cools down 5 s, 10 s, 20 s, ...', async () => {
    vi.useFakeTimers();
    const { t, queued } = trigger(1_000, 5_000, 300_000);
    for (let i = 0; i < 50; i += 1) {
      t.signal({
        kind: 'Deployment',
        namespace: 'vision',
        name: 'tracker',
        pod: `p${i % 3}`,
        reason: 'FailedScheduling',
      });
    }
    t.signal({ kind: 'Deployment', namespace: 'vision', name: 'tracker', pod: 'p0', reason: 'MultiAttach' });
    await vi.advanceTimersByTimeAsync(999);
    expect(queued).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(queued).toEqual([
      {
        kind: 'Deployment',
        namespace: 'vision',
        name: 'tracker',
        reasons: ['FailedScheduling', 'MultiAttach'],
        pods: ['p0', 'p1', 'p2'],
      },
    ]);
    // Signals inside the cooldown are merged into one diagnosis at its end (5 s after the first, at 6 s).
    t.signal({ kind: 'Deployment', namespace: 'vision', name: 'tracker', pod: 'p0', reason: 'Restarts' });
    t.signal({ kind: 'Deployment', namespace: 'vision', name: 'tracker', pod: 'p1', reason: 'Restarts' });
    await vi.advanceTimersByTimeAsync(4_999);
    expect(queued).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(queued).toHaveLength(2);
    expect(queued[1]?.pods).toEqual(['p0', 'p1']);
    // The next cooldown is twice as long (10 s after the second, at 16 s).
    t.signal({
      kind: 'Deployment',
      namespace: 'vision',
      name: 'tracker',
      pod: 'p0',
      reason: 'CrashLoopBackOff',
    });
    await vi.advanceTimersByTimeAsync(9_999);
    expect(queued).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(queued).toHaveLength(3);
    // Another workload is not held back by the first one's cooldown.
    t.signal({
      kind: 'Deployment',
      namespace: 'shop',
      name: 'checkout',
      pod: 'c0',
      reason: 'CrashLoopBackOff',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(queued.map((w) => w.name)).toEqual(['tracker', 'tracker', 'tracker', 'checkout']);
    // Quiet for the longest cooldown: the tracker starts again from the debounce alone.
    await vi.advanceTimersByTimeAsync(300_000);
    t.signal({
      kind: 'Deployment',
      namespace: 'vision',
      name: 'tracker',
      pod: 'p3',
      reason: 'FailedScheduling',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(queued).toHaveLength(5);
    // Stopped with a diagnosis pending: neither it nor a later signal is queued. (Not
    // vi.getTimerCount(): in the shared suite it counts other files' client timers.)
    t.signal({ kind: 'Deployment', namespace: 'vision', name: 'tracker', pod: 'p4', reason: 'OOMKilled' });
    t.stop();
    t.signal({ kind: 'Deployment', namespace: 'shop', name: 'cart', pod: 'k0', reason: 'CrashLoopBackOff' });
    await vi.advanceTimersByTimeAsync(600_000);
    expect(queued).toHaveLength(5);
  });
});

describe('workload trigger when the queue is away (fake clock)', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps the signals of a diagnosis that could not be queued and tries again after the cooldown', async () => {
    vi.useFakeTimers();
    const attempts: TriggeredWorkload[] = [];
    let redisUp = false;
    const t = createWorkloadTrigger({
      debounceMs: 1_000,
      cooldownMs: 5_000,
      maxCooldownMs: 300_000,
      enqueue: async (w) => {
        attempts.push(w);
        if (!redisUp) throw new Error('Redis did not answer');
      },
      logger,
    });
    t.signal({
      kind: 'Deployment',
      namespace: 'vision',
      name: 'tracker',
      pod: 'p0',
      reason: 'FailedScheduling',
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(attempts).toHaveLength(1);
    expect(t.queued).toBe(0);
    redisUp = true;
    await vi.advanceTimersByTimeAsync(4_999);
    expect(attempts).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(attempts).toHaveLength(2);
    expect(attempts[1]).toMatchObject({ reasons: ['FailedScheduling'], pods: ['p0'] });
    expect(t.queued).toBe(1);
    t.stop();
  });
});

/** A scripted list/watch source: each watch call plays the next script entry. */
function scripted(
  lists: { items: Record<string, unknown>[]; resourceVersion: string }[],
  watches: { events: WatchEvent[]; status: number; thenFails?: boolean }[],
) {
  const calls: string[] = [];
  const source: ListWatchSource = {
    async listPage(spec) {
      const next = lists.shift();
      if (!next) throw new Error('no more lists');
      calls.push(`list ${spec.resource}`);
      return next;
    },
    async watch(spec, options, onEvent, signal) {
      calls.push(`watch ${spec.resource} from ${options.resourceVersion}`);
      const next = watches.shift();
      if (!next) {
        // Hold the stream open until the test stops it.
        await new Promise<void>((resolve) =>
          signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        return 0;
      }
      for (const e of next.events) onEvent(e);
      if (next.thenFails) throw new Error('socket hang up');
      return next.status;
    },
  };
  return { source, calls };
}

describe('list-then-watch', () => {
  const spec: StreamSpec = { resource: 'pods', namespace: 'vision' };
  const withRv = (name: string, rv: string) => ({
    metadata: { name, namespace: 'vision', resourceVersion: rv },
  });

  it('resumes from the last resourceVersion seen, bookmarks included, and re-lists after 410 Gone', async () => {
    const { source, calls } = scripted(
      [
        { items: [withRv('a', '10')], resourceVersion: '10' },
        { items: [withRv('a', '40')], resourceVersion: '40' },
      ],
      [
        // A normal end (server timeout) after two changes and a bookmark.
        {
          events: [
            { type: 'MODIFIED', object: withRv('a', '11') },
            { type: 'BOOKMARK', object: withRv('', '15') },
          ],
          status: 200,
        },
        // The resume is too old: an ERROR event with 410 inside a 200 stream.
        {
          events: [{ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } }],
          status: 200,
        },
      ],
    );
    const stats = emptyStats();
    const pages: number[] = [];
    const events: string[] = [];
    const abort = new AbortController();
    const done = runListWatch(
      source,
      spec,
      {
        onListPage: (items) => pages.push(items.length),
        onEvent: (e) => events.push(e.type),
      },
      { signal: abort.signal, stats, logger, backoffMs: () => 1 },
    );
    await vi.waitFor(() => expect(calls).toHaveLength(5), { timeout: 2_000, interval: 5 });
    expect(calls).toEqual([
      'list pods',
      'watch pods from 10',
      'watch pods from 15',
      'list pods',
      'watch pods from 40',
    ]);
    expect(events).toEqual(['MODIFIED']);
    expect(stats).toMatchObject({ lists: 2, relists410: 1, open: 1 });
    abort.abort();
    await done;
    expect(stats.open).toBe(0);
  });

  it('resumes after a watch that failed from the last change it delivered, not from where it began', async () => {
    const { source, calls } = scripted(
      [{ items: [withRv('a', '10')], resourceVersion: '10' }],
      [{ events: [{ type: 'MODIFIED', object: withRv('a', '12') }], status: 0, thenFails: true }],
    );
    const events: string[] = [];
    const abort = new AbortController();
    const done = runListWatch(
      source,
      spec,
      { onListPage: () => undefined, onEvent: (e) => events.push(e.type) },
      { signal: abort.signal, stats: emptyStats(), logger, backoffMs: () => 1 },
    );
    await vi.waitFor(() => expect(calls).toHaveLength(3), { timeout: 2_000, interval: 5 });
    // Resuming from 10 would deliver the change at 12 a second time.
    expect(calls).toEqual(['list pods', 'watch pods from 10', 'watch pods from 12']);
    expect(events).toEqual(['MODIFIED']);
    abort.abort();
    await done;
  });

  it('stops with StreamForbiddenError when RBAC refuses the watch', async () => {
    const { source } = scripted([{ items: [], resourceVersion: '3' }], [{ events: [], status: 403 }]);
    await expect(
      runListWatch(
        source,
        spec,
        { onListPage: () => undefined, onEvent: () => undefined },
        { signal: new AbortController().signal, stats: emptyStats(), logger, backoffMs: () => 1 },
      ),
    ).rejects.toBeInstanceOf(StreamForbiddenError);
  });
});
