import type { CustomRoute } from '@slack/bolt';
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

/** GET /readyz: Redis answers and Slack credentials were verified (auth.test). 503 otherwise. */
export function readyzRoute(checks: { pingRedis(): Promise<void>; slackReady(): boolean }): CustomRoute {
  return {
    path: '/readyz',
    method: ['GET'],
    handler: (_req, res) => {
      void (async () => {
        let redis = 'ok';
        try {
          await checks.pingRedis();
        } catch (error) {
          redis = error instanceof Error ? error.message : 'unreachable';
        }
        const slack = checks.slackReady() ? 'ok' : 'credentials not verified';
        const ok = redis === 'ok' && slack === 'ok';
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: ok ? 'ready' : 'not ready', redis, slack }));
      })();
    },
  };
}

/** GET /metrics: Prometheus text format. */
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
