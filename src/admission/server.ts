/**
 * The admission webhook's HTTPS server: POST /validate (AdmissionReview v1). A process
 * of its own (`rollout-doctor serve-admission`): no Redis, no chat, read-only cluster
 * credentials. The serving certificate is read again when its files change (a
 * cert-manager renewal, a rotated Secret), without a restart.
 *
 * Only the API server should speak to it. With a client CA the serving port
 * takes only callers whose certificate that CA signed (the API server presents one
 * through its AdmissionConfiguration kubeConfigFile; DESIGN.md §4e), and, with allowed
 * names, only those whose certificate names one of them; everyone else is refused in
 * the TLS handshake or with 403. /healthz, /readyz and /metrics are served apart, in
 * plain HTTP on the probe port (the kubelet and Prometheus present no client
 * certificate), never on the serving port.
 */
import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { Logger } from '../logger.js';
import { answerReview, type ReviewDeps } from './review-handler.js';

/**
 * What the webhook's TLS 1.2 accepts: ECDHE key exchange with an AEAD cipher (AES-GCM,
 * ChaCha20-Poly1305) only; no CBC suite with its SHA-1 MAC (Lucky13-style padding
 * oracles), no static RSA key exchange (no forward secrecy). TLS 1.3's suites, all AEAD,
 * are named so that they stay what Node offers by default. The API server (Go's
 * crypto/tls) offers every one of these.
 */
const ADMISSION_CIPHERS = [
  'TLS_AES_128_GCM_SHA256',
  'TLS_AES_256_GCM_SHA384',
  'TLS_CHACHA20_POLY1305_SHA256',
  'ECDHE-ECDSA-AES128-GCM-SHA256',
  'ECDHE-RSA-AES128-GCM-SHA256',
  'ECDHE-ECDSA-AES256-GCM-SHA384',
  'ECDHE-RSA-AES256-GCM-SHA384',
  'ECDHE-ECDSA-CHACHA20-POLY1305',
  'ECDHE-RSA-CHACHA20-POLY1305',
].join(':');

/** AdmissionReviews carry whole objects (etcd's limit is 1.5 MiB); anything past this is refused. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * How many request bodies the webhook holds at once: whoever reaches the
 * port could send many large reviews together, each several times its size once parsed
 * (40 of 3.9 MB peaked at 435 MiB). A body is held from its first byte until its answer
 * is sent. One past these limits is answered 429 at once and its bytes thrown away as
 * they come (the API server applies the webhook's failurePolicy).
 */
export interface BodyLimits {
  /** A body of more bytes than this is large. */
  largeBytes: number;
  /** Large bodies held at once. */
  large: number;
  /** Bytes of all bodies held at once (large ones included). */
  heldBytes: number;
}

/** 4 large bodies of at most 4 MiB each, and 8 MiB more of small ones: the chart's 384 MiB holds them parsed. */
const BODY_LIMITS: BodyLimits = {
  largeBytes: 256 * 1024,
  large: 4,
  heldBytes: 24 * 1024 * 1024,
};

type Busy = 'large-bodies' | 'body-bytes';

/** What the bodies being held take, shared by every request. */
function bodyGate(limits: BodyLimits) {
  let large = 0;
  let held = 0;
  /** One request's share: `grow` to `bytes`, or the reason it cannot; `release` once answered. */
  return () => {
    let mine = 0;
    let isLarge = false;
    return {
      grow(bytes: number): Busy | undefined {
        if (bytes > limits.largeBytes && !isLarge) {
          if (large >= limits.large) return 'large-bodies';
          large += 1;
          isLarge = true;
        }
        if (bytes > mine) {
          if (held + bytes - mine > limits.heldBytes) return 'body-bytes';
          held += bytes - mine;
          mine = bytes;
        }
        return undefined;
      },
      release(): void {
        held -= mine;
        mine = 0;
        if (isLarge) large -= 1;
        isLarge = false;
      },
    };
  };
}

type Share = ReturnType<ReturnType<typeof bodyGate>>;

interface AdmissionServerOptions {
  port: number;
  host?: string;
  tlsCert: string;
  tlsKey: string;
  /**
   * PEM file of the CA that signs the API server's client certificate: only callers it
   * signed are answered. Absent: any caller that reaches the port is (and nothing it
   * sends is announced: serve-admission refuses announce without it).
   */
  clientCa?: string;
  /** Names (certificate CN or DNS SAN) a caller's certificate must carry; empty: any the CA signed. */
  clientNames?: readonly string[];
  /** Plain-HTTP port of /healthz, /readyz and /metrics; absent: none served (tests). */
  probePort?: number;
  deps: ReviewDeps;
  logger: Logger;
  /** Resolves once the webhook's first read is done (serve.ts); /readyz says 503 until then. */
  ready?: Promise<void>;
  /** Absent: BODY_LIMITS. */
  bodyLimits?: Partial<BodyLimits>;
}

export interface AdmissionServer {
  server: Server;
  port: number;
  /** The probe port's actual port, when one is served. */
  probePort?: number;
  close(): Promise<void>;
}

/** The caller's certificate names one of `names` (its CN, or a DNS name among its SANs). */
function callerNamed(req: IncomingMessage, names: readonly string[]): boolean {
  if (names.length === 0) return true;
  const cert = (req.socket as TLSSocket).getPeerCertificate?.();
  if (!cert || !('subject' in cert)) return false;
  const cn = cert.subject?.CN;
  const sans = (cert.subjectaltname ?? '')
    .split(', ')
    .filter((s) => s.startsWith('DNS:'))
    .map((s) => s.slice(4));
  return names.some((n) => n === cn || sans.includes(n));
}

