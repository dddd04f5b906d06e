/**
 * A self-signed serving certificate for 127.0.0.1 (openssl), as a webhook's caBundle
 * would name it: the test trusts exactly this certificate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveAdmission, type ServingAdmission } from '../../src/admission/serve.js';
import type { KubeClient } from '../../src/kube/client.js';
import { createLogger } from '../../src/logger.js';

export interface ServingCertificate {
  cert: string;
  key: string;
  /** PEM of the certificate, to trust. */
  ca: string;
}

export function servingCertificate(dir: string, name = 'serving'): ServingCertificate {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=rollout-doctor-admission',
      '-addext',
      'subjectAltName=IP:127.0.0.1,DNS:localhost',
    ],
    { stdio: 'ignore' },
  );
  return { cert, key, ca: readFileSync(cert, 'utf8') };
}

/**
 * The webhook on loopback with a fresh serving certificate in `dir`, Ready (its first read
 * done; `waitReady: false` returns at once):
 * the benchmark's, the README picture's and the tests' way to run it in-process.
 */
export async function startLocalAdmission(
  client: KubeClient,
  dir: string,
  options: { budgetMs?: number; cacheSeconds?: number; waitReady?: boolean } = {},
): Promise<ServingAdmission & { tls: ServingCertificate }> {
  const tls = servingCertificate(dir, 'admission');
  const server = await serveAdmission({
    client,
    port: 0,
    host: '127.0.0.1',
    tlsCert: tls.cert,
    tlsKey: tls.key,
    budgetMs: options.budgetMs ?? 2000,
    cacheSeconds: options.cacheSeconds ?? 10,
    logger: createLogger({ level: 'silent', name: 'admission' }),
  });
  if (options.waitReady !== false) await server.ready;
  return { ...server, tls };
}
