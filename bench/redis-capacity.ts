/**
 * How many clusters one Redis carries (docs/operations.md "Sizing"): one
 * private redis-server, one app runtime serving K clusters (ROLLOUT_DOCTOR_CLUSTERS) and,
 * per cluster, WORKERS_PER_CLUSTER real worker runtimes (src/worker/runtime.ts: the
 * diagnose and remediate BullMQ workers of `diagnose.<cluster>` / `remediate.<cluster>`,
 * the notify producer, the plan store and the early warning's leader lease; the cluster
 * side is test/support/fake-cluster.ts, so Redis does all of a worker's Redis work and no
 * Kubernetes I/O). K grows 1 → 10 → 50 → 100; at each K an idle window (the workers'
 * blocking waits, stalled checks and lease renewals alone), then a window in which every
 * cluster gets ALERTS_PER_CLUSTER_PER_MINUTE Alertmanager alerts, each for a new workload
 * (the costliest kind: a thread, a diagnosis, its sealed plans, the result posts).
 * Redis's own counters (bench/lib/redis-probe.ts) give its main thread's CPU, commands
 * and their server-side time, memory and clients; a PING every 50 ms its round trip.
 *
 * Run: npx tsx bench/redis-capacity.ts (BENCH_CAPACITY_STEPS=1,10,50,100,
 * BENCH_CAPACITY_WINDOW_SECONDS=20).
 */
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startAppRuntime, type AppRuntime } from '../src/app/runtime.js';
import { loadAppConfig } from '../src/config/app-environment.js';
import { loadWorkerConfig } from '../src/config/worker-environment.js';
import { createLogger } from '../src/logger.js';
import { NOTIFY_QUEUES, diagnoseQueueName, remediateQueueName } from '../src/queue/names.js';
import { appKeyEnv, generatePlanKeys, workerKeyEnv } from '../src/trust/keygen.js';
import { startWorkers, type WorkerRuntime } from '../src/worker/runtime.js';
import { fakeClusterDeps } from '../test/support/fake-cluster.js';
import { waitForIdleQueues } from '../test/support/queue-idle.js';
import { startRedis, type TestRedis } from '../test/support/redis.js';
import { startSlackStandin, type SlackStandin } from '../test/support/slack-standin.js';
import { measureWindow, type WindowFigures } from './lib/redis-probe.js';
import { renderSection, type Row, type Section } from './report.js';

export const CAPACITY_STEPS = [1, 10, 50, 100];
export const WORKERS_PER_CLUSTER = 2;
export const ALERTS_PER_CLUSTER_PER_MINUTE = 6;
const WINDOW_SECONDS = 20;
const TOKEN = 'bench-capacity-alertmanager';
const ALERT_CHANNEL = 'C0CAPACITY';

export interface CapacityStep {
  clusters: number;
  workers: number;
  idle: WindowFigures;
  alerts: WindowFigures;
  /** Alerts offered in the alert window and answered 2xx by the app. */
  alertsSent: number;
  alertsPerMinute: number;
  /** Diagnoses the workers ran for them (all done once the queues settled). */
  diagnoses: number;
  /** Alert window end → every diagnose, remediate and notify queue idle. */
  settleMs: number;
  /** 1-minute load average at the end of the step. */
  load: number;
}

export interface CapacityBench {
  steps: CapacityStep[];
  windowSeconds: number;
}

const clusterName = (i: number): string => `c${String(i).padStart(3, '0')}`;

function alertBody(cluster: string, workload: string): string {
  return JSON.stringify({
    version: '4',
    groupKey: `{}:{alertname="KubeDeploymentRolloutStuck", deployment="${workload}"}`,
    truncatedAlerts: 0,
    status: 'firing',
    receiver: 'rollout-doctor',
    groupLabels: { alertname: 'KubeDeploymentRolloutStuck' },
    commonLabels: { alertname: 'KubeDeploymentRolloutStuck' },
    commonAnnotations: {},
    externalURL: 'http://alertmanager.example:9093',
    alerts: [
      {
        status: 'firing',
        labels: { alertname: 'KubeDeploymentRolloutStuck', cluster, namespace: 'apps', deployment: workload },
        annotations: { summary: 'rollout stuck' },
        startsAt: new Date().toISOString(),
        endsAt: '0001-01-01T00:00:00Z',
        generatorURL: '',
        fingerprint: `${cluster}-${workload}`,
      },
    ],
  });
}

/** Offers `perMinute` alerts a minute, open loop, spread over the clusters, for `seconds`. */
async function offerAlerts(
  appUrl: string,
  clusters: number,
  perMinute: number,
  seconds: number,
  tag: string,
): Promise<number> {
  const total = Math.round((perMinute * seconds) / 60);
  const start = performance.now();
  const sends: Promise<boolean>[] = [];
  for (let i = 0; i < total; i += 1) {
    const due = start + (i * seconds * 1000) / total;
    await new Promise((r) => setTimeout(r, Math.max(0, due - performance.now())));
    sends.push(
      fetch(`${appUrl}/alerts/alertmanager`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: alertBody(clusterName(i % clusters), `w-${tag}-${i}`),
      }).then(
        async (r) => (await r.arrayBuffer(), r.ok),
        () => false,
      ),
    );
  }
  await new Promise((r) => setTimeout(r, Math.max(0, start + seconds * 1000 - performance.now())));
  return (await Promise.all(sends)).filter(Boolean).length;
}

