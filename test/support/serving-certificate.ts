/**
 * A self-signed serving certificate for 127.0.0.1 (openssl), as a webhook's caBundle
 * would name it: the test trusts exactly this certificate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

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
