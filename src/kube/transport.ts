/**
 * One HTTP exchange with the API server, using the credentials and TLS settings
 * @kubernetes/client-node derives from the kubeconfig (tokens, client certificates,
 * exec plugins, in-cluster service account). We speak raw JSON rather than the
 * generated API classes: the snapshot keeps the wire form (RFC 3339 strings, unknown
 * fields intact), and retries need the status and Retry-After header, which the
 * generated classes hide behind their own exception type.
 */
import http from 'node:http';
import https from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface RawRequest {
  method: string;
  /** Path and query, appended to the cluster's server URL. */
  path: string;
  body?: string;
  contentType?: string;
  accept?: string;
  timeoutMs: number;
}

/** A connection-level failure (no HTTP status): refused, reset, timed out. */
export class TransportError extends Error {
  override name = 'TransportError';
  constructor(
    message: string,
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

export interface Transport {
  readonly server: string;
  send(request: RawRequest): Promise<RawResponse>;
  /** Opens a streaming GET; calls onLine for each newline-terminated line until the stream ends or signal aborts. */
  stream(path: string, onLine: (line: string) => void, signal: AbortSignal): Promise<number>;
}

export function createTransport(config: KubeConfig): Transport {
  const cluster = config.getCurrentCluster();
  if (!cluster) throw new TransportError('the kubeconfig has no current cluster', 'ENOCLUSTER');
  const endpoint = endpointOf(config, new URL(cluster.server));
  return {
    server: cluster.server,
    send: (request) => send(endpoint, request),
    stream: (path, onLine, signal) => stream(endpoint, path, onLine, signal),
  };
}

/** The API server's address, as requests to it are made. */
interface Endpoint {
  lib: typeof http | typeof https;
  options(method: string, path: string, headers: Record<string, string>): Promise<https.RequestOptions>;
}

function endpointOf(config: KubeConfig, base: URL): Endpoint {
  const basePath = base.pathname.replace(/\/$/, '');
  return {
    lib: base.protocol === 'http:' ? http : https,
    async options(method, path, headers) {
      const opts: https.RequestOptions = {
        protocol: base.protocol,
        hostname: base.hostname.replace(/^\[|\]$/g, ''),
        port: base.port || undefined,
        method,
        path: basePath + path,
        headers: { ...headers },
      };
      // Adds Authorization, client certificates, CA and the agent (http.Agent for http:// with skip-tls-verify).
      await config.applyToHTTPSOptions(opts);
      return opts;
    },
  };
}

async function send(endpoint: Endpoint, request: RawRequest): Promise<RawResponse> {
  const headers: Record<string, string> = { Accept: request.accept ?? 'application/json' };
  if (request.body !== undefined) {
    headers['Content-Type'] = request.contentType ?? 'application/json';
    headers['Content-Length'] = String(Buffer.byteLength(request.body));
  }
  const opts = await endpoint.options(request.method, request.path, headers);
  return new Promise<RawResponse>((resolve, reject) => {
    const req = endpoint.lib.request(opts, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(toTransportError(error));
      });
    });
    // A deadline for the whole exchange, not only idle time: a server that trickles bytes must not hang us.
    const timer = setTimeout(() => {
      req.destroy(new TransportError(`request timed out after ${request.timeoutMs} ms`, 'ETIMEDOUT'));
    }, request.timeoutMs);
    req.on('error', (error) => {
      clearTimeout(timer);
      reject(toTransportError(error));
    });
    if (request.body !== undefined) req.write(request.body);
    req.end();
  });
}

async function stream(
  endpoint: Endpoint,
  path: string,
  onLine: (line: string) => void,
  signal: AbortSignal,
): Promise<number> {
  const opts = await endpoint.options('GET', path, { Accept: 'application/json' });
  return new Promise<number>((resolve, reject) => {
    if (signal.aborted) {
      resolve(0);
      return;
    }
    const req = endpoint.lib.request(opts, (res) => {
      let buffered = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffered += chunk;
        let newline = buffered.indexOf('\n');
        while (newline >= 0) {
          const line = buffered.slice(0, newline).trim();
          buffered = buffered.slice(newline + 1);
          if (line) onLine(line);
          newline = buffered.indexOf('\n');
        }
      });
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', () => resolve(res.statusCode ?? 0));
      res.on('close', () => resolve(res.statusCode ?? 0));
    });
    const abort = (): void => {
      req.destroy();
      resolve(0);
    };
    signal.addEventListener('abort', abort, { once: true });
    req.on('error', (error) => {
      signal.removeEventListener('abort', abort);
      if (signal.aborted) resolve(0);
      else reject(toTransportError(error));
    });
    req.end();
  });
}

function toTransportError(error: unknown): TransportError {
  if (error instanceof TransportError) return error;
  const code =
    error !== null && typeof error === 'object' && 'code' in error && typeof error.code === 'string'
      ? error.code
      : 'ECONNERROR';
  const message = error instanceof Error ? error.message : String(error);
  return new TransportError(message, code, { cause: error });
}
