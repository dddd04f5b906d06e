import type { AppRoute } from '../http-server.js';
import type { Logger } from '../../logger.js';
import { redisTrouble, withDeadline } from '../../queue/deadline.js';
import type { Metrics } from '../../metrics.js';

/** GET /healthz: the process is alive and serving. */
export function healthzRoute(): AppRoute {
  return {
    path: '/healthz',
    method: ['GET'],
    handler: (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"ok"}');
    },
  };
}

/** A Redis probe slower than this counts as unreachable (as the worker's /healthz). */
const READYZ_PING_TIMEOUT_MS = 2_000;

/**
 * GET /readyz: Redis answers and takes writes (`pingRedis` is the app's write probe:
 * ROLE, then a SET of one small key with a short expiry, src/queue/role.ts) and Slack
 * credentials were verified (auth.test). 503 otherwise, naming what Redis refused:
 * `redis: "full"` when it refuses writes (OOM, noeviction), `"read-only"` on a replica,
 * `"unreachable"` when it does not answer in time. Served on the public port, so the body says only ok/unreachable: an
 * error's text (a Redis URL with its password, a host name) goes to the log. Probes
 * that arrive while a PING is out share it: a flood of /readyz makes one PING at a
 * time on the connection the slash-command acks enqueue on, not one per request, and
 * none waits longer than READYZ_PING_TIMEOUT_MS (an answer held open is a connection
 * held). While not ready, `waitingFor` names what it waits for: `redis (reconnecting)`
 * while the connection looks for a master (after a failover, the sentinels' new one),
 * `slack credentials`.
 */
export function readyzRoute(checks: {
  pingRedis(): Promise<void>;
  /** The connection's state ('ready', 'connecting', 'reconnecting', …), named in `waitingFor`. */
  redisStatus?(): string;
  slackReady(): boolean;
  /** No Slack in this install: reported as 'off', not waited for. */
  slackOff?: boolean;
  logger: Pick<Logger, 'warn'>;
  pingTimeoutMs?: number;
  /**
   * The app's clock named when it is off beyond the tolerated skew (src/queue/clock-watch.ts):
   * shown as `clock`, not waited for (an app taken out of its Service answers nobody).
   */
  clock?(): string | undefined;
}): AppRoute {
  /** What the probe found: a stall counts as unreachable (no answer in time); the log names it. */
  type RedisState = 'ok' | 'unreachable' | 'full' | 'read-only';
  const pingOnce = async (): Promise<RedisState> => {
    try {
      await withDeadline(
        checks.pingRedis(),
        'readyz: redis probe',
        checks.pingTimeoutMs ?? READYZ_PING_TIMEOUT_MS,
      );
      return 'ok';
    } catch (error) {
      checks.logger.warn({ err: error }, 'readyz: redis probe failed');
      const trouble = redisTrouble(error);
      return trouble === 'full' || trouble === 'read-only' ? trouble : 'unreachable';
    }
  };
  let pending: Promise<RedisState> | undefined;
  const redisState = (): Promise<RedisState> =>
    (pending ??= pingOnce().finally(() => {
      pending = undefined;
    }));
  return {
    path: '/readyz',
    method: ['GET'],
    handler: (_req, res) => {
      // Bolt's route type expects a void handler, so the failure is answered here.
      (async () => {
        const redis = await redisState();
        const slack = checks.slackOff ? 'off' : checks.slackReady() ? 'ok' : 'credentials not verified';
        const slackOk = slack !== 'credentials not verified';
        const ok = redis === 'ok' && slackOk;
        const waitingFor = [
          ...(redis === 'ok'
            ? []
            : redis === 'full'
              ? ['redis (writes refused: full, out of memory)']
              : [`redis (${checks.redisStatus?.() ?? 'no answer'})`]),
          ...(slackOk ? [] : ['slack credentials']),
        ];
        const clock = checks.clock?.();
        res.writeHead(ok ? 200 : 503, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            status: ok ? 'ready' : 'not ready',
            redis,
            slack,
            ...(clock ? { clock } : {}),
            ...(ok ? {} : { waitingFor }),
          }),
        );
      })().catch((error: unknown) => {
        checks.logger.warn({ err: error }, 'readyz failed');
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
    },
  };
}

/** GET /metrics: Prometheus text format. Served only on METRICS_PORT (see app.ts). */
export function metricsRoute(metrics: Metrics): AppRoute {
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
