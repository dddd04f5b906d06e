/**
 * The webhook's view of the cluster: a `check` live source (one read per namespace,
 * nodes once, pods per node or all at once) that serves reviews for `ttlMs`. When a
 * window ends, the next source first reads what the last one did (its namespaces,
 * nodes and pods) while reviews are still judged on the last window's reads; it takes
 * over once its reads are done. So no review waits for a cold read after the first,
 * and none is judged on reads older than two windows (past that the next source
 * serves even unwarmed). Namespace objects (the refuse label) and answers are kept per
 * window.
 *
 * Before the first review, `warmUp` reads the nodes, the pods on them and the
 * namespaces where workloads run (LiveSource.warmStart); the pod is Ready after it, and
 * a review that comes sooner is answered at once with no warning (review-handler.ts). A
 * window renews only the namespaces reviewed in the last RENEW_UNUSED_MS, so one that
 * was read at start or nobody applies to any more is not read again every window.
 *
 * Whoever reaches the port can send reviews, so nothing here grows with
 * what they send: a namespace the window has not read is first looked up (GET
 * namespace, through a lane of BOUNDS.probeLane reads at once and probeQueue waiting; past
 * that the review is answered `busy`, no warning), and one that does not exist is never
 * read further, touched or renewed (the API server sends no review for an object in a
 * namespace that does not exist: NamespaceLifecycle refuses it first). Renewal takes at
 * most BOUNDS.renew namespaces, the most recently reviewed, and drops one whose GET says it
 * is gone. Every per-namespace or per-change map is an LRU (src/lru.ts) of a documented
 * size (BOUNDS), each eviction counted.
 */
import { liveSource, type LiveSource, type ReadPlan } from '../check/live-source.js';
import type { CheckSource } from '../check/source.js';
import type { KubeClient } from '../kube/client.js';
import { getObjectIfExists } from '../kube/list.js';
import type { ObjectMeta } from '../diagnosis/k8s.js';
import { Lru } from '../lru.js';
import { parseLang, type Lang } from '../i18n/lang.js';
import { LANG_ANNOTATION, REFUSE_LABEL } from './review-handler.js';
import { ViewBusy } from './view-busy.js';

interface ClusterView {
  source: () => CheckSource;
  refuses: (namespace: string) => Promise<boolean>;
  /** The language the namespace's LANG_ANNOTATION names, or undefined (none, another, or unreadable). */
  langOf: (namespace: string) => Promise<Lang | undefined>;
  /**
   * Whether the namespace exists. One the window has read is known at once; another is
   * looked up (the probe lane). Rejects with ViewBusy when the lane is full.
   */
  exists: (namespace: string) => Promise<boolean>;
  /**
   * The answer for `key` in this window, computed once: the same change judged against
   * the same reads gets the same verdict (a helm upgrade of many copies, a retried apply).
   */
  memo: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
  /** The first read, before the first review needs it (the pod is Ready after it: /readyz). */
  warmUp: () => Promise<void>;
  /** A review of `namespace` (one that exists) came: its reads are renewed with the next windows. */
  touch: (namespace: string) => void;
}

export { ViewBusy };

/** A namespace no review touched for this long is not read again by the next window. */
export const RENEW_UNUSED_MS = 5 * 60_000;
/** At most this many namespaces are read before the webhook is Ready (the busiest first). */
const WARM_NAMESPACES = 50;
/** Namespaces the chart leaves out of the webhook (excludeNamespaces' default): not warmed. */
const NOT_WARMED = ['kube-system'];

/** The sizes of what the view keeps (LRUs: the least recently used forgotten past them). */
export interface ViewBounds {
  /** Namespaces renewed with the next window: the most recently reviewed ones (existing only). */
  renew: number;
  /** Namespaces whose lists a window keeps (a review of one forgotten reads it again). */
  reads: number;
  /** Namespace objects (existence, refuse label) a window keeps. */
  namespaces: number;
  /** Answers (memo) a window keeps. */
  answers: number;
  /** Lookups of namespaces the window has not read, at once / waiting; past both: busy. */
  probeLane: number;
  probeQueue: number;
}

const BOUNDS: ViewBounds = {
  renew: 200,
  reads: 500,
  namespaces: 2000,
  answers: 2000,
  probeLane: 4,
  probeQueue: 64,
};

export type Evicted = 'renew' | 'reads' | 'namespaces' | 'answers';

interface ViewOptions {
  bounds?: Partial<ViewBounds>;
  /** Something forgotten to stay within a bound (the webhook counts them). */
  onEvict?: (what: Evicted) => void;
  /** A renewed window took over, having read `namespaces` namespaces again. */
  onRenewed?: (namespaces: number) => void;
}

interface NamespaceInfo {
  exists: boolean;
  refuse: boolean;
  lang?: Lang | undefined;
}

interface Window {
  at: number;
  source: LiveSource;
  namespaces: Lru<string, Promise<NamespaceInfo>>;
  answers: Lru<string, Promise<unknown>>;
}

