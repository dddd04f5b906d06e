import { describe, expect, it } from 'vitest';
import { REDACTED, redactSecrets } from '../../src/diagnosis/redact-secrets.js';

// Shapes built from pieces so that no scanner mistakes this file for a leak.
const AWS = ['AKIA', 'IOSFODNN7EXAMPLE'].join('');
const GH = ['ghp', '_', 'a'.repeat(36)].join('');
const SLACK = ['xoxb', '-123456789012-abcdefghijkl'].join('');
const VAULT = ['hvs', '.', 'CAESIJ3xN0aBcDeFgHiJkLmNoPq'].join('');
const JWT = [
  'eyJhbGciOiJIUzI1NiJ9',
  'eyJzdWIiOiIxMjM0NTY3ODkwIn0',
  'dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk',
].join('.');
const PEM = [
  '-----BEGIN PRIVATE KEY-----',
  'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC',
  '-----END PRIVATE KEY-----',
].join('\n');

describe('redactSecrets', () => {
  it.each([
    ['a bearer token', 'GET /v1 failed: Authorization: Bearer abcdef0123456789xyz', 'abcdef0123456789xyz'],
    ['a JWT', `token rejected: ${JWT}`, JWT],
    ['an AWS access key', `using key ${AWS}`, AWS],
    ['an AWS secret key', 'aws_secret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', 'wJalrXUtnFEMI'],
    ['a private key block', `loaded key\n${PEM}\nthen crashed`, 'MIIEvQIBADANBgkqhkiG9w0BAQEFAASC'],
    ['a GitHub token', `clone with ${GH}`, GH],
    ['a Slack token', `posting with ${SLACK}`, SLACK],
    ['a Vault token', `vault login ${VAULT} failed`, VAULT],
    ['password=', 'connect failed: host=db user=app password=s3cr3t-Pa55 sslmode=require', 's3cr3t-Pa55'],
    ['passwd:', 'passwd: hunter22hunter', 'hunter22hunter'],
    ['a JSON secret', '{"level":"error","db_password":"Tr0ub4dor&3","msg":"auth failed"}', 'Tr0ub4dor&3'],
    ['an api key', 'API_KEY=sk-live-0123456789abcdef exported', 'sk-live-0123456789abcdef'],
    ['token=', 'retrying with token=abc123def456ghi', 'abc123def456ghi'],
    ['URL user info', 'dial postgres://app:Sup3rS3cret@db.shop.svc:5432/orders: timeout', 'Sup3rS3cret'],
  ])('masks %s', (_name, text, secret) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it.each([
    'password reset succeeded for user 42',
    'commit 3f2a9c1b7e4d5a6f8b9c0d1e2f3a4b5c6d7e8f90 deployed',
    'SIGILL: illegal instruction (core dumped) on AVX-512',
    'token bucket refilled; 12 tokens left',
    'password: ********',
    'secret=${DB_SECRET} not expanded',
    'GET https://api.shop.svc/v1/orders 503',
  ])('keeps %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });

  it('keeps the key names and the rest of the line, so the evidence still reads', () => {
    expect(redactSecrets('FATAL: password=hunter2x for user "app" rejected')).toBe(
      `FATAL: password=${REDACTED} for user "app" rejected`,
    );
  });
});
