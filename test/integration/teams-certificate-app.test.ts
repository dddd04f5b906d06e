/**
 * The real app runtime with a certificate instead of a client secret
 * (TEAMS_CERTIFICATE_FILE, TEAMS_CERTIFICATE_KEY_FILE): the app registration at the
 * Teams stand-in has the certificate and no secret, a command is announced in its
 * thread (the bot's token came from a client assertion), and the logs name the
 * certificate by thumbprint and say it expires soon, never holding the key.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppRuntime, type AppRuntime } from '../../src/app/runtime.js';
import { loadAppConfig } from '../../src/config/app-environment.js';
import { createLogger } from '../../src/logger.js';
import { testKeys } from '../support/plan-keys.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { startTeamsStandin, type Person, type TeamsStandin } from '../support/teams-standin.js';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.js';

const CHANNEL = '19:ops@thread.tacv2';
const reader: Person = { id: '29:reader', name: 'Reader', aadObjectId: randomUUID() };

let redis: TestRedis;
let teams: TeamsStandin;
let app: AppRuntime;
let dir: string;
let certificate: TestCertificate;
const lines: string[] = [];

beforeAll(async () => {
  redis = await startRedis();
  // Seven days left: the app warns that it should be rotated.
  certificate = makeTestCertificate({ validTo: new Date(Date.now() + 7 * 24 * 3600_000) });
  teams = await startTeamsStandin({ appPassword: null, certificates: [certificate.certificatePem] });
  dir = mkdtempSync(join(tmpdir(), 'teams-cert-app-'));
  writeFileSync(join(dir, 'tls.crt'), certificate.certificatePem);
  writeFileSync(join(dir, 'tls.key'), certificate.keyPem);
  const env = {
    ...testKeys.appEnv,
    REDIS_URL: redis.url,
    ROLLOUT_DOCTOR_READERS: reader.aadObjectId,
    TEAMS_APP_ID: teams.appId,
    TEAMS_CERTIFICATE_FILE: join(dir, 'tls.crt'),
    TEAMS_CERTIFICATE_KEY_FILE: join(dir, 'tls.key'),
    TEAMS_TENANT_ID: teams.tenantId,
    TEAMS_OPENID_METADATA_URL: teams.openIdMetadataUrl,
    TEAMS_TOKEN_URL: teams.tokenUrl,
    TEAMS_SERVICE_URL: teams.serviceUrl,
    TEAMS_SERVICE_URL_HOSTS: new URL(teams.serviceUrl).host,
  };
  const logger = createLogger(
    { level: 'debug', name: 'teams-cert' },
    { write: (line: string) => lines.push(line) },
  );
  app = await startAppRuntime(loadAppConfig(env), logger, { host: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await app?.stop();
  await teams?.close();
  await redis?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a Teams install with a certificate credential', () => {
  it('announces a command with a token got by client assertion', async () => {
    const thread = `${CHANNEL};messageid=1700000000001`;
    const message = teams.message({
      text: 'diagnose deployment/web -n shop',
      from: reader,
      conversationId: thread,
    });
    expect((await teams.send(`${app.handle.url}/api/messages`, message)).status).toBe(200);
    await teams.waitFor((s) => s.posted(thread)[0]);
    expect(teams.tokenRequests.map((r) => [r.credential, r.accepted])).toEqual([['assertion', true]]);
  });

  it('logs the certificate by thumbprint, warns that it expires soon, and never logs the key', () => {
    const thumbprint = certificate.x509.fingerprint.replaceAll(':', '');
    const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'info', msg: 'teams certificate loaded', thumbprint }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({
        level: 'warn',
        msg: 'teams certificate expires within 14 days: rotate it',
        thumbprint,
      }),
    );
    const all = lines.join('\n');
    const keyBody = certificate.keyPem.split('\n').slice(1, 3).join('');
    expect(all).not.toContain('PRIVATE KEY');
    expect(all).not.toContain(keyBody.slice(0, 40));
    expect(all).not.toContain(String(teams.tokenRequests[0]?.claims?.jti));
  });
});