/** At most `size` tasks at once and `queue` waiting; past that, ViewBusy at once. */
function lane(size: number, queue: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  const next = (): void => {
    running -= 1;
    waiting.shift()?.();
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running >= size) {
      if (waiting.length >= queue) throw new ViewBusy();
      await new Promise<void>((resolve) => waiting.push(resolve));
    }
    running += 1;
    try {
      return await task();
    } finally {
      next();
    }
  };
}

export function cachedView(
  client: KubeClient,
  ttlMs: number,
  now: () => number = Date.now,
  options: ViewOptions = {},
): ClusterView {
  const bounds = { ...BOUNDS, ...options.bounds };
  const evicted = (what: Evicted) => () => options.onEvict?.(what);
  const fresh = (at: number): Window => ({
    at,
    source: liveSource(client, { maxNamespaces: bounds.reads, onEvict: evicted('reads') }),
    namespaces: new Lru(bounds.namespaces, evicted('namespaces')),
    answers: new Lru(bounds.answers, evicted('answers')),
  });
  const readNamespace = (name: string): Promise<NamespaceInfo> =>
    getObjectIfExists<{ metadata: ObjectMeta }>(client, { resource: 'namespaces', name }).then((ns) => ({
      exists: ns !== undefined,
      refuse: ns?.metadata.labels?.[REFUSE_LABEL] === 'refuse',
      lang: parseLang(ns?.metadata.annotations?.[LANG_ANNOTATION]),
    }));
  const probe = lane(bounds.probeLane, bounds.probeQueue);
  let window: Window | undefined;
  let next: Window | undefined;
  // The namespaces reviewed (and found to exist), with when last: the most recent renewed.
  const touched = new Lru<string, number>(bounds.renew, evicted('renew'));
  /** The last window's namespaces still reviewed lately; each looked up again, those gone dropped. */
  const renew = async (plan: ReadPlan, into: Window): Promise<ReadPlan> => {
    const recent = plan.namespaces.filter(
      (n) => now() - (touched.peek(n.name) ?? -Infinity) < RENEW_UNUSED_MS,
    );
    const found = await Promise.all(
      recent.map(async (n) => {
        const read = readNamespace(n.name);
        into.namespaces.set(n.name, read);
        const info = await read.catch(() => ({ exists: true, refuse: false }));
        if (!info.exists) touched.delete(n.name);
        return info.exists ? [n] : [];
      }),
    );
    return { ...plan, namespaces: found.flat() };
  };
  const current = (): Window => {
    const at = now();
    if (!window) window = fresh(at);
    const age = at - window.at;
    if (age >= ttlMs && !next) {
      const warming = fresh(at);
      next = warming;
      void renew(window.source.plan(), warming).then(async (plan) => {
        await warming.source.warm(plan);
        if (next === warming) {
          window = { ...warming, at: now() };
          next = undefined;
          options.onRenewed?.(plan.namespaces.length);
        }
      });
    }
    if (age >= 2 * ttlMs && next) {
      window = { ...next, at };
      next = undefined;
    }
    return window;
  };
  /** The namespace object as this window read it; `probed`: a namespace it did not know, through the lane. */
  const namespaceInfo = (name: string, probed: boolean): Promise<NamespaceInfo> => {
    const { namespaces } = current();
    let read = namespaces.get(name);
    if (!read) {
      read = probed ? probe(() => readNamespace(name)) : readNamespace(name);
      namespaces.set(name, read);
      // A failed or busy read is not kept: the next review asks again.
      read.catch(() => {
        if (namespaces.peek(name) === read) namespaces.delete(name);
      });
    }
    return read;
  };
  return {
    // The namespaces read here serve the first window; only those reviewed are renewed.
    // The window dates from when its reads are done, as a renewed one does.
    async warmUp() {
      const first = current();
      await first.source.warmStart(WARM_NAMESPACES, NOT_WARMED);
      if (window === first) window = { ...first, at: now() };
    },
    touch: (namespace) => void touched.set(namespace, now()),
    source: () => current().source,
    async exists(namespace) {
      // Read by this window (its pods named it, a renewal or a review found it): it exists.
      if (current().source.holds(namespace)) return true;
      return (await namespaceInfo(namespace, true)).exists;
    },
    memo<T>(key: string, compute: () => Promise<T>): Promise<T> {
      const { answers } = current();
      let answer = answers.get(key) as Promise<T> | undefined;
      if (!answer) {
        answer = compute();
        answers.set(key, answer);
        // A failed answer is not kept: the next review asks again.
        answer.catch(() => answers.delete(key));
      }
      return answer;
    },
    // Asked once a verdict is in, so of a namespace that exists: not through the probe lane.
    refuses: (namespace) => namespaceInfo(namespace, false).then((ns) => ns.refuse),
    langOf: (namespace) =>
      namespaceInfo(namespace, false).then(
        (ns) => ns.lang,
        () => undefined,
      ),
  };
}
