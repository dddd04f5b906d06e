/**
 * The Alertmanager helper must never hand a test another file's instance: a port
 * that was free when picked can be taken before Alertmanager binds it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { alertmanagerAvailable, startAlertmanager, type TestAlertmanager } from '../support/alertmanager.js';
import { freePort } from '../support/redis.js';

const AVAILABLE = alertmanagerAvailable();
const started: TestAlertmanager[] = [];
afterAll(async () => {
  await Promise.all(started.map((a) => a.close()));
});

describe.runIf(AVAILABLE)('startAlertmanager', () => {
  it('moves to a fresh port when the picked one is held by another instance', async () => {
    const options = { webhookUrl: 'http://127.0.0.1:9/alerts', token: 't' };
    const first = await startAlertmanager(options);
    started.push(first);
    const taken = [Number(new URL(first.url).port)];
    const second = await startAlertmanager({ ...options, pickPort: async () => taken.shift() ?? freePort() });
    started.push(second);
    expect(second.url).not.toBe(first.url);
  });
});
