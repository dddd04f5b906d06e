/**
 * Wakes a waiting loop when one named object changes: a watch from the
 * resourceVersion the loop last read, best effort (a refused or dropped watch leaves
 * the caller's own poll to carry on). Shared by the rollout watcher (the Deployment)
 * and the stepped ReplicaSet scale (the new ReplicaSet's readiness).
 */
import type { ApiCall } from './api-paths.js';
import type { KubeClient } from './client.js';

export interface WatchedObject {
  resource: ApiCall['resource'];
  namespace: string;
  name: string;
  /** From the read the caller just made, so no change after it is missed. */
  resourceVersion?: string;
}

export function wakeOnChange(
  client: KubeClient,
  object: WatchedObject,
  signal: AbortSignal,
  onChange: () => void,
): void {
  client
    .watch(
      {
        verb: 'watch',
        resource: object.resource,
        namespace: object.namespace,
        query: {
          fieldSelector: `metadata.name=${object.name}`,
          ...(object.resourceVersion ? { resourceVersion: object.resourceVersion } : {}),
          allowWatchBookmarks: true,
        },
      },
      (event) => {
        if (event.type === 'MODIFIED' || event.type === 'DELETED') onChange();
      },
      signal,
    )
    .catch(() => undefined);
}

/**
 * Waits until `wake` is called or `ms` pass, whichever comes first.
 * Returns a promise and the function that ends it early.
 */
export function wakeableDelay(ms: number): { done: Promise<void>; wake: () => void } {
  let wake: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => {
      clearTimeout(timer);
      resolve();
    };
  });
  return { done, wake };
}