interface Rig {
  redis: TestRedis;
  slack: SlackStandin;
  app: AppRuntime;
  workers: WorkerRuntime[];
  diagnoses: { count: number };
  /** Starts the workers of clusters [from, to). */
  addClusters(from: number, to: number): void;
  close(): Promise<void>;
}

async function startRig(maxClusters: number): Promise<Rig> {
  const redis = await startRedis();
  const slack = await startSlackStandin({ botToken: 'xoxb-capacity' });
  const keys = generatePlanKeys({ seal: 'capacity-seal', approval: 'capacity-approval' });
  const logger = createLogger({ level: 'silent', name: 'bench-capacity' });
  const names = Array.from({ length: maxClusters }, (_, i) => clusterName(i));
  const app = await startAppRuntime(
    loadAppConfig({
      ...appKeyEnv(keys),
      SLACK_BOT_TOKEN: 'xoxb-capacity',
      SLACK_SIGNING_SECRET: 'bench-capacity-secret',
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      ROLLOUT_DOCTOR_CLUSTER: names[0] ?? 'c000',
      ROLLOUT_DOCTOR_CLUSTERS: names.join(','),
      ALERTMANAGER_TOKEN: TOKEN,
      ROLLOUT_DOCTOR_ALERT_CHANNEL: ALERT_CHANNEL,
      // Every alert opens a thread and runs a diagnosis (the default cap, 60 a minute
      // for the whole app, would summarise most of them: cheaper for Redis).
      ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS_PER_MINUTE: '100000',
      LOG_LEVEL: 'silent',
    }),
    logger,
    { host: '127.0.0.1', port: 0 },
  );
  const workers: WorkerRuntime[] = [];
  const diagnoses = { count: 0 };
  const cluster = fakeClusterDeps([]);
  const deps = {
    ...cluster,
    collect: (...args: Parameters<typeof cluster.collect>) => {
      diagnoses.count += 1;
      return cluster.collect(...args);
    },
  };
  const addClusters = (from: number, to: number): void => {
    for (let i = from; i < to; i += 1)
      for (let w = 0; w < WORKERS_PER_CLUSTER; w += 1)
        workers.push(
          startWorkers(
            loadWorkerConfig({
              ...workerKeyEnv(keys),
              REDIS_URL: redis.url,
              ROLLOUT_DOCTOR_CLUSTER: clusterName(i),
              ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'apps',
              ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '1',
              LOG_LEVEL: 'silent',
            }),
            logger,
            deps,
          ),
        );
  };
  return {
    redis,
    slack,
    app,
    workers,
    diagnoses,
    addClusters,
    async close() {
      await Promise.all(workers.map((w) => w.stop()));
      await app.stop();
      await slack.close();
      await redis.close();
    },
  };
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One K: add the clusters, an idle window, an alert window, then wait until the queues are idle. */
async function step(rig: Rig, from: number, clusters: number, seconds: number): Promise<CapacityStep> {
  rig.addClusters(from, clusters);
  await sleep(5_000); // the new workers connect and take their first blocking wait
  const idle = await measureWindow(rig.redis.url, () => sleep(seconds * 1000));
  const before = rig.diagnoses.count;
  const perMinute = clusters * ALERTS_PER_CLUSTER_PER_MINUTE;
  let alertsSent = 0;
  const alerts = await measureWindow(rig.redis.url, async () => {
    alertsSent = await offerAlerts(rig.app.handle.url, clusters, perMinute, seconds, `k${clusters}`);
  });
  const settleStart = Date.now();
  const names = Array.from({ length: clusters }, (_, i) => clusterName(i));
  await waitForIdleQueues(
    rig.redis.url,
    [...names.flatMap((c) => [diagnoseQueueName(c), remediateQueueName(c)]), ...NOTIFY_QUEUES],
    { timeoutMs: 120_000 },
  );
  return {
    clusters,
    workers: clusters * WORKERS_PER_CLUSTER,
    idle,
    alerts,
    alertsSent,
    alertsPerMinute: perMinute,
    diagnoses: rig.diagnoses.count - before,
    settleMs: Date.now() - settleStart,
    load: Math.round((loadavg()[0] ?? 0) * 10) / 10,
  };
}

export async function runRedisCapacityBench(
  options: { steps?: number[]; windowSeconds?: number; log?: (line: string) => void } = {},
): Promise<CapacityBench> {
  const steps = options.steps ?? CAPACITY_STEPS;
  const windowSeconds = options.windowSeconds ?? WINDOW_SECONDS;
  const rig = await startRig(Math.max(...steps));
  try {
    const out: CapacityStep[] = [];
    let started = 0;
    for (const clusters of steps) {
      const s = await step(rig, started, clusters, windowSeconds);
      started = clusters;
      out.push(s);
      options.log?.(JSON.stringify(s));
    }
    return { steps: out, windowSeconds };
  } finally {
    await rig.close();
  }
}

/** Per-cluster and per-alert cost of the largest step: what the sizing table's estimate rests on. */
export function capacityCosts(r: CapacityBench): {
  /** Redis main-thread CPU of one idle cluster (its workers' waits, checks and lease), share of a core. */
  idleSharePerCluster: number;
  /** Redis main-thread CPU per new-workload alert, ms. */
  cpuMsPerAlert: number;
  commandsPerAlert: number;
  clientsPerCluster: number;
} {
  const first = r.steps[0];
  const last = r.steps.at(-1);
  if (!first || !last || last === first) throw new Error('capacity bench: needs two steps');
  const extra = last.clusters - first.clusters;
  const alertWindow = last.alerts.seconds;
  return {
    idleSharePerCluster: (last.idle.cpuShare - first.idle.cpuShare) / extra,
    cpuMsPerAlert:
      ((last.alerts.cpuShare - last.idle.cpuShare) * alertWindow * 1000) / Math.max(1, last.alertsSent),
    commandsPerAlert: Math.round(
      ((last.alerts.commandsPerSecond - last.idle.commandsPerSecond) * alertWindow) /
        Math.max(1, last.alertsSent),
    ),
    clientsPerCluster: Math.round(((last.idle.clients - first.idle.clients) / extra) * 10) / 10,
  };
}

const pct = (share: number): string => `${(share * 100).toFixed(2)} %`;

/** One row per K with alerts (idle figures beside them), then the per-cluster and per-alert costs. */
export function capacitySection(r: CapacityBench): Section {
  const rows: Row[] = r.steps.map((s) => ({
    figure: `${s.clusters} cluster${s.clusters === 1 ? '' : 's'}, ${s.workers} workers, ${s.alertsPerMinute} alerts a minute: Redis main thread`,
    median: `${pct(s.alerts.cpuShare)} of a core`,
    comparison: `idle ${pct(s.idle.cpuShare)}; ${s.alerts.commandsPerSecond} commands/s (idle ${s.idle.commandsPerSecond}) at ${s.alerts.usecPerCommand} µs each in Redis; PING p50/p99 ${s.alerts.pingP50Ms}/${s.alerts.pingP99Ms} ms; ${s.alerts.usedMemoryMb} MB used, ${s.alerts.clients} clients; ${s.alertsSent} alerts sent, ${s.diagnoses} diagnosed, queues idle ${(s.settleMs / 1000).toFixed(1)} s after; load ${s.load}`,
    target: '< 50 % of a core',
    met: s.alerts.cpuShare < 0.5 && s.diagnoses >= s.alertsSent,
  }));
  const c = capacityCosts(r);
  rows.push({
    figure: 'Redis cost of one idle cluster (2 workers) and of one new-workload alert',
    median: `${pct(c.idleSharePerCluster)} of a core; ${c.cpuMsPerAlert.toFixed(2)} ms CPU`,
    comparison: `${c.clientsPerCluster} connections per cluster; ${c.commandsPerAlert} commands per alert (thread, diagnosis, sealed plans, progress and result notifications)`,
    target: '—',
    met: undefined,
  });
  return {
    title: `One Redis under many clusters (${r.steps.map((s) => s.clusters).join(' → ')} clusters, ${r.windowSeconds} s windows)`,
    rows,
    notes: [
      `runRedisCapacityBench() from bench/redis-capacity.ts: one private redis-server; one app runtime serving every cluster (ROLLOUT_DOCTOR_CLUSTERS); per cluster ${WORKERS_PER_CLUSTER} real worker runtimes (src/worker/runtime.ts: diagnose and remediate BullMQ workers on diagnose.<cluster> / remediate.<cluster>, notify producer, plan store, early-warning leader lease on), with the fake cluster side of test/support/fake-cluster.ts, all in the benchmark process. Each alert names a new workload (a thread, a diagnosis with sealed plans, its posts): the costliest kind; the thread cap was lifted so every one was diagnosed.`,
      "CPU is the Redis main thread's own (INFO cpu used_cpu_*_main_thread), commands and their server-side time from INFO stats/commandstats; these move little with the machine's load, the PING round trip (a probe client every 50 ms) moves a lot.",
    ],
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const steps = process.env['BENCH_CAPACITY_STEPS']?.split(',').map(Number);
  const windowSeconds = Number(process.env['BENCH_CAPACITY_WINDOW_SECONDS'] ?? WINDOW_SECONDS);
  const result = await runRedisCapacityBench({
    ...(steps ? { steps } : {}),
    windowSeconds,
    log: (line) => console.log(line),
  });
  console.log(renderSection(capacitySection(result), 'npx tsx bench/redis-capacity.ts'));
}
