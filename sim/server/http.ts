/**
 * The HTTP front: body parsing, per-request latency, fault injection, request
 * recording, discovery, and Status answers for every error.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApiError, forbidden, reasonForCode } from '../errors.js';
import type { LogStore } from '../logs.js';
import type { Store } from '../store.js';
import { crdName, type ResourceType, type Served } from '../resources.js';
import { openApiV3Document } from '../openapi/v3.js';
import { discoveryDocument } from './discovery.js';
import type { FaultList } from './faults.js';
import { handleResource } from './handle-resource.js';
import { requestUser } from './identity.js';
import { parseBody } from './request-body.js';
import { parseRequest } from './request-info.js';

/** One API request as the simulator saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  verb: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  status: number;
  dryRun: boolean;
  /** The user the request acted as (identity.ts), as admission policies see it. */
  user?: string;
  query?: string;
  /** performance.now() when the request arrived and when its response was done (benchmarks: dependent-chain depth). */
  receivedAt?: number;
  finishedAt?: number;
}

export interface HttpOptions {
  store: Store;
  logs: LogStore;
  faults: FaultList;
  requests: RecordedRequest[];
  latencyMs: number;
  stopped: Promise<void>;
}

const MAX_BODY = 16 * 1024 * 1024;

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new ApiError(413, 'RequestEntityTooLarge', 'request entity too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

function sendStatus(res: ServerResponse, err: ApiError, headers: Record<string, string> = {}): number {
  if (res.headersSent) {
    res.end();
    return err.code;
  }
  const text = JSON.stringify(err.toStatus());
  res.writeHead(err.code, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
  return err.code;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Creates the (not yet listening) HTTP server. */
export function createApiServer(options: HttpOptions): Server {
  const { store, logs, faults, requests } = options;
  const served: Served = Object.assign(
    (rt: ResourceType) =>
      !rt.crd || store.get('CustomResourceDefinition', undefined, crdName(rt)) !== undefined,
    { extra: store.storedTypes },
  );
  return createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const method = req.method ?? 'GET';
      const info = parseRequest(method, url, served);
      const record: RecordedRequest = {
        method,
        path: url.pathname,
        verb: info.type === 'resource' ? info.verb : 'get',
        resource: info.type === 'resource' ? info.rt.plural : '',
        dryRun: url.searchParams.getAll('dryRun').includes('All'),
        status: 0,
        ...(url.search ? { query: url.search.slice(1) } : {}),
        ...(info.type === 'resource' && info.subresource ? { subresource: info.subresource } : {}),
        ...(info.type === 'resource' && info.namespace !== undefined ? { namespace: info.namespace } : {}),
        ...(info.type === 'resource' && info.name !== undefined ? { name: info.name } : {}),
      };
      record.receivedAt = performance.now();
      res.once('close', () => {
        record.finishedAt = performance.now();
      });
      const user = requestUser(store, req.headers);
      record.user = user.username;
      requests.push(record);
      try {
        const bodyBytes = await readBody(req);
        if (options.latencyMs > 0) await sleep(options.latencyMs);
        if (info.type === 'resource') {
          const fault = faults.take({
            verb: info.verb,
            resource: info.rt.plural,
            ...(info.namespace !== undefined ? { namespace: info.namespace } : {}),
            ...(info.name !== undefined ? { name: info.name } : {}),
            ...(info.subresource !== undefined ? { subresource: info.subresource } : {}),
            dryRun: record.dryRun,
          });
          if (fault) {
            if (fault.delayMs) await sleep(fault.delayMs);
            if (fault.reset) {
              record.status = 0;
              req.socket.destroy();
              return;
            }
            if (fault.status !== undefined) {
              const headers: Record<string, string> =
                fault.retryAfterSeconds !== undefined
                  ? { 'Retry-After': String(fault.retryAfterSeconds) }
                  : {};
              if (fault.body !== undefined) {
                const text = JSON.stringify(fault.body);
                res.writeHead(fault.status, { 'Content-Type': 'application/json', ...headers });
                res.end(text);
                record.status = fault.status;
                return;
              }
              const err =
                fault.status === 403
                  ? forbidden(info.verb, info.rt, info.namespace, info.name)
                  : new ApiError(
                      fault.status,
                      reasonForCode(fault.status),
                      fault.status === 429
                        ? 'Too many requests, please try again later.'
                        : `an error on the server ("injected fault") has prevented the request from succeeding (${info.verb} ${info.rt.plural})`,
                    );
              record.status = sendStatus(res, err, headers);
              return;
            }
          }
          const body = parseBody(bodyBytes, req.headers['content-type'] ?? '');
          record.status = await handleResource(store, logs, {
            info,
            url,
            headers: {
              ...(req.headers.accept ? { accept: req.headers.accept } : {}),
              ...(req.headers['content-type'] ? { contentType: req.headers['content-type'] } : {}),
            },
            body,
            res,
            stopped: options.stopped,
            user,
          });
          return;
        }
        const host = req.headers.host ?? '127.0.0.1';
        const doc =
          info.type === 'discovery'
            ? discoveryDocument(info.path, host, served)
            : url.pathname.startsWith('/openapi/v3')
              ? openApiV3Document(url.pathname.replace(/\/+$/, ''), served)
              : undefined;
        if (doc === undefined) {
          record.status = sendStatus(
            res,
            new ApiError(404, 'NotFound', 'the server could not find the requested resource'),
          );
          return;
        }
        const text = typeof doc === 'string' ? doc : JSON.stringify(doc);
        res.writeHead(200, {
          'Content-Type': typeof doc === 'string' ? 'text/plain' : 'application/json',
          'Content-Length': Buffer.byteLength(text),
        });
        res.end(text);
        record.status = 200;
      } catch (err) {
        const apiErr =
          err instanceof ApiError
            ? err
            : new ApiError(
                500,
                'InternalError',
                `Internal error occurred: ${err instanceof Error ? err.message : String(err)}`,
              );
        record.status = sendStatus(res, apiErr);
      }
    })();
  });
}
