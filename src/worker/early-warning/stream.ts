/**
 * List-then-watch of one resource, as client-go's reflector does it: list (paged, each
 * page handed over and dropped, so a huge cluster never sits in memory at once), then
 * watch from the list's resourceVersion, resume from the last resourceVersion seen
 * when a watch ends or drops, and re-list when the server answers 410 Gone (the
 * resourceVersion is too old). A watch that stays silent past its timeout plus a
 * margin is cut and resumed (an API server restart can leave a dead connection).
 */
import type { KubeClient, WatchEvent } from '../../kube/client.js';
import { KubeApiError } from '../../kube/errors.js';

export interface StreamSpec {
  resource: 'pods' | 'events';
  /** Undefined: every namespace (one cluster-wide stream). */
  namespace?: string;
  fieldSelector?: string;
}

/** The two reads a stream needs; `kubeListWatch` is the real one. */
export interface ListWatchSource {
  /** One list page; `continue` token of the next page, if any. */
  listPage(
    spec: StreamSpec,
    options: { limit: number; continue?: string },
  ): Promise<{ items: Record<string, unknown>[]; resourceVersion: string | undefined; continue?: string }>;
  /** A watch from `resourceVersion`; resolves with the HTTP status (0: dropped or aborted). */
  watch(
    spec: StreamSpec,
    options: { resourceVersion: string; timeoutSeconds: number },
    onEvent: (event: WatchEvent) => void,
    signal: AbortSignal,
  ): Promise<number>;
}

/** The real source over the worker's client (the same timeouts and retries as every read). */
export function kubeListWatch(client: KubeClient): ListWatchSource {
  const query = (spec: StreamSpec): Record<string, string> =>
    spec.fieldSelector ? { fieldSelector: spec.fieldSelector } : {};
  return {
    async listPage(spec, options) {
      const body = await client.call<{
        items?: Record<string, unknown>[] | null;
        metadata?: { resourceVersion?: string; continue?: string };
      }>({
        verb: 'list',
        resource: spec.resource,
        ...(spec.namespace ? { namespace: spec.namespace } : {}),
        query: { ...query(spec), limit: options.limit, continue: options.continue },
      });
      const next = body.metadata?.continue;
      return {
        items: Array.isArray(body.items) ? body.items : [],
        resourceVersion: body.metadata?.resourceVersion,
        ...(next ? { continue: next } : {}),
      };
    },
    watch(spec, options, onEvent, signal) {
      return client.watch(
        {
          verb: 'watch',
          resource: spec.resource,
          ...(spec.namespace ? { namespace: spec.namespace } : {}),
          query: {
            ...query(spec),
            resourceVersion: options.resourceVersion,
            allowWatchBookmarks: true,
            timeoutSeconds: options.timeoutSeconds,
          },
        },
        onEvent,
        signal,
      );
    },
  };
}

/** RBAC refused the stream (403): the caller narrows the scope or falls back to the scan. */
export class StreamForbiddenError extends Error {
  override name = 'StreamForbiddenError';
}

export interface StreamStats {
  lists: number;
  listPages: number;
  watches: number;
  relists410: number;
  events: number;
  /** Streams open right now. */
  open: number;
}

interface StreamHandlers {
  /** A full (re)list, page by page; `done` once the last page was handed over. */
  onListPage(items: Record<string, unknown>[], first: boolean, last: boolean): void;
  onEvent(event: WatchEvent): void;
}

interface StreamOptions {
  signal: AbortSignal;
  stats: StreamStats;
  /** Server-side watch timeout; the client cuts a silent stream after this plus 30 s. */
  timeoutSeconds?: number;
  pageSize?: number;
  /** Waits between failed attempts (ms); injected by tests. */
  backoffMs?: (attempt: number) => number;
  logger: { warn(obj: object, msg: string): void; debug(obj: object, msg: string): void };
}

const sleep = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

const statusCode = (object: Record<string, unknown>): number | undefined =>
  typeof object['code'] === 'number' ? object['code'] : undefined;

const resourceVersionOf = (object: Record<string, unknown>): string | undefined => {
  const metadata = object['metadata'];
  if (metadata === null || typeof metadata !== 'object') return undefined;
  const rv = (metadata as Record<string, unknown>)['resourceVersion'];
  return typeof rv === 'string' && rv !== '' ? rv : undefined;
};

/**
 * Runs list-then-watch until `signal` aborts. Throws StreamForbiddenError on 403 (list
 * or watch); every other failure is retried with backoff, resuming where it was.
 */
