import type { IncomingMessage } from 'node:http';
import { App, HTTPReceiver, type CustomRoute } from '@slack/bolt';
import { boltLogger } from '../chat/slack/bolt-logger.js';
import { routeTable, startHttpServer, type Handler, type HttpServerHandle } from './http-server.js';
import { registerListeners } from '../chat/slack/listeners/index.js';
import { bodyGate } from './body-gate.js';
import { slackBodyProblem } from '../chat/slack/request-shape.js';
import { healthzRoute, readyzRoute } from './routes/health.js';
import { slackFetch } from '../chat/slack/slack-fetch.js';
import type { AppServices } from './services.js';
import type { SlackConfig } from '../config/slack.js';
import { startMetricsServer } from './metrics-server.js';

/** Slack's replay window, both directions (Bolt 5.1 only refuses stale ones). */
const MAX_SKEW_SECONDS = 300;

interface SlackAppHandle {
  app: App;
  /** Base URL in HTTP mode (`http://host:port`); routes are served there. */
  url: string;
  /** Base URL of the metrics server (GET /metrics), when METRICS_PORT is set. */
  metricsUrl: string | undefined;
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
 * Builds and starts the Bolt app: HTTP mode (POST /slack/events, signature checked
 * by Bolt plus our future-timestamp check) or Socket Mode when an app token is
 * configured. Calls auth.test once at start (Bolt's default token verification).
 * Extra custom routes (e.g. the Alertmanager intake) go in `extraRoutes`.
 */
export async function startSlackApp(
  services: AppServices,
  slack: SlackConfig,
  options: { extraRoutes?: CustomRoute[]; host?: string; port?: number; onSlackReady?: () => void } = {},
): Promise<SlackAppHandle> {
  const { config, logger } = services;
  const customRoutes: CustomRoute[] = [healthzRoute(), readyzRoute(services), ...(options.extraRoutes ?? [])];
  const log = boltLogger(logger);
  const clientOptions = {
    fetch: slackFetch,
    ...(slack.apiUrl ? { slackApiUrl: slack.apiUrl } : {}),
  };
  const port = options.port ?? config.port;
  const host = options.host ?? config.host;
  const timeouts = config.http;

  if (config.mode === 'socket') {
    const app = new App({
      token: slack.botToken,
      appToken: slack.appToken,
      socketMode: true,
      logger: log,
      clientOptions,
      deferInitialization: true,
      convoStore: false,
    });
    registerListeners(app, services, slack);
    await app.init();
    options.onSlackReady?.();
    // Bolt's Socket Mode receiver would serve customRoutes on a server of its own
    // whose async handler throws on a path such as '//' (new URL), and the unhandled
    // rejection ends the process; ours serves them.
    const http = await startHttpServer({ routes: routeTable(customRoutes), logger, timeouts, host, port });
    const metricsServer = await startMetricsServer(services, timeouts);
    await app.start();
    return {
      app,
      url: http.url,
      metricsUrl: metricsServer?.url,
      stop: async () => {
        await Promise.all([http.close(), metricsServer?.close()]);
        await (app.stop() as Promise<void>);
      },
    };
  }

  const signingSecret = slack.signingSecret ?? '';
  const receiver = new HTTPReceiver({
    signingSecret,
    endpoints: '/slack/events',
    logger: log,
    processBeforeResponse: false,
  });
  const app = new App({
    token: slack.botToken,
    receiver,
    logger: log,
    clientOptions,
    deferInitialization: true,
    // No listener keeps conversation state; Bolt's default in-memory store would
    // still look every request up and reject with a new Error (a stack trace) each time.
    convoStore: false,
  });
  registerListeners(app, services, slack);
  app.error(async (error) => {
    logger.error({ err: error }, 'listener failed');
  });
  await app.init();
  options.onSlackReady?.();

  const readSlackBody = bodyGate(logger).handler((req, res) => {
    // Only the requests this app serves, in Slack's shape, reach Bolt (src/chat/slack/request-shape.ts).
    const problem = slackBodyProblem(req as typeof req & { rawBody: Buffer }, signingSecret);
    if (problem !== undefined) {
      logger.warn({ problem }, 'refused a Slack request this app does not serve');
      res.writeHead(400);
      res.end();
      return;
    }
    return receiver.requestListener(req, res);
  });
  const slackEvents: Handler = (req, res) => {
    if (isFutureDated(req)) {
      logger.warn('refused a Slack request dated in the future');
      res.writeHead(401);
      res.end();
      return;
    }
    return readSlackBody(req, res);
  };
  // Exact paths only: Bolt sees POST /slack/events and nothing else, so its
  // path normalising and its throw on unrouted requests are never reached.
  const routes = routeTable(customRoutes, { '/slack/events': { POST: slackEvents } });
  const http: HttpServerHandle = await startHttpServer({ routes, logger, timeouts, host, port });
  const metricsServer = await startMetricsServer(services, timeouts);
  return {
    app,
    url: http.url,
    metricsUrl: metricsServer?.url,
    stop: async () => {
      await Promise.all([http.close(), metricsServer?.close()]);
    },
  };
}
