import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Logger } from '../logger.js';
import { DEFAULT_CONNECTION_LIMITS, guardConnections, type ConnectionLimits } from './connection-guard.js';

/** Longest path written to a log line: the rest of a scanner's path is noise. */
const LOGGED_PATH_CHARS = 120;

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

/**
 * A route of the app's HTTP server (health, metrics, Alertmanager, Teams): the shape of
 * Bolt's CustomRoute, so Slack's receiver takes these as they are, with no chat SDK here.
 */
export interface AppRoute {
  path: string;
  method: string | string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/** Path -> method -> handler. Paths match exactly (no decoding, no normalising). */
export type RouteTable = ReadonlyMap<string, ReadonlyMap<string, Handler>>;

export interface HttpTimeouts {
  /** Time a client has to send all its headers (slowloris). */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included. */
  requestTimeoutMs: number;
  /** Idle time of a kept-alive connection between requests. */
  keepAliveTimeoutMs: number;
}

export interface HttpServerHandle {
  server: Server;
  url: string;
  /** Open connections now (for tests). */
  connections(): number;
  close(): Promise<void>;
}

/**
 * Builds a route table from the app's routes. Only fixed paths are allowed:
 * a path-to-regexp pattern would bring back Bolt's decoding, which throws on '%'.
 * A later route for the same method and path wins, as in Bolt's route table.
 */
export function routeTable(
  routes: readonly AppRoute[],
  extra: Record<string, Record<string, Handler>> = {},
): RouteTable {
  const table = new Map<string, Map<string, Handler>>();
  const add = (path: string, method: string, handler: Handler): void => {
    if (!path.startsWith('/') || /[:*?(){}]/.test(path)) throw new Error(`route path must be fixed: ${path}`);
    const methods = table.get(path) ?? new Map<string, Handler>();
    methods.set(method.toUpperCase(), handler);
    table.set(path, methods);
  };
  for (const route of routes) {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      add(route.path, method, (req, res) => route.handler(Object.assign(req, { params: {} }), res));
    }
  }
  for (const [path, methods] of Object.entries(extra)) {
    for (const [method, handler] of Object.entries(methods)) add(path, method, handler);
  }
  return table;
}

/** Methods a path answers, HEAD included wherever GET is (load balancers probe with HEAD). */
function allowed(methods: ReadonlyMap<string, Handler>): string[] {
  const list = [...methods.keys()];
  if (methods.has('GET') && !methods.has('HEAD')) list.push('HEAD');
  return list.sort();
}

export function plain(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(`${status}\n`);
}

/** What a log line may say about a request: its method and a short, printable path. */
export function describeRequest(req: IncomingMessage): { method: string; path: string } {
  const path = (req.url ?? '').split('?')[0] ?? '';
  return {
    method: (req.method ?? '').slice(0, 16),
    path: path.replace(/[^\x21-\x7e]/g, '?').slice(0, LOGGED_PATH_CHARS),
  };
}

/**
 * The app's HTTP server: an exact-match route table, 404 for unknown paths, 405 with
 * Allow for a known path's other methods, and no way for a request to end the
 * process: a handler that throws or rejects answers 500, socket errors are logged
 * without content, and malformed requests (Node's clientError) get a bare 4xx.
 * Nothing from a request reaches stdout/stderr except through `logger`. Connections
 * are bounded by `limits`, and an answer given before the request's body has arrived
 * closes the connection instead of waiting for the rest (connection-guard.ts).
 */
export async function startHttpServer(options: {
  routes: RouteTable;
  logger: Logger;
  timeouts: HttpTimeouts;
  limits?: ConnectionLimits;
  host?: string;
  port: number;
}): Promise<HttpServerHandle> {
  const { routes, logger, timeouts } = options;
  const server = createServer({
    headersTimeout: timeouts.headersTimeoutMs,
    requestTimeout: timeouts.requestTimeoutMs,
    keepAliveTimeout: timeouts.keepAliveTimeoutMs,
    // Node checks both timeouts on this interval (default 30 s): a quarter of the
    // shorter one keeps the cut-off within 25% of what was configured.
    connectionsCheckingInterval: Math.max(
      50,
      Math.floor(Math.min(timeouts.headersTimeoutMs, timeouts.requestTimeoutMs) / 4),
    ),
  });
  const guard = guardConnections(server, logger, options.limits ?? DEFAULT_CONNECTION_LIMITS);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (guard.admit(req, res)) dispatch(routes, logger, req, res);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Malformed request line or headers, header/request timeout, oversize headers.
    // Node's default answer is the same, but a listener is needed to keep the
    // socket's error (which may quote the request) out of any default printing.
    logger.debug({ code: error.code ?? 'unknown' }, 'http client error');
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const status =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    socket.end(
      `HTTP/1.1 ${status} ${status === 408 ? 'Request Timeout' : status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`,
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => logger.error({ err: error }, 'http server error'));
  const address = server.address() as AddressInfo;
  return {
    server,
    url: `http://${options.host ?? '127.0.0.1'}:${address.port}`,
    connections: () => guard.connections(),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function dispatch(routes: RouteTable, logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  // An 'error' on either stream with no listener would be thrown; a reset client is
  // routine, so it is noted and the exchange dropped.
  req.on('error', (error: NodeJS.ErrnoException) =>
    logger.debug({ code: error.code }, 'http request stream error'),
  );
  res.on('error', (error: NodeJS.ErrnoException) =>
    logger.debug({ code: error.code }, 'http response stream error'),
  );
  const failed = (error: unknown): void => {
    logger.error(
      { ...describeRequest(req), err: error instanceof Error ? error : new Error(String(error)) },
      'http handler failed',
    );
    if (res.headersSent) res.destroy();
    else plain(res, 500, { connection: 'close' });
  };
  try {
    // Origin-form only ('/path?query'); an absolute-form or '*' target matches nothing.
    const path = (req.url ?? '').split('?')[0] ?? '';
    const methods = routes.get(path);
    if (methods === undefined) {
      plain(res, 404);
      return;
    }
    const method = req.method ?? '';
    const handler = methods.get(method) ?? (method === 'HEAD' ? methods.get('GET') : undefined);
    if (handler === undefined) {
      plain(res, 405, { allow: allowed(methods).join(', ') });
      return;
    }
    const result = handler(req, res);
    if (result instanceof Promise) result.catch(failed);
  } catch (error) {
    failed(error);
  }
}
