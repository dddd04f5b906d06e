/**
 * Watch streams: newline-delimited JSON events over a chunked response. Without a
 * resourceVersion (or with "0") the stream starts with synthetic ADDED events for
 * the current state; with one it replays the change log after it, or answers an
 * ERROR event with 410 Expired when the log no longer reaches back that far. Asked
 * for a Table (`kubectl get -w`), each event carries a one-row Table, the column
 * definitions only on the first, as the API server's watch encoder sends them.
 */
import type { ServerResponse } from 'node:http';
import { apiVersionOf, type ResourceType } from '../resources.js';
import { matchesLabels } from '../selectors.js';
import type { ChangeEvent, SimObject, Store, WatchEventType } from '../store.js';
import { selects, type ListQuery } from './list.js';
import { present } from './present.js';
import { toTable, type IncludeObject } from './table.js';

/** Starts a watch; returns once the stream has ended. */
export function serveWatch(
  store: Store,
  rt: ResourceType,
  query: ListQuery,
  params: URLSearchParams,
  res: ServerResponse,
  stopped: Promise<void>,
  table?: IncludeObject,
): Promise<void> {
  const matches = (o: SimObject): boolean =>
    matchesLabels(query.labelSelector, o.metadata.labels) && selects(query, o);
  res.writeHead(200, {
    'Content-Type': 'application/json',
    'Transfer-Encoding': 'chunked',
    'Cache-Control': 'no-cache',
  });
  res.flushHeaders();
  const send = (type: WatchEventType | 'ERROR' | 'BOOKMARK', object: unknown): void => {
    res.write(`${JSON.stringify({ type, object })}\n`);
  };
  let headersSent = false;
  const sendObject = (type: WatchEventType, o: SimObject): void => {
    if (!table) return send(type, present(rt, o));
    send(type, toTable(rt, [o], o.metadata.resourceVersion ?? '', table, headersSent));
    headersSent = true;
  };
  const translate = (e: ChangeEvent): void => {
    if (e.kind !== rt.kind) return;
    const now = matches(e.object);
    const before = e.old ? matches(e.old) : false;
    if (e.type === 'DELETED') {
      if (before || now) sendObject('DELETED', e.object);
    } else if (e.type === 'ADDED') {
      if (now) sendObject('ADDED', e.object);
    } else if (now && before) sendObject('MODIFIED', e.object);
    else if (now) sendObject('ADDED', e.object);
    else if (before) sendObject('DELETED', e.object);
  };
  const rvText = params.get('resourceVersion');
  const rv = rvText ? Number(rvText) : 0;
  if (!rvText || rv === 0 || Number.isNaN(rv)) {
    for (const o of store.list(rt.kind, query.namespace, query.labelSelector))
      if (matches(o)) sendObject('ADDED', o);
  } else {
    const changes = store.changesSince(rv);
    if (!changes) {
      send('ERROR', {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `too old resource version: ${rv} (${store.oldestResumable})`,
        reason: 'Expired',
        code: 410,
      });
      res.end();
      return Promise.resolve();
    }
    for (const e of changes) translate(e);
  }
  const unsubscribe = store.subscribe(translate);
  const timeoutSeconds = Number(params.get('timeoutSeconds') ?? '0');
  // allowWatchBookmarks: as the API server's watch cache does, a BOOKMARK carrying the
  // current resourceVersion about once a minute and just before a timeout closes the
  // stream, so a client whose selector matched nothing meanwhile resumes from there
  // instead of an old version (and a 410 Gone with a full re-list).
  const bookmarks = params.get('allowWatchBookmarks') === 'true' || params.get('allowWatchBookmarks') === '1';
  const bookmark = (): void => {
    if (!res.writableEnded) {
      send('BOOKMARK', {
        kind: rt.kind,
        apiVersion: apiVersionOf(rt),
        metadata: { resourceVersion: String(store.resourceVersion) },
      });
    }
  };
  return new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let ticker: NodeJS.Timeout | undefined;
    const finish = (): void => {
      unsubscribe();
      if (timer) clearTimeout(timer);
      if (ticker) clearInterval(ticker);
      if (!res.writableEnded) res.end();
      resolve();
    };
    if (bookmarks) ticker = setInterval(bookmark, 60_000);
    if (timeoutSeconds > 0) {
      timer = setTimeout(() => {
        if (bookmarks) bookmark();
        finish();
      }, timeoutSeconds * 1000);
    }
    res.on('close', finish);
    void stopped.then(finish);
  });
}
