/**
 * The whole alert path with nothing faked but Slack: the real Alertmanager posts to
 * the real app, the real worker resolves the crashing pod to its Deployment on the
 * simulated cluster (seed incident B: checkout crash-loops on one node), diagnoses it,
 * and the diagnosis with its buttons lands in the alert's thread on the stand-in.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSimulator, type Simulator } from '../../sim/index.js';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { createKubeClient } from '../../src/kube/client.js';
import { createLogger } from '../../src/logger.js';
import { kubeClusterDeps } from '../../src/worker/kube-deps.js';
import { startWorkers, type WorkerRuntime } from '../../src/worker/runtime.js';
import { alertmanagerAvailable, startAlertmanager, type TestAlertmanager } from '../support/alertmanager.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startSlackStandin, type SlackStandin } from '../support/slack-standin.js';
import { testKeys } from '../support/plan-keys.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const TOKEN = 'live-alertmanager-token';
const CHANNEL = 'C0LIVE';

let dir: string;
let sim: Simulator;
let redis: TestRedis;
let slack: SlackStandin;
let app: AppRuntime;
let workers: WorkerRuntime;
let alertmanager: TestAlertmanager;

// Throws under CI when the binary is missing; locally the file is skipped, said why.
const AVAILABLE = alertmanagerAvailable();

beforeAll(async () => {
  if (!AVAILABLE) return;
  dir = mkdtempSync(join(tmpdir(), 'alerts-live-'));
  sim = await startSimulator({
    scenario: 'sim/scenarios/crashloop-node.yaml',
    timeScale: 50,
    controllers: true,
  });
  const kubeconfig = join(dir, 'kubeconfig');
  writeFileSync(kubeconfig, sim.kubeconfig);
  redis = await startRedis();
  slack = await startSlackStandin({ botToken: 'xoxb-live' });
  const logger = createLogger({ level: 'silent', name: 'alerts-live' });
  app = await startAppRuntime(
    loadAppConfig({
      ...testKeys.appEnv,
      // Anyone may diagnose: these tests are not about the read policy (test/hostile/slack-permissions.test.ts is).
      ROLLOUT_DOCTOR_READERS: '*',
      SLACK_BOT_TOKEN: 'xoxb-live',
      SLACK_SIGNING_SECRET: 'live-secret',
      SLACK_API_URL: slack.apiUrl,
      REDIS_URL: redis.url,
      ALERTMANAGER_TOKEN: TOKEN,
      ROLLOUT_DOCTOR_ALERT_CHANNEL: CHANNEL,
    }),
    logger,
    { host: '127.0.0.1', port: 0 },
  );
  const client = createKubeClient({ kubeconfig, retry: { attempts: 2, baseMs: 5, maxMs: 10 } });
  workers = startWorkers(
    loadWorkerConfig({
      ...testKeys.workerEnv,
      REDIS_URL: redis.url,
      ROLLOUT_DOCTOR_DRAIN_GRACE_SECONDS: '2',
    }),
    logger,
    kubeClusterDeps(client, { rolloutTimeoutMs: 10_000 }),
  );
  alertmanager = await startAlertmanager({
    webhookUrl: `${app.handle.url}/alerts/alertmanager`,
    token: TOKEN,
  });
});

afterAll(async () => {
  await alertmanager?.close();
  await workers?.stop();
  await app?.stop();
  await slack?.close();
  await redis?.close();
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf(AVAILABLE)('KubePodCrashLooping on the simulated cluster', () => {
  it('opens a thread whose reply is the real diagnosis of the owning Deployment, with buttons', async () => {
    await sim.settle();
    type PodView = {
      metadata: { name: string };
      status?: { containerStatuses?: { restartCount: number }[] };
    };
    const crashingPod = (): PodView | undefined =>
      (sim.list('Pod', 'shop') as PodView[]).find(
        (p) => (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 2,
      );
    await sim.waitFor(() => crashingPod() !== undefined);
    const pod = crashingPod()?.metadata.name ?? '';
    expect(pod).not.toBe('');
    await alertmanager.postAlerts([
      {
        labels: {
          alertname: 'KubePodCrashLooping',
          namespace: 'shop',
          pod,
          container: 'checkout',
          severity: 'warning',
        },
        annotations: { summary: `Pod shop/${pod} is crash looping` },
      },
    ]);
    const root = await slack.waitFor(
      (s) => [...s.messages.values()].find((m) => m.channel === CHANNEL && m.threadTs === undefined),
      SIGNAL_WAIT_MS,
    );
    expect(root.text).toContain('KubePodCrashLooping on shop/deployment/checkout');
    const reply = await slack.waitFor(
      (s) =>
        [...s.messages.values()].find(
          (m) => m.threadTs === root.ts && JSON.stringify(m.blocks).includes('CrashLoopOnNode'),
        ),
      SIGNAL_WAIT_MS,
    );
    // The remediation buttons (exclude the bad node) come with it.
    expect(JSON.stringify(reply.blocks)).toContain('"type":"button"');
  });
});
