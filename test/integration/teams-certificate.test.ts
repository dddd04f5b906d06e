/**
 * The bot's certificate credential (src/chat/teams/certificate.ts, connector.ts): the
 * Bot Connector client gets its token from the Teams stand-in's Entra token endpoint
 * with a client assertion, and the stand-in checks it as Entra documents "certificate
 * credentials" (thumbprint header, signature with the registered certificate's key,
 * aud, iss/sub, jti, nbf/exp). An assertion with the wrong key, expired, or for another
 * audience is refused, and the connector posts nothing. The files are read again at
 * token refresh: a rotated certificate is used from the next token on.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  ASSERTION_LIFETIME_SECONDS,
  CLIENT_ASSERTION_TYPE,
  certificateSource,
  clientAssertion,
  parseCertificateCredential,
  type CertificateError,
  type CertificateSource,
} from '../../src/chat/teams/certificate.js';
import { botConnector, ConnectorError } from '../../src/chat/teams/connector.js';
import { makeTestCertificate, type TestCertificate } from '../support/test-certificate.js';
import { startTeamsStandin, type TeamsStandin } from '../support/teams-standin.js';

const CHANNEL = '19:alerts@thread.tacv2';
let bot: TestCertificate;
let other: TestCertificate;
let teams: TeamsStandin;
let dir: string;

beforeAll(() => {
  bot = makeTestCertificate({ cn: 'rollout-doctor bot' });
  other = makeTestCertificate({ cn: 'someone else' });
});

beforeEach(async () => {
  // The app registration has the bot's certificate and no client secret.
  teams = await startTeamsStandin({ appPassword: null, certificates: [bot.certificatePem] });
  dir = mkdtempSync(join(tmpdir(), 'teams-cert-'));
});
afterEach(async () => {
  await teams.close();
  rmSync(dir, { recursive: true, force: true });
});

function files(certificate: TestCertificate, name = 'bot'): { certificateFile: string; keyFile: string } {
  const certificateFile = join(dir, `${name}.crt`);
  const keyFile = join(dir, `${name}.key`);
  writeFileSync(certificateFile, certificate.certificatePem);
  writeFileSync(keyFile, certificate.keyPem);
  return { certificateFile, keyFile };
}

function connectorWith(certificate: CertificateSource, now?: () => number) {
  return botConnector({
    appId: teams.appId,
    certificate,
    tokenUrl: teams.tokenEndpoint,
    scope: 'https://api.botframework.com/.default',
    serviceUrlHosts: [new URL(teams.serviceUrl).host],
    ...(now ? { now } : {}),
  });
}

/** A source that hands out a fixed credential (to sign with a key that is not the certificate's). */
const fixed = (credential: ReturnType<typeof parseCertificateCredential>): CertificateSource => ({
  current: () => Promise.resolve(credential),
});

