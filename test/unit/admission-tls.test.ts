/**
 * The admission webhook's TLS (issue 67.7): TLS 1.2 with ECDHE and an AEAD cipher only.
 * A client offering nothing but a CBC suite with a SHA-1 MAC is refused at the
 * handshake; a modern client (TLS 1.3, or TLS 1.2 with AES-GCM or ChaCha20) is served.
 * The same holds once the serving certificate is read again after a renewal, which
 * replaces the server's whole TLS context.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type ConnectionOptions } from 'node:tls';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdmissionServer, type AdmissionServer } from '../../src/admission/server.js';
import type { ReviewDeps } from '../../src/admission/review-handler.js';
import { createLogger } from '../../src/logger.js';
import { servingCertificate } from '../support/serving-certificate.js';

const dir = mkdtempSync(join(tmpdir(), 'rd-admission-tls-'));
const servers: AdmissionServer[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

async function start(): Promise<{ server: AdmissionServer; ca: string; cert: string; key: string }> {
  const tls = servingCertificate(dir, `serving-${servers.length}`);
  const server = await startAdmissionServer({
    port: 0,
    host: '127.0.0.1',
    tlsCert: tls.cert,
    tlsKey: tls.key,
    deps: {} as ReviewDeps,
    logger: createLogger({ level: 'silent', name: 'admission-tls-test' }),
  });
  servers.push(server);
  return { server, ...tls };
}

/** The handshake's outcome: the protocol and cipher agreed, or the error. */
function handshake(
  port: number,
  ca: string,
  options: ConnectionOptions,
): Promise<{ protocol: string | null; cipher: string; fingerprint: string } | { error: string }> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ...options }, () => {
      const result = {
        protocol: socket.getProtocol(),
        cipher: socket.getCipher().name,
        fingerprint: socket.getPeerCertificate().fingerprint256,
      };
      socket.end();
      resolve(result);
    });
    socket.on('error', (error: Error) => resolve({ error: error.message }));
  });
}

/** What a client from before AEAD offers: ECDHE, AES in CBC mode, a SHA-1 MAC; TLS 1.2 at most. */
const CBC_SHA1: ConnectionOptions = { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-SHA' };

describe('admission webhook TLS', () => {
  it('refuses a TLS 1.2 client offering only a CBC-SHA1 suite, and serves modern ones', async () => {
    const { server, ca } = await start();
    expect(await handshake(server.port, ca, CBC_SHA1)).toHaveProperty('error');
    expect(
      await handshake(server.port, ca, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES256-SHA' }),
    ).toHaveProperty('error');
    expect(await handshake(server.port, ca, {})).toMatchObject({ protocol: 'TLSv1.3' });
    expect(
      await handshake(server.port, ca, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256' }),
    ).toMatchObject({ protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
    expect(
      await handshake(server.port, ca, { maxVersion: 'TLSv1.2', ciphers: 'ECDHE-ECDSA-CHACHA20-POLY1305' }),
    ).toMatchObject({ protocol: 'TLSv1.2', cipher: 'ECDHE-ECDSA-CHACHA20-POLY1305' });
    // A client offering CBC first and GCM after gets GCM: the server's order rules.
    expect(
      await handshake(server.port, ca, {
        maxVersion: 'TLSv1.2',
        ciphers: 'ECDHE-ECDSA-AES128-SHA:ECDHE-ECDSA-AES128-GCM-SHA256',
      }),
    ).toMatchObject({ cipher: 'ECDHE-ECDSA-AES128-GCM-SHA256' });
    expect(await handshake(server.port, ca, { maxVersion: 'TLSv1.1', minVersion: 'TLSv1' })).toHaveProperty(
      'error',
    );
  });

  it('keeps refusing CBC-SHA1 after the serving certificate is read again', async () => {
    const { server, ca, cert, key } = await start();
    const before = await handshake(server.port, ca, {});
    expect(before).toHaveProperty('fingerprint');
    // A renewal: a new pair written over the files the server watches (it polls every 10 s).
    const renewed = servingCertificate(dir, 'renewed');
    copyFileSync(renewed.key, key);
    copyFileSync(renewed.cert, cert);
    const deadline = Date.now() + 20_000;
    let now = before;
    while (Date.now() < deadline) {
      now = await handshake(server.port, renewed.ca, {});
      if ('fingerprint' in now && 'fingerprint' in before && now.fingerprint !== before.fingerprint) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(now).toHaveProperty('protocol', 'TLSv1.3');
    expect(await handshake(server.port, renewed.ca, CBC_SHA1)).toHaveProperty('error');
  }, 30_000);
});
