/**
 * The webhook's view of the cluster: a `check` live source (one read per namespace,
 * nodes once, pods per node) kept for `ttlMs` and then dropped, so reviews in one
 * window share their reads and none is judged on a state older than the window.
 * Namespace labels (the refuse label) are read in the same windows.
 */
import { liveSource } from '../check/live-source.js';
import type { CheckSource } from '../check/source.js';
import type { KubeClient } from '../kube/client.js';
import { getObjectIfExists } from '../kube/list.js';
import type { ObjectMeta } from '../diagnosis/k8s.js';
import { REFUSE_LABEL } from './review-handler.js';

export interface ClusterView {
  source: () => CheckSource;
  refuses: (namespace: string) => Promise<boolean>;
}

export function cachedView(client: KubeClient, ttlMs: number, now: () => number = Date.now): ClusterView {
  let window: { at: number; source: CheckSource; labels: Map<string, Promise<boolean>> } | undefined;
  const current = (): NonNullable<typeof window> => {
    const at = now();
    if (!window || at - window.at >= ttlMs) window = { at, source: liveSource(client), labels: new Map() };
    return window;
  };
  return {
    source: () => current().source,
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