export async function runListWatch(
  source: ListWatchSource,
  spec: StreamSpec,
  handlers: StreamHandlers,
  options: StreamOptions,
): Promise<void> {
  const { signal, stats } = options;
  const pageSize = options.pageSize ?? 500;
  const backoff = options.backoffMs ?? ((n: number) => Math.min(30_000, 500 * 2 ** Math.min(n, 6)));
  const where = { resource: spec.resource, namespace: spec.namespace ?? '(all)' };
  // Where the watch resumes: moved on by every event, also by those of a watch that then fails.
  const cursor: { resourceVersion?: string } = {};
  let failures = 0;
  while (!signal.aborted) {
    try {
      const from = (cursor.resourceVersion ??= await listAll(source, spec, handlers, stats, pageSize));
      const watched = await watchOnce(source, spec, handlers, options, cursor, from);
      if (signal.aborted) return;
      if (watched.status === 403) throw new StreamForbiddenError(`watch ${spec.resource} forbidden`);
      if (watched.expired || watched.status === 410) {
        stats.relists410 += 1;
        options.logger.debug(where, 'early-warning watch expired (410 Gone): re-listing');
        delete cursor.resourceVersion;
        failures = 0;
        continue;
      }
      // A normal end (the server's timeout): resume at once, unless the server keeps
      // closing at once with nothing to say (then back off like a failure).
      if (watched.status === 200 && (watched.delivered > 0 || watched.openFor > 1_000)) {
        failures = 0;
        continue;
      }
      failures += 1;
      options.logger.warn({ ...where, status: watched.status }, 'early-warning watch ended; resuming');
    } catch (error) {
      if (error instanceof StreamForbiddenError) throw error;
      if (error instanceof KubeApiError && error.status === 403) {
        throw new StreamForbiddenError(error.message);
      }
      if (error instanceof KubeApiError && error.status === 410) delete cursor.resourceVersion;
      failures += 1;
      options.logger.warn(
        { ...where, reason: error instanceof Error ? error.message : String(error) },
        'early-warning list/watch failed; retrying',
      );
    }
    await sleep(backoff(failures), signal);
  }
}

/** Lists every page, handing each to the handlers; resolves with the list's resourceVersion. */
async function listAll(
  source: ListWatchSource,
  spec: StreamSpec,
  handlers: StreamHandlers,
  stats: StreamStats,
  pageSize: number,
): Promise<string> {
  stats.lists += 1;
  let token: string | undefined;
  let rv: string | undefined;
  let first = true;
  for (;;) {
    stats.listPages += 1;
    const page = await source.listPage(spec, { limit: pageSize, ...(token ? { continue: token } : {}) });
    rv ??= page.resourceVersion;
    token = page.continue;
    handlers.onListPage(page.items, first, token === undefined);
    first = false;
    if (token === undefined) break;
  }
  if (rv === undefined) throw new Error(`the ${spec.resource} list carried no resourceVersion`);
  return rv;
}

/**
 * One watch from `from` until the server ends it, it is silent past its timeout
 * (+30 s), or `options.signal` aborts: the status it ended with, whether an ERROR
 * event said 410 Gone, and how many events came. `cursor` moves with every event.
 */
async function watchOnce(
  source: ListWatchSource,
  spec: StreamSpec,
  handlers: StreamHandlers,
  options: StreamOptions,
  cursor: { resourceVersion?: string },
  from: string,
): Promise<{ status: number; expired: boolean; delivered: number; openFor: number }> {
  const { signal, stats } = options;
  const timeoutSeconds = options.timeoutSeconds ?? 300;
  const attempt = new AbortController();
  const stopAttempt = (): void => attempt.abort();
  signal.addEventListener('abort', stopAttempt, { once: true });
  let expired = false;
  let silentTimer: NodeJS.Timeout | undefined;
  const armSilence = (): void => {
    clearTimeout(silentTimer);
    silentTimer = setTimeout(stopAttempt, (timeoutSeconds + 30) * 1000);
  };
  armSilence();
  stats.watches += 1;
  stats.open += 1;
  const openedAt = Date.now();
  let delivered = 0;
  try {
    const status = await source.watch(
      spec,
      { resourceVersion: from, timeoutSeconds },
      (event) => {
        armSilence();
        delivered += 1;
        if (event.type === 'ERROR') {
          if (statusCode(event.object) === 410) expired = true;
          return;
        }
        const rv = resourceVersionOf(event.object);
        if (rv !== undefined) cursor.resourceVersion = rv;
        if (event.type === 'BOOKMARK') return;
        stats.events += 1;
        handlers.onEvent(event);
      },
      attempt.signal,
    );
    return { status, expired, delivered, openFor: Date.now() - openedAt };
  } finally {
    stats.open -= 1;
    clearTimeout(silentTimer);
    signal.removeEventListener('abort', stopAttempt);
  }
}

export function emptyStats(): StreamStats {
  return { lists: 0, listPages: 0, watches: 0, relists410: 0, events: 0, open: 0 };
}
