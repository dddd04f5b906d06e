/**
 * Early warning end to end, configured as the README's quick start says: the app
 * with an alert channel and NO Alertmanager token, a worker watching the namespace.
 * A rollout starts on the simulator (the image is patched) into the seed incidents;
 * the incident thread must appear on the Slack stand-in, found by the worker's watch
 * of the API server (the periodic scan is set to an hour and ran before the rollout).
 * App, workers (real Kubernetes wiring), Redis and the simulator are real.
 */
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Deployment } from '../../src/diagnosis/k8s-workloads.js';
import {
  E2E_CHANNEL,
  deployment,
  livePods,
  startE2e,
  type E2eHarness,
  type StoredMessage,
} from '../support/e2e-harness.js';
import { SIGNAL_WAIT_MS } from '../support/timeouts.js';

const harnesses: E2eHarness[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const h of harnesses) await h.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** App as the quick start configures it (an alert channel, no ALERTMANAGER_TOKEN), worker watching `namespace`. */
async function quickStart(scenario: string, namespace: string): Promise<E2eHarness> {
  const h = await startE2e({
    scenario,
    appEnv: { ROLLOUT_DOCTOR_ALERT_CHANNEL: E2E_CHANNEL, ALERTMANAGER_TOKEN: '' },
    workerEnv: {
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: namespace,
      // The safety-net scan runs once at start (before the rollout), then not for an hour.
      ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
      ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: '200',
    },
  });
  harnesses.push(h);
  expect(h.app.services.config.alertmanagerToken).toBeUndefined();
  // The watch holds its two streams (pods and warning events) before the rollout starts.
  await h.slack.waitFor(
    () => (h.workers.earlyWarning?.stats().watchesHeld ?? 0) >= 2 || undefined,
    SIGNAL_WAIT_MS,
  );
  return h;
}

function setImage(h: E2eHarness, namespace: string, name: string, image: string): void {
  const d: Deployment = deployment(h, namespace, name);
  const container = d.spec.template.spec.containers[0];
  if (!container) throw new Error(`${name} has no container`);
  container.image = image;
  h.sim.apply(d);
}

/** The early-warning root message in the alert channel, and the diagnosis in its thread. */
async function waitForThread(
  h: E2eHarness,
  code: string,
  target: string,
): Promise<{ root: StoredMessage; reply: StoredMessage }> {
  const root = await h.slack.waitFor(
    () =>
      [...h.slack.messages.values()].find(
        (m) =>
          m.channel === E2E_CHANNEL &&
          m.threadTs === undefined &&
          m.text.startsWith(`Early warning: ${code} on ${target}`),
      ),
    SIGNAL_WAIT_MS,
  );
  const reply = await h.slack.waitFor(
    () => [...h.slack.messages.values()].find((m) => m.threadTs === root.ts),
    SIGNAL_WAIT_MS,
  );
  return { root, reply };
}

describe('early warning without Alertmanager, from the rollout to the Slack thread', () => {
  it('surge deadlock: patching the image opens one incident thread with the diagnosis', async () => {
    const h = await quickStart('sim/scenarios/gpu-deadlock.yaml', 'vision');
    await h.sim.settle();
    await h.sim.waitFor(
      () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
    );
    const requestsBefore = h.sim.requests.length;
    const patchedAt = Date.now();
    setImage(h, 'vision', 'vision-object-tracker', 'vision/boost-track-app:1.1');
    const { root, reply } = await waitForThread(
      h,
      'RolloutSurgeDeadlock',
      'vision/deployment/vision-object-tracker',
    );
    const ms = Date.now() - patchedAt;
    expect(reply.text).toContain('vision-object-tracker');
    // One thread per workload however many FailedScheduling repeats follow.
    await h.sim.waitFor(
      () =>
        (h.sim.list('Event', 'vision') as { reason?: string; count?: number }[]).some(
          (e) => e.reason === 'FailedScheduling' && (e.count ?? 1) >= 2,
        ),
      SIGNAL_WAIT_MS,
    );
    const roots = [...h.slack.messages.values()].filter(
      (m) => m.threadTs === undefined && m.text.startsWith('Early warning:'),
    );
    expect(roots.map((m) => m.ts)).toEqual([root.ts]);
    // Found by the watch: the periodic scan ran before the rollout only.
    expect(h.workers.earlyWarning?.stats().queued).toBeGreaterThanOrEqual(1);
    expect(h.logs.some((l) => l.includes('early warning queued from the watch'))).toBe(true);
    console.info(
      `early-warning e2e: deadlock thread ${ms} ms after the image patch; ${h.sim.requests.length - requestsBefore} API requests`,
    );
  });

  it('crash loop on one node: a rollout to an image that crashes on node-b opens the CrashLoopOnNode thread', async () => {
    // The seed's crash rule, narrowed to the new version: 2.4.1 runs everywhere, 2.5.x crashes on node-b.
    const dir = mkdtempSync(join(tmpdir(), 'rd-ew-e2e-'));
    dirs.push(dir);
    const scenario = join(dir, 'crashloop-rollout.yaml');
    const text = readFileSync('sim/scenarios/crashloop-node.yaml', 'utf8');
    expect(text).toContain('      image: shop/checkout\n');
    writeFileSync(scenario, text.replace('      image: shop/checkout\n', '      image: shop/checkout:2.5\n'));
    const h = await quickStart(scenario, 'shop');
    await h.sim.settle();
    await h.sim.waitFor(() => (deployment(h, 'shop', 'checkout').status?.availableReplicas ?? 0) === 3);
    setImage(h, 'shop', 'checkout', 'shop/checkout:2.5.0');
    await h.sim.waitFor(
      () =>
        livePods(h, 'shop').some(
          (p) => p.spec.nodeName === 'node-b' && (p.status?.containerStatuses?.[0]?.restartCount ?? 0) >= 1,
        ),
      SIGNAL_WAIT_MS,
    );
    const firstCrashAt = Date.now();
    const { reply } = await waitForThread(h, 'CrashLoopOnNode', 'shop/deployment/checkout');
    expect(reply.text).toContain('node-b');
    console.info(
      `early-warning e2e: crash-loop thread ${Date.now() - firstCrashAt} ms after the first crash`,
    );
  });

  it('an app without an alert channel says so, at start and for each early-warning result it cannot post', async () => {
    const h = await startE2e({
      scenario: 'sim/scenarios/gpu-deadlock.yaml',
      workerEnv: {
        ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'vision',
        ROLLOUT_DOCTOR_WATCH_INTERVAL_SECONDS: '3600',
        ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: '200',
      },
    });
    harnesses.push(h);
    expect(
      h.logs.some((l) => l.includes('ROLLOUT_DOCTOR_ALERT_CHANNEL is not set: early-warning results')),
    ).toBe(true);
    await h.slack.waitFor(
      () => (h.workers.earlyWarning?.stats().watchesHeld ?? 0) >= 2 || undefined,
      SIGNAL_WAIT_MS,
    );
    await h.sim.settle();
    await h.sim.waitFor(
      () => (deployment(h, 'vision', 'vision-object-tracker').status?.availableReplicas ?? 0) === 1,
    );
    setImage(h, 'vision', 'vision-object-tracker', 'vision/boost-track-app:1.1');
    await h.slack.waitFor(
      () =>
        h.logs.find((l) =>
          l.includes('early-warning result not posted: ROLLOUT_DOCTOR_ALERT_CHANNEL is not set on the app'),
        ),
      SIGNAL_WAIT_MS,
    );
    expect(h.slack.callsOf('chat.postMessage')).toEqual([]);
  });
});
