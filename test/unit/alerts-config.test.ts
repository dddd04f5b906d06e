/**
 * Early-warning settings: the quick start (an alert channel, no Alertmanager token)
 * is accepted and gets incident threads; settings that cannot work together are
 * refused at start with a message naming the variables.
 */
import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createAppAlerts } from '../../src/app/alerts/app-intake.js';
import { ConfigError } from '../../src/config/environment.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import type { PlanStore } from '../../src/queue/plan-store.js';
import type { Producers } from '../../src/queue/producers.js';
import { testKeys } from '../support/plan-keys.js';

const app = { ...testKeys.appEnv, SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
const worker = { ...testKeys.workerEnv };

function problems(load: () => unknown): string[] {
  try {
    load();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

function alertsOf(env: Record<string, string>) {
  return createAppAlerts({
    config: loadAppConfig({ ...app, ...env }),
    // Never called while wiring: no thread is opened here.
    producers: {} as Producers,
    redis: {} as Redis,
    plans: {} as PlanStore,
    allows: () => true,
    chats: () => ({}),
    logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined },
  });
}

describe('early-warning configuration', () => {
  it('gives an app with an alert channel and no ALERTMANAGER_TOKEN its incident threads (no alert route)', () => {
    const quickStart = alertsOf({ ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0INCIDENT' });
    expect(quickStart.hooks).toBeDefined();
    expect(quickStart.routes).toEqual([]);
    const withAlertmanager = alertsOf({
      ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0INCIDENT',
      ALERTMANAGER_TOKEN: 'tok',
    });
    expect(withAlertmanager.hooks).toBeDefined();
    expect(withAlertmanager.routes).toHaveLength(1);
    expect(alertsOf({}).hooks).toBeUndefined();
  });

  it('refuses alert routes without the alert channel, naming both', () => {
    expect(problems(() => loadAppConfig({ ...app, ROLLOUT_DOCTOR_ALERT_ROUTES: 'shop=C0SHOP' }))).toEqual([
      expect.stringMatching(/^ROLLOUT_DOCTOR_ALERT_ROUTES needs ROLLOUT_DOCTOR_ALERT_CHANNEL/),
    ]);
  });

  it('refuses an alert map without the Alertmanager token that would bring alerts', () => {
    expect(problems(() => loadAppConfig({ ...app, ROLLOUT_DOCTOR_ALERT_MAP: 'MyStuck=deployment' }))).toEqual(
      [
        expect.stringMatching(
          /^ROLLOUT_DOCTOR_ALERT_MAP maps Alertmanager alerts and needs ALERTMANAGER_TOKEN/,
        ),
      ],
    );
    expect(
      problems(() =>
        loadAppConfig({
          ...app,
          ROLLOUT_DOCTOR_ALERT_MAP: 'MyStuck=deployment',
          ALERTMANAGER_TOKEN: 'tok',
          ROLLOUT_DOCTOR_ALERT_CHANNEL: 'C0INCIDENT',
        }),
      ),
    ).toEqual([]);
  });

  it('refuses /metrics on the public port', () => {
    expect(problems(() => loadAppConfig({ ...app, PORT: '3000', METRICS_PORT: '3000' }))).toEqual([
      expect.stringMatching(/^METRICS_PORT and PORT are both 3000/),
    ]);
    expect(problems(() => loadAppConfig({ ...app, PORT: '3000', METRICS_PORT: '9464' }))).toEqual([]);
  });

  it('reads the watch settings of a worker; `*` watches every namespace and stands alone', () => {
    const config = loadWorkerConfig({
      ...worker,
      ROLLOUT_DOCTOR_WATCH_NAMESPACES: 'vision, shop',
      ROLLOUT_DOCTOR_WATCH_DEBOUNCE_MS: '250',
      ROLLOUT_DOCTOR_HEALTH_PORT: '9465',
    });
    expect(config.watch).toMatchObject({
      namespaces: ['vision', 'shop'],
      debounceMs: 250,
      intervalMs: 300_000,
    });
    expect(config.healthPort).toBe(9465);
    expect(loadWorkerConfig({ ...worker }).healthPort).toBeUndefined();
    expect(loadWorkerConfig({ ...worker, ROLLOUT_DOCTOR_WATCH_NAMESPACES: '*' }).watch.namespaces).toEqual([
      '*',
    ]);
    expect(
      problems(() => loadWorkerConfig({ ...worker, ROLLOUT_DOCTOR_WATCH_NAMESPACES: '*,shop' })),
    ).toEqual([
      expect.stringMatching(
        /^ROLLOUT_DOCTOR_WATCH_NAMESPACES `\*` watches every namespace and cannot be combined/,
      ),
    ]);
    expect(problems(() => loadWorkerConfig({ ...worker, ROLLOUT_DOCTOR_HEALTH_PORT: '0' }))).toEqual([
      expect.stringMatching(/^ROLLOUT_DOCTOR_HEALTH_PORT/),
    ]);
  });
});