/**
 * The body as text; `too-large` past MAX_BODY_BYTES (the rest unread: the connection is
 * closed); a Busy reason when the share cannot hold it (the rest read and thrown away).
 */
function readBody(req: IncomingMessage, share: Share): Promise<string | 'too-large' | Busy> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) {
      resolve('too-large');
      req.destroy();
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let dropping = false;
    const refused = share.grow(declared);
    if (refused) {
      dropping = true;
      resolve(refused);
    }
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        if (!dropping) resolve('too-large');
        dropping = true;
        req.destroy();
        return;
      }
      if (dropping) return;
      const busy = share.grow(size);
      if (busy) {
        dropping = true;
        chunks.length = 0;
        resolve(busy);
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

/** The probe port: health, readiness and metrics, nothing else. */
async function probeRoute(
  req: IncomingMessage,
  res: ServerResponse,
  options: AdmissionServerOptions,
  isReady: () => boolean,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (req.method !== 'GET') return send(res, 405, 'GET only\n', 'text/plain');
  if (path === '/healthz') return send(res, 200, 'ok\n', 'text/plain');
  if (path === '/readyz')
    return isReady()
      ? send(res, 200, 'ok\n', 'text/plain')
      : send(res, 503, 'reading the cluster\n', 'text/plain');
  if (path === '/metrics') {
    const { registry } = options.deps.metrics;
    return send(res, 200, await registry.metrics(), registry.contentType);
  }
  return send(res, 404, 'not found\n', 'text/plain');
}

async function route(
  req: IncomingMessage,
  res: ServerResponse,
  options: AdmissionServerOptions,
  share: Share,
): Promise<void> {
  const path = (req.url ?? '').split('?')[0];
  if (!callerNamed(req, options.clientNames ?? []))
    return send(res, 403, '{"message":"the client certificate names no caller this webhook answers"}');
  if (path !== '/validate') return send(res, 404, '{"message":"not found"}');
  if (req.method !== 'POST') return send(res, 405, '{"message":"POST an AdmissionReview"}');
  const text = await readBody(req, share);
  if (text === 'too-large') return send(res, 413, '{"message":"body too large"}');
  if (text === 'large-bodies' || text === 'body-bytes') {
    options.deps.metrics.busy.inc({ reason: text });
    return send(res, 429, '{"message":"too many reviews being read at once"}');
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return send(res, 400, '{"message":"not JSON"}');
  }
  const answer = await answerReview(body, options.deps);
  send(res, answer.status, JSON.stringify(answer.body));
}

export async function startAdmissionServer(options: AdmissionServerOptions): Promise<AdmissionServer> {
  // The whole of the TLS settings each time: setSecureContext replaces them all, and a
  // renewal read with the key pair alone would serve Node's default ciphers (CBC-SHA1 too).
  // The client CA is part of the context too: a reload without it would trust Node's roots.
  const tls = () => ({
    cert: readFileSync(options.tlsCert),
    key: readFileSync(options.tlsKey),
    ...(options.clientCa ? { ca: readFileSync(options.clientCa) } : {}),
    minVersion: 'TLSv1.2' as const,
    ciphers: ADMISSION_CIPHERS,
    honorCipherOrder: true,
  });
  let ready = options.ready === undefined;
  // Ready either way once the read is over: a failed read is retried by the reviews themselves.
  void options.ready?.finally(() => {
    ready = true;
  });
  const failed =
    (res: ServerResponse) =>
    (error: unknown): void => {
      options.logger.error({ err: error }, 'admission route failed');
      if (!res.headersSent) send(res, 500, '{"message":"internal error"}');
    };
  // Client certificates: asked for and required where a CA is given.
  const clientAuth = options.clientCa ? { requestCert: true, rejectUnauthorized: true } : {};
  const gate = bodyGate({ ...BODY_LIMITS, ...options.bodyLimits });
  const server = createServer({ ...tls(), ...clientAuth }, (req, res) => {
    // The body is held until its answer is sent (its parsed review lives as long).
    const share = gate();
    route(req, res, options, share)
      .catch(failed(res))
      .finally(() => share.release());
  });
  const probes =
    options.probePort === undefined
      ? undefined
      : createHttpServer((req, res) => {
          probeRoute(req, res, options, () => ready).catch(failed(res));
        });
  // The API server keeps its connections to a webhook open: closing them sooner than it
  // expects makes it resend on a socket we just closed (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 70_000;
  server.requestTimeout = 30_000;
  const reload = (): void => {
    try {
      server.setSecureContext(tls());
      options.logger.info('serving certificate read again');
    } catch (error) {
      // A half-written pair (the key renewed before the certificate): keep the last good one.
      options.logger.warn({ err: error }, 'serving certificate not readable yet; keeping the previous one');
    }
  };
  for (const file of [options.tlsCert, options.tlsKey]) watchFile(file, { interval: 10_000 }, reload);
  const listen = (s: Server | ReturnType<typeof createHttpServer>, port: number): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, options.host ?? '0.0.0.0', () => resolve());
    });
  await listen(server, options.port);
  if (probes && options.probePort !== undefined) {
    try {
      await listen(probes, options.probePort);
    } catch (error) {
      server.close();
      throw error;
    }
  }
  const stop = (s: Server | ReturnType<typeof createHttpServer>): Promise<void> =>
    new Promise<void>((resolve) => {
      s.close(() => resolve());
      s.closeAllConnections();
    });
  return {
    server,
    port: (server.address() as AddressInfo).port,
    ...(probes ? { probePort: (probes.address() as AddressInfo).port } : {}),
    close: async () => {
      for (const file of [options.tlsCert, options.tlsKey]) unwatchFile(file, reload);
      await Promise.all([stop(server), ...(probes ? [stop(probes)] : [])]);
    },
  };
}
