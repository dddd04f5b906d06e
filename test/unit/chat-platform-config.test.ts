/**
 * One install serves Slack, Microsoft Teams or both (src/config/slack.ts, teams.ts):
 * the app's configuration with each set of chat settings, and the errors that name
 * what is missing when a set is incomplete or there is none.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/environment.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { testKeys } from '../support/plan-keys.js';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.js';

const SLACK = { SLACK_BOT_TOKEN: 'xoxb-1', SLACK_SIGNING_SECRET: 's' };
const TEAMS = {
  TEAMS_APP_ID: '00000000-0000-4000-8000-000000000001',
  TEAMS_APP_PASSWORD: 'pw',
  TEAMS_TENANT_ID: '00000000-0000-4000-8000-0000000000AA',
};

/** The problems loadAppConfig names, one per line. */
function problems(env: Record<string, string>): string[] {
  try {
    loadAppConfig({ ...testKeys.appEnv, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  return [];
}

describe('chat platforms in the app configuration', () => {
  it('Slack only: Slack settings, Teams off', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...SLACK });
    expect(c.slack).toMatchObject({ botToken: 'xoxb-1', signingSecret: 's' });
    expect(c.teams).toBeUndefined();
    expect(c.mode).toBe('http');
  });

  it('Teams only: no Slack variable at all, Slack off', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...TEAMS });
    expect(c.slack).toBeUndefined();
    expect(c.teams).toMatchObject({
      appId: TEAMS.TEAMS_APP_ID,
      tenantId: TEAMS.TEAMS_TENANT_ID.toLowerCase(),
    });
    // Empty values (a chart or .env with the Slack keys left blank) are the same as unset.
    const blank = loadAppConfig({
      ...testKeys.appEnv,
      ...TEAMS,
      SLACK_BOT_TOKEN: '',
      SLACK_SIGNING_SECRET: ' ',
      SLACK_APP_TOKEN: '',
    });
    expect(blank.slack).toBeUndefined();
  });

  it('both: each its own settings', () => {
    const c = loadAppConfig({ ...testKeys.appEnv, ...SLACK, ...TEAMS, SLACK_APP_TOKEN: 'xapp-1' });
    expect(c.slack?.appToken).toBe('xapp-1');
    expect(c.mode).toBe('socket');
    expect(c.teams?.appId).toBe(TEAMS.TEAMS_APP_ID);
  });

  it('neither: one error naming the variables of each platform', () => {
    expect(problems({})).toEqual([
      expect.stringMatching(
        /^no chat platform is configured: set SLACK_BOT_TOKEN .*SLACK_SIGNING_SECRET .*TEAMS_APP_ID .*TEAMS_APP_PASSWORD .*TEAMS_TENANT_ID/,
      ),
    ]);
  });

  it('an incomplete set names what is missing', () => {
    expect(problems({ SLACK_SIGNING_SECRET: 's', ...TEAMS })).toEqual([
      'SLACK_BOT_TOKEN is required when SLACK_SIGNING_SECRET is set',
    ]);
    expect(problems({ SLACK_BOT_TOKEN: 'xoxb-1' })).toEqual([
      'SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
    expect(problems({ TEAMS_APP_ID: TEAMS.TEAMS_APP_ID })).toEqual([
      expect.stringMatching(
        /^TEAMS_APP_PASSWORD or TEAMS_CERTIFICATE_FILE is required when TEAMS_APP_ID is set/,
      ),
      expect.stringMatching(/^TEAMS_TENANT_ID is required when TEAMS_APP_ID is set/),
    ]);
    expect(problems({ ...SLACK, TEAMS_TENANT_ID: TEAMS.TEAMS_TENANT_ID })).toEqual([
      'TEAMS_APP_ID is required when TEAMS_TENANT_ID is set',
    ]);
    expect(problems({ ...TEAMS, SLACK_BOT_TOKEN: 'xoxp-user' })).toEqual([
      'SLACK_BOT_TOKEN must be a bot token (xoxb-…)',
      'SLACK_SIGNING_SECRET is required in HTTP mode (or set SLACK_APP_TOKEN for Socket Mode)',
    ]);
  });
});

