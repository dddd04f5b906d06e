/**
 * Wakes a waiting loop when one named object changes: a watch from the
 * resourceVersion the loop last read, best effort (a refused or dropped watch leaves
 * the caller's own poll to carry on). Shared by the rollout watcher (the Deployment)
 * and the stepped ReplicaSet scale (the new ReplicaSet's readiness).
 */
import type { ApiCall } from '../api-paths.js';
import type { KubeClient } from '../client.js';

interface WatchedObject {
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
function wakeableDelay(ms: number): { done: Promise<void>; wake: () => void } {
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

/**
 * Re-evaluates `probe` after every change the watch of `object` reports and every
 * `pollMs` (the watch may be refused or drop), until it returns a value or `deadline`
 * (epoch ms) passes: then undefined. The watch starts from the resourceVersion of the
 * first probe's read, so no change after it is missed.
 */
export async function waitUntil<T>(
  client: KubeClient,
  object: Omit<WatchedObject, 'resourceVersion'>,
  probe: () => Promise<{ value?: T; resourceVersion?: string }>,
  deadline: number,
  pollMs: number,
): Promise<T | undefined> {
  const stop = new AbortController();
  let watching = false;
  let wake: (() => void) | undefined;
  try {
    for (;;) {
      const seen = await probe();
      if (seen.value !== undefined) return seen.value;
      const remaining = deadline - Date.now();
      if (remaining <= 0) return undefined;
      if (!watching) {
        watching = true;
        wakeOnChange(client, { ...object, resourceVersion: seen.resourceVersion }, stop.signal, () =>
          wake?.(),
        );
      }
      const delay = wakeableDelay(Math.min(pollMs, remaining));
      wake = delay.wake;
      await delay.done;
      wake = undefined;
    }
  } finally {
    stop.abort();
  }
}
