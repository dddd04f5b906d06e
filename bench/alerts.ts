/**
 * Alert storm benchmark: 10,000 Alertmanager notifications for 50 workloads
 * within a minute, against the real app in-process (Bolt HTTP receiver, BullMQ on a
 * private redis-server, notify consumer posting to a Slack stand-in). Reports the
 * webhook latency and how many diagnosis jobs the storm created (target: one per
 * workload). Loopback only; bounded in count and time.
 *
 * Run: npx tsx bench/alerts.ts
 */
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'bullmq';
import { loadAppConfig } from '../src/config/app-environment.js';
import { createLogger } from '../src/logger.js';
import { startAppRuntime } from '../src/app/runtime.js';
import { closeConnection, createWorkerConnection } from '../src/queue/connection.js';
import { QUEUE_PREFIX, diagnoseQueueName } from '../src/queue/names.js';
import { startRedis } from '../test/support/redis.js';
import { startSlackStandin } from '../test/support/slack-standin.js';
import { appKeyEnv, generatePlanKeys } from '../src/trust/keygen.js';

export interface AlertBenchOptions {
  notifications?: number;
  workloads?: number;
  /**
   * The storm is offered open-loop at a steady rate over this long (default 55 s, so
   * 10,000 notifications arrive "within a minute"), as Alertmanager replicas would
   * send them: latency is measured under that load, not at saturation.
   */
  spreadMs?: number;
  /** Cap on requests in flight; beyond it sends wait (and count toward latency). */
  maxInFlight?: number;
  /** Hard bound on the whole send phase. */
  timeLimitMs?: number;
}

export interface AlertBenchResult {
  notifications: number;
  workloads: number;
  sendMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** Diagnose jobs that reached the cluster queue (target: exactly `workloads`). */
  diagnosisJobs: number;
  /** Thread root messages posted on the stand-in (target: at most `workloads`). */
  rootMessages: number;
  /** 1-minute load average when the run ended: the latency tail tracks CPU contention. */
  loadAverage: number;
}

const TOKEN = 'bench-alertmanager-token';
const CHANNEL = 'C0BENCHALERTS';

