/**
 * The webhook's cluster view stays bounded whatever reviews name (issue 67.4): a
 * namespace that does not exist is looked up once and never read or renewed, every
 * per-namespace or per-change map is an LRU of its bound (evictions told), and lookups of
 * unknown namespaces past the lane and its queue are refused at once.
 */
import { describe, expect, it } from 'vitest';
import { cachedView, ViewBusy, type Evicted } from '../../src/admission/cached-source.js';
import type { ApiCall } from '../../src/kube/api-paths.js';
import type { KubeClient } from '../../src/kube/client.js';
import { KubeApiError } from '../../src/kube/errors.js';

/** A cluster of the namespaces named, every list empty; each call recorded, namespace GETs held while `hold` is set. */
function fakeCluster(existing: string[], annotations: Record<string, Record<string, string>> = {}) {
  const calls: ApiCall[] = [];
  let held: (() => void)[] | undefined;
  const client: KubeClient = {
    server: 'https://fake',
    context: 'fake',
    namespace: undefined,
    async call<T>(call: ApiCall): Promise<T> {
      calls.push(call);
      if (call.verb === 'list') return { items: [], metadata: {} } as T;
      if (call.resource === 'namespaces' && held) await new Promise<void>((r) => held?.push(r));
      if (call.resource === 'namespaces' && call.name && existing.includes(call.name))
        return {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: call.name, annotations: annotations[call.name] ?? {} },
        } as T;
      throw new KubeApiError('not found', 404, { verb: call.verb, resource: call.resource });
    },
    text: () => Promise.resolve(''),
    watch: () => Promise.resolve(0),
  };
  return {
    client,
    calls,
    hold: () => {
      held = [];
    },
    release: () => {
      const waiting = held ?? [];
      held = undefined;
      for (const r of waiting) r();
    },
    waiting: () => held?.length ?? 0,
  };
}

const of = (calls: ApiCall[], ns: string) => calls.filter((c) => c.namespace === ns || c.name === ns);

describe("the webhook's cluster view bounds", () => {
  it('looks a made-up namespace up once a window and reads nothing else of it', async () => {
    const cluster = fakeCluster(['shop']);
    const view = cachedView(cluster.client, 1000, () => 0);
    expect(await view.exists('ghost')).toBe(false);
    expect(await view.exists('ghost')).toBe(false);
    expect(await view.exists('shop')).toBe(true);
    expect(of(cluster.calls, 'ghost')).toEqual([{ verb: 'get', resource: 'namespaces', name: 'ghost' }]);
  });

  it('renews only namespaces reviewed and still there, at most `renew` of them, the most recent', async () => {
    const cluster = fakeCluster(['a', 'b', 'c', 'gone']);
    let now = 0;
    const evicted: Evicted[] = [];
    const view = cachedView(cluster.client, 1000, () => now, {
      bounds: { renew: 2 },
      onEvict: (what) => evicted.push(what),
    });
    for (const ns of ['a', 'b', 'c', 'gone']) {
      expect(await view.exists(ns)).toBe(true);
      await view.source().live('Deployment', ns, 'web');
    }
    for (const ns of ['a', 'b', 'c']) view.touch(ns);
    expect(evicted).toEqual(['renew']); // a: the least recently reviewed past 2
    now = 1500;
    cluster.calls.length = 0;
    const first = view.source();
    let renewed = first;
    while (renewed === first) {
      await new Promise<void>((r) => setImmediate(r));
      renewed = view.source();
    }
    // b and c are looked up again and renewed; a (evicted) and gone (never reviewed) are not.
    expect(of(cluster.calls, 'a')).toEqual([]);
    expect(of(cluster.calls, 'gone')).toEqual([]);
    expect(of(cluster.calls, 'b').length).toBeGreaterThan(1);
    // c was looked up by the renewal: known to exist with no further GET.
    expect(await view.exists('c')).toBe(true);
    expect(of(cluster.calls, 'c').filter((c) => c.resource === 'namespaces')).toHaveLength(1);
  });

  it('forgets the least recently used namespace objects and answers past their bounds', async () => {
    const names = Array.from({ length: 10 }, (_, i) => `ns-${i}`);
    const cluster = fakeCluster(names);
    const evicted: Evicted[] = [];
    const view = cachedView(cluster.client, 1000, () => 0, {
      bounds: { namespaces: 3, answers: 2, reads: 2 },
      onEvict: (what) => evicted.push(what),
    });
    for (const ns of names) {
      await view.exists(ns);
      await view.source().live('Deployment', ns, 'web');
    }
    expect(evicted.filter((e) => e === 'namespaces')).toHaveLength(7);
    expect(evicted.filter((e) => e === 'reads')).toHaveLength(8);
    let computed = 0;
    const compute = () => Promise.resolve(++computed);
    for (const key of ['x', 'y', 'z', 'x']) await view.memo(key, compute);
    expect(computed).toBe(4); // x was forgotten when z came
    expect(evicted.filter((e) => e === 'answers')).toHaveLength(2);
  });

  it('refuses a lookup of an unknown namespace at once past the lane and its queue', async () => {
    const cluster = fakeCluster(['shop']);
    const view = cachedView(cluster.client, 1000, () => 0, { bounds: { probeLane: 1, probeQueue: 1 } });
    cluster.hold();
    const first = view.exists('one');
    const second = view.exists('two');
    await expect(view.exists('three')).rejects.toBeInstanceOf(ViewBusy);
    cluster.release();
    expect(await Promise.all([first, second])).toEqual([false, false]);
    // A busy lookup is not kept: asked again once the lane is free, it is answered.
    expect(await view.exists('three')).toBe(false);
  });
});

// Issue 65.3: the webhook's language per namespace, from its annotation.
describe("the namespace's language annotation", () => {
  it('names the language it says, and nothing for none, another, or a namespace that is not there', async () => {
    const cluster = fakeCluster(['ko-ns', 'plain', 'fr-ns'], {
      'ko-ns': { 'rollout-doctor.io/lang': 'ko-KR' },
      'fr-ns': { 'rollout-doctor.io/lang': 'fr' },
    });
    const view = cachedView(cluster.client, 1000, () => 0);
    expect(await view.langOf('ko-ns')).toBe('ko');
    expect(await view.langOf('plain')).toBeUndefined();
    expect(await view.langOf('fr-ns')).toBeUndefined();
    expect(await view.langOf('ghost')).toBeUndefined();
  });
});
