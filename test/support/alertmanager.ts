import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from './redis.js';
import { requireBinary } from './tools.js';
import { SIGNAL_WAIT_MS } from './timeouts.js';

/**
 * The real Prometheus Alertmanager (Debian's `prometheus-alertmanager`, 0.25 here) for
 * intake tests: loopback only, clustering off, a temp storage dir, and a generated
 * config whose only receiver is a webhook to the app with a bearer token.
 */
export interface TestAlertmanager {
  url: string;
  /** Posts alerts to its API v2, as Prometheus would. */
  postAlerts(alerts: PostableAlert[]): Promise<void>;
  /**
   * Webhook calls that got an answer (its `alertmanager_notification_latency_seconds`
   * count: observed when the receiver replied, whatever the status). A test waits for
   * this to grow before asserting that a notification changed nothing.
   */
  webhookCallsAnswered(): Promise<number>;
  /** Stops it (SIGTERM) and removes its directory. */
  close(): Promise<void>;
}

/** An alert as `POST /api/v2/alerts` takes it. */
export interface PostableAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  /** Set in the past to resolve the alert. */
  endsAt?: string;
  generatorURL?: string;
}

export interface AlertmanagerOptions {
  /** The app's webhook URL, e.g. http://127.0.0.1:PORT/alerts/alertmanager. */
  webhookUrl: string;
  token: string;
  groupBy?: string[];
  groupWait?: string;
  groupInterval?: string;
  repeatInterval?: string;
  sendResolved?: boolean;
  /** Where candidate ports come from (the helper's own test hands out a taken one). */
  pickPort?: () => Promise<number>;
}

const BINARY = 'prometheus-alertmanager';

/**
 * Whether the Alertmanager tests can run: under CI a missing binary fails the file at
 * import; locally they are skipped with the reason. Nothing is installed from a test.
 */
export const alertmanagerAvailable = (): boolean =>
  requireBinary(BINARY, 'apt-get install prometheus-alertmanager');

/** How many fresh ports to try when the one picked was taken before Alertmanager bound it. */
const BIND_ATTEMPTS = 5;

/**
 * Starts Alertmanager on a free loopback port and waits until its API answers. As with
 * redis-server (support/redis.ts), a picked port can be taken before the bind: the
 * instance only counts as started when the one answering serves this call's receiver
 * name (a random suffix), and one that exited is retried on a fresh port.
 */
export async function startAlertmanager(options: AlertmanagerOptions): Promise<TestAlertmanager> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-alertmanager-'));
  const receiver = `rollout-doctor-${randomUUID().slice(0, 8)}`;
  const config = {
    route: {
      receiver,
      group_by: options.groupBy ?? ['alertname', 'namespace'],
      group_wait: options.groupWait ?? '200ms',
      group_interval: options.groupInterval ?? '1s',
      repeat_interval: options.repeatInterval ?? '1h',
    },
    receivers: [
      {
        name: receiver,
        webhook_configs: [
          {
            url: options.webhookUrl,
            send_resolved: options.sendResolved ?? true,
            http_config: { authorization: { type: 'Bearer', credentials: options.token } },
          },
        ],
      },
    ],
  };
  const configFile = join(dir, 'alertmanager.yml');
  await writeFile(configFile, stringify(config));

  let child: ChildProcess | undefined;
  let stderr = '';
  const stopChild = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGTERM');
    });
  };
  const close = async (): Promise<void> => {
    await stopChild();
    await rm(dir, { recursive: true, force: true });
  };

  /** Spawns on `port`; 'ok' once our instance answers, 'retry' when the port was not ours. */
  const launch = async (port: number): Promise<'ok' | 'retry'> => {
    const spawned = spawn(
      BINARY,
      [
        `--config.file=${configFile}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
        '--cluster.listen-address=',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = spawned;
    stderr = '';
    spawned.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
    });
    const deadline = Date.now() + SIGNAL_WAIT_MS;
    for (;;) {
      if (spawned.exitCode !== null) {
        child = undefined;
        if (/address already in use/.test(stderr)) return 'retry';
        throw new Error(`alertmanager exited (${spawned.exitCode}): ${stderr}`);
      }
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/v2/status`);
        if (res.ok) {
          if ((await res.text()).includes(receiver)) return 'ok';
          await stopChild(); // another instance holds the port
          return 'retry';
        }
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`alertmanager not ready on port ${port}: ${stderr}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };

  let url = '';
  try {
    for (let attempt = 1; ; attempt++) {
      const port = await (options.pickPort ?? freePort)();
      if ((await launch(port)) === 'ok') {
        url = `http://127.0.0.1:${port}`;
        break;
      }
      if (attempt >= BIND_ATTEMPTS)
        throw new Error(`alertmanager could not bind a free port in ${BIND_ATTEMPTS} attempts`);
    }
  } catch (error) {
    await close();
    throw error;
  }

  return {
    url,
    async postAlerts(alerts) {
      const res = await fetch(`${url}/api/v2/alerts`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(alerts),
      });
      if (!res.ok) throw new Error(`alertmanager refused alerts: ${res.status} ${await res.text()}`);
    },
    async webhookCallsAnswered() {
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const line = /^alertmanager_notification_latency_seconds_count\{integration="webhook"\} (\d+)$/m.exec(
        metrics,
      );
      return Number(line?.[1] ?? 0);
    },
    close,
  };
}