/** One notification: a group of 1-3 alerts for one workload, as Alertmanager sends it. */
function notification(i: number, workloads: number): string {
  const w = i % workloads;
  const deployment = `svc-${w}`;
  const namespace = `team-${w % 5}`;
  const pod = (n: number): string => `${deployment}-7f8b9c6d5-${'bcdfg'[n] ?? 'b'}x2zq`;
  const kind = i % 3;
  const common = { namespace, severity: 'warning' };
  const alerts =
    kind === 0
      ? [{ alertname: 'KubeDeploymentRolloutStuck', deployment, container: 'kube-state-metrics', ...common }]
      : Array.from({ length: kind + 1 }, (_, n) => ({
          alertname: 'KubePodCrashLooping',
          pod: pod(n),
          ...common,
        }));
  const alertname = alerts[0]?.alertname ?? '';
  return JSON.stringify({
    version: '4',
    groupKey: `{}/{severity="warning"}:{alertname="${alertname}", namespace="${namespace}", workload="${deployment}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'rollout-doctor',
    groupLabels: { alertname, namespace },
    commonLabels: common,
    commonAnnotations: {},
    externalURL: 'http://127.0.0.1:9093',
    alerts: alerts.map((labels) => ({
      status: 'firing',
      labels,
      annotations: { summary: `${alertname} for ${namespace}/${deployment}` },
      startsAt: '2026-11-20T10:00:00.000Z',
      endsAt: '0001-01-01T00:00:00Z',
      generatorURL: 'http://127.0.0.1:9090/graph',
      fingerprint: `${w}-${kind}`,
    })),
  });
}

/** One webhook POST as Alertmanager sends it; resolves with the status once the answer is read. */
function post(agent: Agent, url: string, body: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const headers = {
      authorization: `Bearer ${TOKEN}`,
      'content-type': 'application/json',
      'content-length': String(Buffer.byteLength(body)),
    };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0 }));
      res.once('error', reject);
    });
    req.once('error', reject);
    req.end(body);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Runs the storm and returns its figures. Starts and stops its own redis-server,
 * Slack stand-in, app and a counting diagnose worker.
 */
export async function runAlertBench(options: AlertBenchOptions = {}): Promise<AlertBenchResult> {
  const total = options.notifications ?? 10_000;
  const workloads = options.workloads ?? 50;
  const spreadMs = options.spreadMs ?? 55_000;
  const maxInFlight = options.maxInFlight ?? 256;
  const timeLimitMs = options.timeLimitMs ?? 90_000;

  const redis = await startRedis();
  const slack = await startSlackStandin({ botToken: 'xoxb-bench' });
  const config = loadAppConfig({
    ...appKeyEnv(generatePlanKeys({ seal: 'bench-seal', approval: 'bench-approval' })),
    SLACK_BOT_TOKEN: 'xoxb-bench',
    SLACK_SIGNING_SECRET: 'bench-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL: redis.url,
    PORT: '0',
    ALERTMANAGER_TOKEN: TOKEN,
    ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNEL,
    // This storm is about deduplication of repeats; the per-minute cap has its own
    // benchmark (bench/alert-flood.ts).
    ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000',
    LOG_LEVEL: 'silent',
  });
  const logger = createLogger({ level: 'silent', name: 'bench-alerts' });
  const app = await startAppRuntime(config, logger, { host: '127.0.0.1', port: 0 });
  const connection = createWorkerConnection(redis.url);
  let diagnosisJobs = 0;
  // Stands in for the cluster worker: counts the diagnose jobs the storm produced.
  const counter = new Worker(
    diagnoseQueueName(config.defaultCluster),
    async () => {
      diagnosisJobs += 1;
    },
    { connection, prefix: QUEUE_PREFIX, concurrency: 8 },
  );
  counter.on('error', () => undefined);

  const latencies: number[] = [];
  let non2xx = 0;
  const url = `${app.handle.url}/alerts/alertmanager`;
  // node:http with keep-alive, not fetch: the senders share the app's event loop, and
  // fetch's much higher cost per request showed up in the webhook's latency tail.
  const agent = new Agent({ keepAlive: true, maxSockets: maxInFlight });
  const started = performance.now();
  const deadline = Date.now() + timeLimitMs;
  try {
    const send = async (i: number, due: number): Promise<void> => {
      const res = await post(agent, url, notification(i, workloads));
      // Measured from when the request was due, so waiting for a free slot counts too.
      latencies.push(performance.now() - due);
      if (res.status < 200 || res.status >= 300) non2xx += 1;
    };
    const inFlight = new Set<Promise<void>>();
    for (let i = 0; i < total && Date.now() < deadline; i += 1) {
      const due = started + (i * spreadMs) / total;
      const wait = due - performance.now();
      if (wait > 1) await new Promise((r) => setTimeout(r, wait));
      while (inFlight.size >= maxInFlight) await Promise.race(inFlight);
      const request = send(i, due).finally(() => inFlight.delete(request));
      inFlight.add(request);
    }
    await Promise.all(inFlight);
    const sendMs = performance.now() - started;
    await waitFor(() => diagnosisJobs >= workloads, 10_000);
    const roots = (): number =>
      [...slack.messages.values()].filter((m) => m.channel === CHANNEL && !m.threadTs).length;
    await waitFor(() => roots() >= workloads, 10_000);
    // Give stragglers (a duplicate that should not exist) a moment to show up.
    await new Promise((r) => setTimeout(r, 500));
    const sorted = [...latencies].sort((a, b) => a - b);
    return {
      notifications: latencies.length,
      workloads,
      sendMs: Math.round(sendMs),
      p50Ms: round(percentile(sorted, 50)),
      p99Ms: round(percentile(sorted, 99)),
      maxMs: round(sorted.at(-1) ?? 0),
      non2xx,
      diagnosisJobs,
      rootMessages: roots(),
      loadAverage: loadavg()[0] ?? 0,
    };
  } finally {
    agent.destroy();
    await counter.close();
    await closeConnection(connection);
    await app.stop();
    await slack.close();
    await redis.close();
  }
}

function round(ms: number): number {
  return Math.round(ms * 100) / 100;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  runAlertBench().then(
    (result) => {
      console.log(JSON.stringify(result, null, 2));
      const ok = result.p99Ms < 50 && result.diagnosisJobs === result.workloads && result.non2xx === 0;
      console.log(ok ? 'alerts bench: targets met' : 'alerts bench: targets MISSED');
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
