import type { AppServices } from './services.js';
import { routeTable, startHttpServer, type HttpServerHandle, type HttpTimeouts } from './http-server.js';
import { metricsRoute } from './routes/health.js';

/**
 * GET /metrics on METRICS_PORT, apart from the public port: queue depths and command
 * counts tell an outsider what the team is doing, and a port that the Service does not
 * expose needs no token to hand out and rotate (Prometheus scrapes the pod directly).
 */
export async function startMetricsServer(
  services: AppServices,
  timeouts: HttpTimeouts,
): Promise<HttpServerHandle | undefined> {
  const { config, logger, metrics } = services;
  if (config.metrics.port === undefined) {
    logger.info('METRICS_PORT is not set: /metrics is not served');
    return undefined;
  }
  return startHttpServer({
    routes: routeTable([metricsRoute(metrics)]),
    logger,
    timeouts,
    ...(config.metrics.host === undefined ? {} : { host: config.metrics.host }),
    port: config.metrics.port,
  });
}
