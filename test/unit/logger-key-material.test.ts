/**
 * The Teams certificate's key never reaches a log line (src/logger.ts): a PEM private key
 * in a message or an error's text is cut out, and the fields that could hold it or an
 * assertion signed with it (`privateKey`, `client_assertion`) are redacted.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.js';

const keyPem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const keyBody = keyPem.split('\n')[1] ?? '';

function logged(write: (log: ReturnType<typeof createLogger>) => void): string {
  const lines: string[] = [];
  write(createLogger({ level: 'info', name: 't' }, { write: (line: string) => lines.push(line) }));
  return lines.join('\n');
}

describe('key material in logs', () => {
  it('cuts a PEM private key out of messages and error texts, whole or cut off', () => {
    const text = logged((log) => {
      log.warn(`could not parse ${keyPem} as a key`);
      log.error({ err: new Error(`bad input: ${keyPem.slice(0, 200)}`) }, 'teams certificate');
    });
    expect(keyBody.length).toBeGreaterThan(40);
    expect(text).not.toContain(keyBody);
    expect(text).not.toContain('PRIVATE KEY');
    expect(text).toContain('could not parse [Redacted]');
    expect(text).toContain('bad input: [Redacted]');
  });

  it('redacts the privateKey and client_assertion fields', () => {
    const text = logged((log) =>
      log.info({ privateKey: keyPem, form: { client_assertion: 'eyJhbGciOiJQUzI1NiJ9.e30.sig' } }, 'x'),
    );
    expect(text).not.toContain(keyBody);
    expect(text).not.toContain('eyJhbGciOiJQUzI1NiJ9');
  });
});
