/**
 * A self-signed serving certificate for 127.0.0.1 (openssl), as a webhook's caBundle
 * would name it: the test trusts exactly this certificate.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { serveAdmission, type ServeOptions, type ServingAdmission } from '../../src/admission/serve.js';
import type { ThreadKubeOptions } from '../../src/admission/judge-messages.js';
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
 * The webhook on loopback with a fresh serving certificate in `dir`, reading the cluster
 * `kube` names (its judging thread makes its own client), Ready (its first read
 * done; `waitReady: false` returns at once):
 * the benchmark's, the README picture's and the tests' way to run it in-process.
 */
export async function startLocalAdmission(
  kube: ThreadKubeOptions,
  dir: string,
  options: {
    budgetMs?: number;
    cacheSeconds?: number;
    waitReady?: boolean;
    clientCa?: string;
    clientNames?: string[];
    bounds?: ServeOptions['bounds'];
    bodyLimits?: ServeOptions['bodyLimits'];
    now?: ServeOptions['now'];
  } = {},
): Promise<ServingAdmission & { tls: ServingCertificate }> {
  const tls = servingCertificate(dir, 'admission');
  const server = await serveAdmission({
    kube,
    port: 0,
    host: '127.0.0.1',
    tlsCert: tls.cert,
    tlsKey: tls.key,
    budgetMs: options.budgetMs ?? 2000,
    cacheSeconds: options.cacheSeconds ?? 10,
    probePort: 0,
    ...(options.clientCa ? { clientCa: options.clientCa } : {}),
    ...(options.clientNames ? { clientNames: options.clientNames } : {}),
    ...(options.bounds ? { bounds: options.bounds } : {}),
    ...(options.bodyLimits ? { bodyLimits: options.bodyLimits } : {}),
    ...(options.now ? { now: options.now } : {}),
    logger: createLogger({ level: 'silent', name: 'admission' }),
  });
  if (options.waitReady !== false) await server.ready;
  return { ...server, tls };
}

export interface ClientAuthority {
  /** PEM file of the CA (serve-admission --client-ca). */
  caFile: string;
  /** PEM of a client certificate the CA signed (CN `name`), and its key: what the API server presents. */
  cert: string;
  key: string;
  /** The same for a CA the webhook does not trust (an attacker's own). */
  strangerCert: string;
  strangerKey: string;
}

/** A CA and a client certificate it signed, as an AdmissionConfiguration's kubeConfigFile holds them (openssl). */
export function clientAuthority(dir: string, name = 'kube-apiserver'): ClientAuthority {
  const make = (prefix: string): { ca: string; cert: string; key: string } => {
    const caKey = join(dir, `${prefix}-ca.key`);
    const ca = join(dir, `${prefix}-ca.crt`);
    const key = join(dir, `${prefix}-client.key`);
    const csr = join(dir, `${prefix}-client.csr`);
    const cert = join(dir, `${prefix}-client.crt`);
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    const opts = { stdio: 'ignore' as const };
    execFileSync(
      'openssl',
      ['req', '-x509', ...ec, '-keyout', caKey, '-out', ca, '-days', '1', '-subj', `/CN=${prefix}-ca`],
      opts,
    );
    execFileSync('openssl', ['req', ...ec, '-keyout', key, '-out', csr, '-subj', `/CN=${name}`], opts);
    execFileSync(
      'openssl',
      ['x509', '-req', '-in', csr, '-CA', ca, '-CAkey', caKey, '-CAcreateserial', '-out', cert, '-days', '1'],
      opts,
    );
    return { ca, cert: readFileSync(cert, 'utf8'), key: readFileSync(key, 'utf8') };
  };
  const trusted = make('apiserver');
  const stranger = make('stranger');
  return {
    caFile: trusted.ca,
    cert: trusted.cert,
    key: trusted.key,
    strangerCert: stranger.cert,
    strangerKey: stranger.key,
  };
}
