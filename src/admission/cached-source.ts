/**
 * The webhook's view of the cluster: a `check` live source (one read per namespace,
 * nodes once, pods per node or all at once) that serves reviews for `ttlMs`. When a
 * window ends, the next source first reads what the last one did (its namespaces,
 * nodes and pods) while reviews are still judged on the last window's reads; it takes
 * over once its reads are done. So no review waits for a cold read after the first,
 * and none is judged on reads older than two windows (past that the next source
 * serves even unwarmed). Namespace labels (the refuse label) and answers are kept per
 * window.
 */
import { liveSource, type LiveSource } from '../check/live-source.js';
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
  /** Reads the nodes before the first review needs them (the pod is Ready after it: /readyz). */
  warmUp: () => Promise<void>;
}

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
  const current = (): Window => {
    const at = now();
    if (!window) window = fresh(at);
    const age = at - window.at;
    if (age >= ttlMs && !next) {
      const warming = fresh(at);
      next = warming;
      void warming.source.warm(window.source.plan()).then(() => {
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
    warmUp: () => current().source.warm({ namespaces: [], nodes: true, allPods: false, podsOnNodes: [] }),
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