async function postToken(
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(teams.tokenEndpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('certificate credentials against the stand-in’s token endpoint', () => {
  it('a good assertion gets a token, and the connector posts with it', async () => {
    const connector = connectorWith(certificateSource(files(bot)));
    expect(await connector.send(teams.serviceUrl, CHANNEL, { type: 'message', text: 'hi' })).toEqual({
      id: expect.any(String),
    });
    expect(teams.tokenRequests).toHaveLength(1);
    const [request] = teams.tokenRequests;
    expect(request).toMatchObject({ credential: 'assertion', accepted: true });
    const credential = parseCertificateCredential(bot.certificatePem, bot.keyPem);
    expect(request?.header).toEqual({ alg: 'PS256', typ: 'JWT', 'x5t#S256': credential.thumbprintSha256 });
    const claims = request?.claims ?? {};
    expect(claims).toMatchObject({ aud: teams.tokenEndpoint, iss: teams.appId, sub: teams.appId });
    expect(claims.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(claims.exp) - Number(claims.nbf)).toBe(ASSERTION_LIFETIME_SECONDS);
    expect(Math.abs(Number(claims.nbf) - Date.now() / 1000)).toBeLessThan(5);
    expect(teams.posted(CHANNEL)).toHaveLength(1);
  });

  it('the x5t#S256 header is the SHA-256 of the certificate’s DER, base64url', () => {
    const credential = parseCertificateCredential(bot.certificatePem, bot.keyPem);
    const hex = bot.x509.fingerprint256.replaceAll(':', '');
    expect(Buffer.from(credential.thumbprintSha256, 'base64url').toString('hex').toUpperCase()).toBe(hex);
    expect(credential.thumbprintSha1).toBe(bot.x509.fingerprint.replaceAll(':', ''));
  });

  it('wrong key: the registered certificate’s thumbprint signed with another key is refused', async () => {
    const registered = parseCertificateCredential(bot.certificatePem, bot.keyPem);
    const forged = { ...registered, privateKey: other.privateKey };
    const connector = connectorWith(fixed(forged));
    const refused = await connector
      .send(teams.serviceUrl, CHANNEL, { type: 'message' })
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ConnectorError);
    expect((refused as ConnectorError).status).toBe(401);
    expect((refused as ConnectorError).code).toBe('token refused: invalid_client AADSTS700027');
    expect(teams.tokenRequests.map((r) => [r.accepted, r.reason])).toEqual([
      [false, expect.stringMatching(/signature does not verify/)],
    ]);
    expect(teams.calls).toEqual([]);
  });

  it('wrong key: a certificate the app registration does not hold is refused', async () => {
    const connector = connectorWith(certificateSource(files(other, 'other')));
    await expect(connector.send(teams.serviceUrl, CHANNEL, { type: 'message' })).rejects.toThrow(
      ConnectorError,
    );
    expect(teams.tokenRequests.map((r) => r.reason)).toEqual([expect.stringMatching(/key was not found/)]);
    expect(teams.calls).toEqual([]);
  });

  it('expired: an assertion whose exp has passed is refused', async () => {
    // The bot's clock an hour behind: its assertion expired 50 minutes ago.
    const connector = connectorWith(certificateSource(files(bot)), () => Date.now() - 3600_000);
    await expect(connector.send(teams.serviceUrl, CHANNEL, { type: 'message' })).rejects.toMatchObject({
      status: 401,
      code: 'token refused: invalid_client AADSTS700024',
    });
    expect(teams.tokenRequests.map((r) => r.reason)).toEqual([expect.stringMatching(/expired/)]);
    expect(teams.calls).toEqual([]);
  });

  it('wrong audience: an assertion made for another token endpoint is refused', async () => {
    const credential = parseCertificateCredential(bot.certificatePem, bot.keyPem);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const form = (assertion: string) => ({
      grant_type: 'client_credentials',
      client_id: teams.appId,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: assertion,
      scope: 'https://api.botframework.com/.default',
    });
    const elsewhere = 'https://login.microsoftonline.com/another-tenant/oauth2/v2.0/token';
    const refused = await postToken(
      form(await clientAssertion(credential, { appId: teams.appId, tokenUrl: elsewhere, nowSeconds })),
    );
    expect(refused).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    expect(teams.tokenRequests.at(-1)?.reason).toBe('claim aud check_failed');
    // The same assertion for this endpoint is taken: only the audience differed.
    const taken = await postToken(
      form(
        await clientAssertion(credential, { appId: teams.appId, tokenUrl: teams.tokenEndpoint, nowSeconds }),
      ),
    );
    expect(taken.status).toBe(200);
  });

  it('another issuer, a replayed jti and a secret beside the assertion are refused', async () => {
    const credential = parseCertificateCredential(bot.certificatePem, bot.keyPem);
    const nowSeconds = Math.floor(Date.now() / 1000);
    const base = {
      grant_type: 'client_credentials',
      client_id: teams.appId,
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      scope: 'https://api.botframework.com/.default',
    };
    const strange = await clientAssertion(credential, {
      appId: '00000000-0000-4000-8000-000000000009',
      tokenUrl: teams.tokenEndpoint,
      nowSeconds,
    });
    expect((await postToken({ ...base, client_assertion: strange })).status).toBe(401);
    expect(teams.tokenRequests.at(-1)?.reason).toBe('claim iss check_failed');
    const good = await clientAssertion(credential, {
      appId: teams.appId,
      tokenUrl: teams.tokenEndpoint,
      nowSeconds,
    });
    expect((await postToken({ ...base, client_assertion: good, client_secret: 'x' })).status).toBe(401);
    expect((await postToken({ ...base, client_assertion: good })).status).toBe(200);
    expect((await postToken({ ...base, client_assertion: good })).status).toBe(401);
    expect(teams.tokenRequests.at(-1)?.reason).toMatch(/jti used before/);
  });
});

describe('rotation: the files are read again at token refresh', () => {
  it('a rotated certificate signs the next token; a half-written pair keeps the last good one', async () => {
    const rotated = makeTestCertificate({ cn: 'rollout-doctor bot 2027' });
    teams.registerCertificate(rotated.certificatePem);
    const paths = files(bot);
    const events: string[] = [];
    const source = certificateSource(paths, {
      loaded: (c) => events.push(`loaded ${c.thumbprintSha1}`),
      unusable: (e: CertificateError) => events.push(`unusable ${e.message}`),
    });
    const connector = connectorWith(source);
    const thumbprints = () => teams.tokenRequests.map((r) => r.header?.['x5t#S256']);
    const sha256 = (c: TestCertificate) =>
      parseCertificateCredential(c.certificatePem, c.keyPem).thumbprintSha256;

    await connector.send(teams.serviceUrl, CHANNEL, { type: 'message' });
    // Half-way through a rotation: the new certificate beside the old key.
    writeFileSync(paths.certificateFile, rotated.certificatePem);
    teams.revokeTokens(); // the next send is refused once and fetches a new token
    await connector.send(teams.serviceUrl, CHANNEL, { type: 'message' });
    // The rotation completes; the old certificate is deleted from the app registration.
    writeFileSync(paths.keyFile, rotated.keyPem);
    teams.removeCertificate(bot.certificatePem);
    await connector.send(teams.serviceUrl, CHANNEL, { type: 'message' }); // cached token: no fetch
    teams.revokeTokens();
    await connector.send(teams.serviceUrl, CHANNEL, { type: 'message' });

    expect(thumbprints()).toEqual([sha256(bot), sha256(bot), sha256(rotated)]);
    expect(teams.tokenRequests.every((r) => r.accepted)).toBe(true);
    expect(events).toEqual([
      `loaded ${bot.x509.fingerprint.replaceAll(':', '')}`,
      expect.stringMatching(
        /^unusable TEAMS_CERTIFICATE_KEY_FILE: the private key belongs to no certificate/,
      ),
      `loaded ${rotated.x509.fingerprint.replaceAll(':', '')}`,
    ]);
    expect(teams.posted(CHANNEL)).toHaveLength(4);
  });

  it('with no good pair yet, an unreadable file fails the token fetch', async () => {
    const source = certificateSource({
      certificateFile: join(dir, 'absent.crt'),
      keyFile: join(dir, 'absent.key'),
    });
    await expect(source.current()).rejects.toThrow(
      /^TEAMS_CERTIFICATE_FILE: cannot read .*absent\.crt \(ENOENT\)$/,
    );
  });
});
