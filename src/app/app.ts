import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { App, HTTPReceiver, type CustomRoute } from '@slack/bolt';
import { boltLogger } from './bolt-logger.js';
import { registerListeners } from './listeners/index.js';
import { healthzRoute, metricsRoute, readyzRoute } from './routes/health.js';
import { slackFetch } from './slack-fetch.js';
import type { AppServices } from './services.js';

/** Slack's replay window, both directions (Bolt 5.1 only refuses stale ones). */
const MAX_SKEW_SECONDS = 300;

export interface SlackAppHandle {
  app: App;
  /** Base URL in HTTP mode (`http://host:port`); routes are served there. */
  url: string;
  stop(): Promise<void>;
}

/**
 * True for a Slack request dated more than 5 minutes in the future. Bolt 5.1 checks
 * staleness but accepts future timestamps, which would let a captured request be
 * replayed later; this check runs first, on headers only.
 */
export function isFutureDated(req: IncomingMessage, nowMs = Date.now()): boolean {
  const header = req.headers['x-slack-request-timestamp'];
  const ts = Number(Array.isArray(header) ? header[0] : header);
  return Number.isFinite(ts) && ts > Math.floor(nowMs / 1000) + MAX_SKEW_SECONDS;
}

/**
 * Custom routes with a fixed path, by "METHOD /path". Bolt 5.1's HTTPReceiver
 * compiles a path-to-regexp matcher for every custom route on every request that is
 * not a Slack event (in order, so the Alertmanager route, last, paid for four), which
 * showed up in alert storm profiles; fixed paths are answered here instead, with the
 * same handler and empty params. Paths with parameters still go through Bolt.
 */
function exactRoutes(routes: readonly CustomRoute[]): Map<string, CustomRoute['handler']> {
  const map = new Map<string, CustomRoute['handler']>();
  for (const route of routes) {
    if (/[:*?(){}]/.test(route.path)) continue;
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      // A later route for the same method and path wins, as in Bolt's route table.
      map.set(`${method.toUpperCase()} ${route.path}`, route.handler);
    }
  }
  return map;
}

/**
 * Builds and starts the Bolt app: HTTP mode (POST /slack/events, signature checked
 * by Bolt plus our future-timestamp check) or Socket Mode when an app token is
 * configured. Calls auth.test once at start (Bolt's default token verification).
 * Extra custom routes (e.g. the Alertmanager intake) go in `extraRoutes`.
 */
export async function startSlackApp(
  services: AppServices,
  options: { extraRoutes?: CustomRoute[]; host?: string; port?: number; onSlackReady?: () => void } = {},
): Promise<SlackAppHandle> {
  const { config, logger, metrics } = services;
  const customRoutes: CustomRoute[] = [
    healthzRoute(),
    readyzRoute(services),
    metricsRoute(metrics),
    ...(options.extraRoutes ?? []),
  ];
  const log = boltLogger(logger);
  const clientOptions = {
    fetch: slackFetch,
    ...(config.slack.apiUrl ? { slackApiUrl: config.slack.apiUrl } : {}),
  };
  const port = options.port ?? config.port;

  if (config.mode === 'socket') {
    const app = new App({
      token: config.slack.botToken,
      appToken: config.slack.appToken,
      socketMode: true,
      customRoutes,
      installerOptions: { port },
      logger: log,
      clientOptions,
      deferInitialization: true,
      convoStore: false,
    });
    registerListeners(app, services);
    await app.init();
    options.onSlackReady?.();
    await app.start();
    return {
      app,
      url: `http://${options.host ?? '127.0.0.1'}:${port}`,
      stop: () => app.stop() as Promise<void>,
    };
  }

  const signingSecret = config.slack.signingSecret ?? '';
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: '/slack/events',
    customRoutes,
    logger: log,
    processBeforeResponse: false,
  });
  const app = new App({
    token: config.slack.botToken,
    receiver,
    logger: log,
    clientOptions,
    deferInitialization: true,
    // No listener keeps conversation state; Bolt's default in-memory store would
    // still look every request up and reject with a new Error (a stack trace) each time.
    convoStore: false,
  });
  registerListeners(app, services);
  app.error(async (error) => {
    logger.error({ err: error }, 'listener failed');
  });
  await app.init();
  options.onSlackReady?.();

  const direct = exactRoutes(customRoutes);
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    // Every POST, not only the literal '/slack/events': Bolt routes on the normalised
    // path, so '/./slack/events' would reach it without this check.
    if (req.method === 'POST' && isFutureDated(req)) {
      logger.warn('refused a Slack request dated in the future');
      res.writeHead(401);
      res.end();
      return;
    }
    const handler = direct.get(`${req.method ?? ''} ${path}`);
    if (handler) {
      handler(Object.assign(req, { params: {} }), res);
      return;
    }
    receiver.requestListener(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = options.host ?? '127.0.0.1';
  return {
    app,
    url: `http://${host}:${address.port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
