/**
 * The worker's health endpoint (ROLLOUT_DOCTOR_HEALTH_PORT): `GET /readyz` (below,
 * waitingFor) says whether the worker can take jobs now; `GET /healthz` answers
 * 200 while both Redis connections of the worker work (the one BullMQ blocks on for
 * jobs, and the one that queues notifications and answers a PING within the
 * deadline), 503 naming the failing one otherwise. The Kubernetes liveness probe of
 * deploy/worker.yaml restarts a worker that lost Redis for good. Nothing else is
 * served; it says nothing about the cluster (a worker waiting for jobs is healthy
 * while the API server is away).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RedisReadOnlyError } from '../queue/role.js';

/** The worker's probe paths (the chart's readiness and liveness probes name them). */
export const WORKER_READY_PATH = '/readyz';
export const WORKER_LIVE_PATH = '/healthz';

export interface HealthCheck {
  /** Connection states by name ('ready' is healthy), read at each request. */
  connections: () => Record<string, string>;
  /** A round trip to Redis; rejects or times out when Redis is unreachable. */
  ping: () => Promise<unknown>;
  /**
   * For /readyz: resolves when the server takes writes, rejects with
   * RedisReadOnlyError on a replica (src/queue/role.ts pingWritable). Absent: `ping`.
   */
  writable?: () => Promise<unknown>;
  /** How long a PING may take (default 2 s). */
  pingTimeoutMs?: number;
  /** This process's clock named when it is off beyond the tolerated skew and Redis's clock is unknown (src/queue/clock-watch.ts); /readyz waits for it. */
  clock?: () => string | undefined;
  /** The worker's Prometheus metrics (`GET /metrics`, text format); absent: not served. */
  metrics?: () => Promise<string>;
}

export interface HealthServer {
  readonly port: number;
  close(): Promise<void>;
}

async function check(deps: HealthCheck): Promise<{ ok: boolean; problems: string[] }> {
  const problems = Object.entries(deps.connections())
    .filter(([, status]) => status !== 'ready')
    .map(([name, status]) => `redis connection ${name} is ${status}`);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      deps.ping(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), deps.pingTimeoutMs ?? 2_000);
      }),
    ]);
  } catch (error) {
    problems.push(`redis ping failed: ${error instanceof Error ? error.message : 'error'}`);
  } finally {
    clearTimeout(timer);
  }
  return { ok: problems.length === 0, problems };
}

/**
 * What /readyz waits for, named: each connection that is not ready (`redis connection
 * jobs (reconnecting)`: looking for a master, after a failover the sentinels' new
 * one), and a server that answers but refuses writes (`redis (read-only replica)`) or
 * does not answer. Empty: ready to take jobs.
 */
async function waitingFor(deps: HealthCheck): Promise<string[]> {
  const waiting = Object.entries(deps.connections())
    .filter(([, status]) => status !== 'ready')
    .map(([name, status]) => `redis connection ${name} (${status})`);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (deps.writable ?? deps.ping)(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('no answer')), deps.pingTimeoutMs ?? 2_000);
      }),
    ]);
  } catch (error) {
    waiting.push(error instanceof RedisReadOnlyError ? 'redis (read-only replica)' : 'redis (no answer)');
  } finally {
    clearTimeout(timer);
  }
  const clock = deps.clock?.();
  if (clock) waiting.push(`clock (${clock})`);
  return waiting;
}

/**
 * Serves `GET /healthz` (liveness, text) and `GET /readyz` (JSON: `{"status":"ready"}`,
 * or 503 `{"status":"not ready","waitingFor":[…]}`) on `host:port` (port 0: a free
 * one, for tests). A worker started while Redis is away keeps trying and becomes
 * ready by itself; /readyz says meanwhile what it waits for.
 */
export async function startHealthServer(
  deps: HealthCheck,
  options: { port: number; host?: string },
): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'GET' && path === WORKER_READY_PATH) {
      void waitingFor(deps).then((waiting) => {
        const ready = waiting.length === 0;
        res
          .writeHead(ready ? 200 : 503, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' })
          .end(JSON.stringify(ready ? { status: 'ready' } : { status: 'not ready', waitingFor: waiting }));
      });
      return;
    }
    if (req.method === 'GET' && path === '/metrics' && deps.metrics) {
      void deps.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': 'text/plain; version=0.0.4' }).end(text),
        () => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('metrics unavailable\n'),
      );
      return;
    }
    if (req.method !== 'GET' || path !== WORKER_LIVE_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
      return;
    }
    void check(deps).then(({ ok, problems }) => {
      res
        .writeHead(ok ? 200 : 503, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-store' })
        .end(ok ? 'ok\n' : `${problems.join('\n')}\n`);
    });
  });
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
