import type { Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach } from 'vitest';
import type { ConnectionLimits } from '../../src/app/connection-guard.js';
import {
  startHttpServer,
  type HttpServerHandle,
  type HttpTimeouts,
  type RouteTable,
} from '../../src/app/http-server.js';
import { createLogger, type Logger } from '../../src/logger.js';
import { openSocket } from './raw-http.js';

/** A logger at debug level, so its serializers run on every line a server logs, writing nowhere. */
export function discardLogger(name: string): Logger {
  return createLogger({ level: 'debug', name }, new Writable({ write: (_c, _e, cb) => cb() }));
}

/**
 * The app's HTTP server on 127.0.0.1 for one test at a time: closed after each test,
 * with every socket opened through `connect`. Call at a test file's top level.
 */
export function httpServerPerTest(
  logger: Logger,
  timeouts: HttpTimeouts,
): {
  /** `timeoutsHere` replaces the file's timeouts for this server. */
  start(
    routes: RouteTable,
    limits?: ConnectionLimits,
    timeoutsHere?: HttpTimeouts,
  ): Promise<HttpServerHandle>;
  /** A connection to `url`, from the loopback address `from` when given. */
  connect(url: string, from?: string): Promise<Socket>;
  current(): HttpServerHandle | undefined;
} {
  let server: HttpServerHandle | undefined;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await server?.close();
    server = undefined;
  });
  return {
    start: async (routes, limits, timeoutsHere) => {
      server = await startHttpServer({
        routes,
        logger,
        timeouts: timeoutsHere ?? timeouts,
        ...(limits ? { limits } : {}),
        host: '127.0.0.1',
        port: 0,
      });
      return server;
    },
    connect: async (url, from) => {
      const socket = await openSocket(url, from);
      sockets.push(socket);
      return socket;
    },
    current: () => server,
  };
}
