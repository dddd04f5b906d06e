import type { CustomRoute } from '@slack/bolt';
import type { Logger } from '../../logger.js';
import type { Metrics } from '../../metrics.js';

/** GET /healthz: the process is alive and serving. */
export function healthzRoute(): CustomRoute {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    },
  };
}

/**
 * GET /readyz: Redis answers and Slack credentials were verified (auth.test). 503
 * otherwise. Served on the public port, so the body says only ok/unreachable: an
 * error's text (a Redis URL with its password, a host name) goes to the log.
 */
export function readyzRoute(checks: {
  pingRedis(): Promise<void>;
  slackReady(): boolean;
  logger: Pick<Logger, 'warn'>;
}): CustomRoute {
  return {
    path: '/readyz',
    method: ['GET'],
    handler: (_req, res) => {
      // Bolt's route type expects a void handler, so the failure is answered here.
      (async () => {
        let redis = 'ok';
        try {
          await checks.pingRedis();
        } catch (error) {
          redis = 'unreachable';
          checks.logger.warn({ err: error }, 'readyz: redis ping failed');
        }
        const slack = checks.slackReady() ? 'ok' : 'credentials not verified';
        const ok = redis === 'ok' && slack === 'ok';
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: ok ? 'ready' : 'not ready', redis, slack }));
      })().catch((error: unknown) => {
        checks.logger.warn({ err: error }, 'readyz failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    },
  };
}

/** GET /metrics: Prometheus text format. Served only on METRICS_PORT (see app.ts). */
export function metricsRoute(metrics: Metrics): CustomRoute {
  return {
    path: '/metrics',
    method: ['GET'],
    handler: (_req, res) => {
      void metrics.registry.metrics().then(
        (body) => {
          res.writeHead(200, { 'content-type': metrics.registry.contentType });
          res.end(body);
        },
        () => {
          res.writeHead(500);
          res.end();
        },
      );
    },
  };
}
