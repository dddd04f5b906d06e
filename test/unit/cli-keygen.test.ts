import { generatePlanKeys, keyPairProblems } from '../../src/trust/keygen.js';
import { describe, expect, it } from 'vitest';
import { runCli, usage } from '../../src/cli/run-cli.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { loadWorkerConfig } from '../../src/config/worker-environment.js';
import { fakeIo } from '../support/cli-io.js';

function envLines(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .filter((l) => /^[A-Z_]+=/.test(l))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

describe('rollout-doctor keygen', () => {
  it('prints keys the app and a worker start with, each side only its own', async () => {
    const run = fakeIo();
    expect(
      await runCli(
        ['keygen', '--seal-id', 's-2026', '--approval-id', 'a-2026', '--notify-id', 'n-2026'],
        run.io,
      ),
    ).toBe(0);
    const env = envLines(run.stdout());
    expect(Object.keys(env).sort()).toEqual([
      'ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS',
      'ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY',
      'ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS',
      'ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY',
      'ROLLOUT_DOCTOR_PLAN_SEAL_KEY',
    ]);
    const app = loadAppConfig({
      SLACK_BOT_TOKEN: 'xoxb-1',
      SLACK_SIGNING_SECRET: 's',
      ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY: env.ROLLOUT_DOCTOR_APPROVAL_SIGNING_KEY,
      ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS: env.ROLLOUT_DOCTOR_NOTIFY_PUBLIC_KEYS,
    });
    const worker = loadWorkerConfig({
      ROLLOUT_DOCTOR_PLAN_SEAL_KEY: env.ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
      ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS: env.ROLLOUT_DOCTOR_APPROVAL_PUBLIC_KEYS,
      ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY: env.ROLLOUT_DOCTOR_NOTIFY_SIGNING_KEY,
    });
    expect(app.approvalSigningKey.keyId).toBe('a-2026');
    expect(worker.planSealKeys.current.id).toBe('s-2026');
    expect(worker.approvalPublicKeys.has('a-2026')).toBe(true);
    expect(worker.notifySigningKey.keyId).toBe('n-2026');
    expect(keyPairProblems(app, worker)).toEqual([]);
  });

  it('makes new keys every time', async () => {
    const [a, b] = [fakeIo(), fakeIo()];
    await runCli(['keygen'], a.io);
    await runCli(['keygen'], b.io);
    expect(envLines(a.stdout()).ROLLOUT_DOCTOR_PLAN_SEAL_KEY).not.toBe(
      envLines(b.stdout()).ROLLOUT_DOCTOR_PLAN_SEAL_KEY,
    );
  });

  it('refuses a bad key id or stray arguments with exit 2', async () => {
    const bad = fakeIo();
    expect(await runCli(['keygen', '--seal-id', 'has space'], bad.io)).toBe(2);
    expect(bad.stderr()).toMatch(/key id "has space"/);
    expect(bad.stdout()).toBe('');
    expect(await runCli(['keygen', 'extra'], fakeIo().io)).toBe(2);
  });

  it('its help and the command list count and name every key it prints (issue 55: they said two kinds of five)', async () => {
    const keys = Object.keys(generatePlanKeys({ seal: 's', approval: 'a', notify: 'n' }));
    const help = fakeIo();
    expect(await runCli(['keygen', '--help'], help.io)).toBe(0);
    expect(help.stdout()).toContain(`Prints ${keys.length} new keys`);
    for (const key of keys) expect(help.stdout()).toContain(`  ${key} `);
    expect(usage()).toMatch(new RegExp(`keygen +print the ${keys.length} keys `));
  });
});
