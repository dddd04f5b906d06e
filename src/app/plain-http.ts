import { routeTable, startHttpServer, type AppRoute } from './http-server.js';
import { startMetricsServer } from './metrics-server.js';
import { healthzRoute, readyzRoute } from './routes/health.js';
import type { AppServices } from './services.js';

/** The app's HTTP side, with or without Slack: where it listens and how it stops. */
export interface AppHttpHandle {
  /** Base URL (`http://host:port`); routes are served there. */
  url: string;
  /** Base URL of the metrics server (GET /metrics), when METRICS_PORT is set. */
  metricsUrl: string | undefined;
  stop(): Promise<void>;
}

/**
 * The app's HTTP server in an install without Slack (Teams only): the same server,
 * limits and routes as beside Bolt (`/healthz`, `/readyz`, the Teams endpoint, the
 * Alertmanager intake), with no `/slack/events`.
 */
export async function startPlainHttp(
  services: AppServices,
  options: { extraRoutes?: AppRoute[]; host?: string; port?: number } = {},
): Promise<AppHttpHandle> {
  const { config, logger } = services;
  const routes = routeTable([healthzRoute(), readyzRoute(services), ...(options.extraRoutes ?? [])]);
  const http = await startHttpServer({
    routes,
    logger,
    timeouts: config.http,
    ...((options.host ?? config.host) === undefined ? {} : { host: options.host ?? config.host }),
    port: options.port ?? config.port,
  });
  const metricsServer = await startMetricsServer(services, config.http);
  return {
    url: http.url,
    metricsUrl: metricsServer?.url,
    stop: async () => {
      await Promise.all([http.close(), metricsServer?.close()]);
    },
  };
}
