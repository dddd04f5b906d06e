import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from './redis.js';
import { requireBinary } from './tools.js';

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
}

const BINARY = 'prometheus-alertmanager';

/**
 * Whether the Alertmanager tests can run: under CI a missing binary fails the file at
 * import; locally they are skipped with the reason. Nothing is installed from a test.
 */
export const alertmanagerAvailable = (): boolean =>
  requireBinary(BINARY, 'apt-get install prometheus-alertmanager');

/** Starts Alertmanager on a free loopback port and waits until its API answers. */
export async function startAlertmanager(options: AlertmanagerOptions): Promise<TestAlertmanager> {
  const dir = await mkdtemp(join(tmpdir(), 'rd-alertmanager-'));
  const port = await freePort();
  const config = {
    route: {
      receiver: 'rollout-doctor',
      group_by: options.groupBy ?? ['alertname', 'namespace'],
      group_wait: options.groupWait ?? '200ms',
      group_interval: options.groupInterval ?? '1s',
      repeat_interval: options.repeatInterval ?? '1h',
    },
    receivers: [
      {
        name: 'rollout-doctor',
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
  const child: ChildProcess = spawn(
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
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-4_000);
  });
  const url = `http://127.0.0.1:${port}`;

  const close = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    await rm(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) {
      await close();
      throw new Error(`alertmanager exited (${child.exitCode}): ${stderr}`);
    }
    try {
      const res = await fetch(`${url}/-/ready`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`alertmanager not ready on ${url}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 50));
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
