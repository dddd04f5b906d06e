/**
 * The webhook's view of the cluster: a `check` live source (one read per namespace,
 * nodes once, pods per node or all at once) that serves reviews for `ttlMs`. When a
 * window ends, the next source first reads what the last one did (its namespaces,
 * nodes and pods) while reviews are still judged on the last window's reads; it takes
 * over once its reads are done. So no review waits for a cold read after the first,
 * and none is judged on reads older than two windows (past that the next source
 * serves even unwarmed). Namespace labels (the refuse label) and answers are kept per
 * window.
 *
 * Before the first review, `warmUp` reads the nodes, the pods on them and the
 * namespaces where workloads run (LiveSource.warmStart); the pod is Ready after it, and
 * a review that comes sooner is answered at once with no warning (review-handler.ts). A
 * window renews only the namespaces reviewed in the last RENEW_UNUSED_MS, so one that
 * was read at start or nobody applies to any more is not read again every window.
 */
import { liveSource, type LiveSource, type ReadPlan } from '../check/live-source.js';
import type { CheckSource } from '../check/source.js';
import type { KubeClient } from '../kube/client.js';
import { getObjectIfExists } from '../kube/list.js';
import type { ObjectMeta } from '../diagnosis/k8s.js';
import { REFUSE_LABEL } from './review-handler.js';

export interface ClusterView {
  source: () => CheckSource;
  refuses: (namespace: string) => Promise<boolean>;
  /**
   * The answer for `key` in this window, computed once: the same change judged against
   * the same reads gets the same verdict (a helm upgrade of many copies, a retried apply).
   */
  memo: <T>(key: string, compute: () => Promise<T>) => Promise<T>;
  /** The first read, before the first review needs it (the pod is Ready after it: /readyz). */
  warmUp: () => Promise<void>;
  /** A review of `namespace` came: its reads are renewed with the next windows. */
  touch: (namespace: string) => void;
}

/** A namespace no review touched for this long is not read again by the next window. */
export const RENEW_UNUSED_MS = 5 * 60_000;
/** At most this many namespaces are read before the webhook is Ready (the busiest first). */
export const WARM_NAMESPACES = 50;
/** Namespaces the chart leaves out of the webhook (excludeNamespaces' default): not warmed. */
const NOT_WARMED = ['kube-system'];

interface Window {
  at: number;
  source: LiveSource;
  labels: Map<string, Promise<boolean>>;
  answers: Map<string, Promise<unknown>>;
}

export function cachedView(client: KubeClient, ttlMs: number, now: () => number = Date.now): ClusterView {
  const fresh = (at: number): Window => ({
    at,
    source: liveSource(client),
    labels: new Map(),
    answers: new Map(),
  });
  let window: Window | undefined;
  let next: Window | undefined;
  const touched = new Map<string, number>();
  const renewed = (plan: ReadPlan): ReadPlan => ({
    ...plan,
    namespaces: plan.namespaces.filter((n) => now() - (touched.get(n.name) ?? -Infinity) < RENEW_UNUSED_MS),
  });
  const current = (): Window => {
    const at = now();
    if (!window) window = fresh(at);
    const age = at - window.at;
    if (age >= ttlMs && !next) {
      const warming = fresh(at);
      next = warming;
      void warming.source.warm(renewed(window.source.plan())).then(() => {
        if (next === warming) {
          window = { ...warming, at: now() };
          next = undefined;
        }
      });
    }
    if (age >= 2 * ttlMs && next) {
      window = { ...next, at };
      next = undefined;
    }
    return window;
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
    refuses(namespace) {
      const { labels } = current();
      let read = labels.get(namespace);
      if (!read) {
        read = getObjectIfExists<{ metadata: ObjectMeta }>(client, {
          resource: 'namespaces',
          name: namespace,
        }).then((ns) => ns?.metadata.labels?.[REFUSE_LABEL] === 'refuse');
        labels.set(namespace, read);
      }
      return read;
    },
  };
}