describe('the Teams credential: a client secret or a certificate, exactly one', () => {
  let dir: string;
  let bot: TestCertificate;
  let other: TestCertificate;
  const path = (name: string, text: string): string => {
    const p = join(dir, name);
    writeFileSync(p, text);
    return p;
  };
  const { TEAMS_APP_PASSWORD: _secret, ...TEAMS_ID } = TEAMS;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'teams-cert-config-'));
    bot = makeTestCertificate();
    other = makeTestCertificate();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a certificate and key file: the credential names them and holds no secret', () => {
    const certificateFile = path('bot.crt', bot.certificatePem);
    const keyFile = path('bot.key', bot.keyPem);
    const c = loadAppConfig({
      ...testKeys.appEnv,
      ...TEAMS_ID,
      TEAMS_CERTIFICATE_FILE: certificateFile,
      TEAMS_CERTIFICATE_KEY_FILE: keyFile,
      TEAMS_APP_PASSWORD: '',
    });
    expect(c.teams?.credential).toEqual({ kind: 'certificate', certificateFile, keyFile });
    expect(JSON.stringify(c.teams)).not.toContain('PRIVATE KEY');
  });

  it('one PEM holding key and certificate (as Key Vault exports it) needs no key file', () => {
    const both = path('both.pem', `${bot.keyPem}${other.certificatePem}${bot.certificatePem}`);
    const c = loadAppConfig({ ...testKeys.appEnv, ...TEAMS_ID, TEAMS_CERTIFICATE_FILE: both });
    expect(c.teams?.credential).toEqual({ kind: 'certificate', certificateFile: both, keyFile: both });
  });

  it('a secret only: the credential is the secret', () => {
    expect(loadAppConfig({ ...testKeys.appEnv, ...TEAMS }).teams?.credential).toEqual({
      kind: 'secret',
      appPassword: 'pw',
    });
  });

  it('both, neither, or a key without its certificate: one clear error each', () => {
    const certificateFile = path('bot.crt', bot.certificatePem);
    const keyFile = path('bot.key', bot.keyPem);
    expect(
      problems({ ...TEAMS, TEAMS_CERTIFICATE_FILE: certificateFile, TEAMS_CERTIFICATE_KEY_FILE: keyFile }),
    ).toEqual([
      'TEAMS_APP_PASSWORD and TEAMS_CERTIFICATE_FILE are both set: the bot uses one credential, its client secret or its certificate; unset the other',
    ]);
    expect(problems({ ...TEAMS_ID })).toEqual([
      'TEAMS_APP_PASSWORD or TEAMS_CERTIFICATE_FILE is required when TEAMS_APP_ID is set (the bot’s client secret, or its certificate with TEAMS_CERTIFICATE_KEY_FILE)',
    ]);
    expect(problems({ ...TEAMS, TEAMS_CERTIFICATE_KEY_FILE: keyFile })).toEqual([
      'TEAMS_CERTIFICATE_FILE is required when TEAMS_CERTIFICATE_KEY_FILE is set (the certificate of that key)',
    ]);
    expect(problems({ ...SLACK, TEAMS_CERTIFICATE_FILE: certificateFile })).toEqual([
      'TEAMS_APP_ID is required when TEAMS_CERTIFICATE_FILE is set',
    ]);
  });

  it('unusable files are refused at start, and no message holds key material', () => {
    const certificateFile = path('bot.crt', bot.certificatePem);
    const encrypted = path(
      'enc.key',
      other.privateKey
        .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'p' })
        .toString(),
    );
    const ec = path('ec.key', makeEcKeyPem());
    const cases: [Record<string, string>, RegExp][] = [
      [
        { TEAMS_CERTIFICATE_FILE: join(dir, 'absent.crt') },
        /^TEAMS_CERTIFICATE_FILE: cannot read .*absent\.crt \(ENOENT\)$/,
      ],
      [
        { TEAMS_CERTIFICATE_FILE: certificateFile, TEAMS_CERTIFICATE_KEY_FILE: path('o.key', other.keyPem) },
        /^TEAMS_CERTIFICATE_KEY_FILE: the private key belongs to no certificate in TEAMS_CERTIFICATE_FILE/,
      ],
      [{ TEAMS_CERTIFICATE_FILE: certificateFile }, /^TEAMS_CERTIFICATE_KEY_FILE holds no PEM private key$/],
      [
        {
          TEAMS_CERTIFICATE_FILE: path('k.pem', bot.keyPem),
          TEAMS_CERTIFICATE_KEY_FILE: path('k2.pem', bot.keyPem),
        },
        /^TEAMS_CERTIFICATE_FILE holds no PEM certificate$/,
      ],
      [
        { TEAMS_CERTIFICATE_FILE: certificateFile, TEAMS_CERTIFICATE_KEY_FILE: encrypted },
        /^TEAMS_CERTIFICATE_KEY_FILE: the private key is encrypted/,
      ],
      [
        { TEAMS_CERTIFICATE_FILE: certificateFile, TEAMS_CERTIFICATE_KEY_FILE: ec },
        /^TEAMS_CERTIFICATE_KEY_FILE: the private key is ec; Entra certificate credentials are RSA$/,
      ],
      [
        {
          TEAMS_CERTIFICATE_FILE: certificateFile,
          TEAMS_CERTIFICATE_KEY_FILE: path(
            'bad.key',
            bot.keyPem.replace(/\n[A-Za-z0-9+/]{10}/, '\n!!!!!!!!!!'),
          ),
        },
        /^TEAMS_CERTIFICATE_KEY_FILE: the private key cannot be read/,
      ],
    ];
    for (const [env, expected] of cases) {
      const found = problems({ ...TEAMS_ID, ...env });
      expect(found).toEqual([expect.stringMatching(expected)]);
      expect(found.join('\n')).not.toMatch(/PRIVATE KEY|MII/);
    }
  });
});

function makeEcKeyPem(): string {
  return generateKeyPairSync('ec', { namedCurve: 'P-256' })
    .privateKey.export({ type: 'pkcs8', format: 'pem' })
    .toString();
}
