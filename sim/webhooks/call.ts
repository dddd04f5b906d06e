/**
 * One call of a validating webhook (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * validating/dispatcher.go callHook): POST of the AdmissionReview over HTTPS/1.1 to
 * `<path>?timeout=<n>s`, the serving certificate verified against caBundle (none: the
 * system roots, which a test CA is not in), timeoutSeconds as the deadline. The outcome
 * keeps apart what the failure policy decides (a call that failed: ErrCallingWebhook,
 * worded `failed calling webhook "<name>": …` with Go's client errors) from a verdict
 * and from errors that refuse whatever the policy (a dry run the webhook cannot take).
 */
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import { badRequest, type ApiError } from '../errors.js';
import type { Store } from '../store.js';
import type { ValidatingWebhook } from './config.js';
import { resolveEndpoint, type Endpoint } from './endpoint.js';
import { DecodeError, verifyResponse, type AdmissionRequestV1, type WebhookVerdict } from './review.js';

export type CallOutcome =
  | { kind: 'verdict'; verdict: WebhookVerdict }
  | { kind: 'failed'; message: string }
  | { kind: 'refused'; error: ApiError };

const MAX_RESPONSE = 16 * 1024 * 1024;

const UNKNOWN_AUTHORITY = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  // a CA of the same name that did not sign it
  'CERT_SIGNATURE_FAILURE',
]);

/** A Node client error in the words of Go's net/http and crypto/tls. */
function goError(err: Error & { code?: string; cert?: PeerCertificate }, ep: Endpoint): string {
  const code = err.code ?? '';
  const addr = ep.connectHost.includes(':')
    ? `[${ep.connectHost}]:${ep.connectPort}`
    : `${ep.connectHost}:${ep.connectPort}`;
  if (code === 'ECONNREFUSED') return `dial tcp ${addr}: connect: connection refused`;
  if (code === 'ECONNRESET' || err.message === 'socket hang up') return 'EOF';
  // A server that asked for a client certificate and refused ours (or none) ends the handshake.
  if (/alert (certificate required|bad certificate|unknown ca)/i.test(err.message))
    return 'remote error: tls: certificate required';
  if (code === 'EPROTO') return 'http: server gave HTTP response to HTTPS client';
  if (UNKNOWN_AUTHORITY.has(code))
    return 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    const names = (err.cert?.subjectaltname ?? '')
      .split(', ')
      .map((n) => n.replace(/^(DNS|IP Address):/, ''))
      .filter((n) => n !== '');
    return `tls: failed to verify certificate: x509: certificate is valid for ${names.join(', ')}, not ${ep.serverName}`;
  }
  return err.message;
}

/** client-go's error for a non-2xx answer that is not a Status (errors.NewGenericServerResponse). */
function statusText(code: number, body: string): string {
  const known: Record<number, string> = {
    400: 'the server rejected our request for an unknown reason',
    401: 'the server has asked for the client to provide credentials',
    404: 'the server could not find the requested resource',
    429: 'the server has received too many requests and has asked us to try again later',
    503: 'the server is currently unable to handle the request',
    504: 'the server was unable to return a response in the time allotted, but may still be processing the request',
  };
  const text = known[code];
  if (text) return text;
  if (code >= 500)
    return `an error on the server (${JSON.stringify(body.trim())}) has prevented the request from succeeding`;
  return `the server responded with the status code ${code} but did not return more information`;
}

interface Answer {
  status: number;
  body: string;
}

function post(
  ep: Endpoint,
  hook: ValidatingWebhook,
  review: string,
  timeoutSeconds: number,
  client: Store['webhookClient'],
): Promise<Answer> {
  const ca = hook.clientConfig.caBundle ? Buffer.from(hook.clientConfig.caBundle, 'base64') : undefined;
  return new Promise((resolve, reject) => {
    const req = httpsRequest({
      host: ep.connectHost,
      port: ep.connectPort,
      method: 'POST',
      path: `${ep.path}?timeout=${timeoutSeconds}s`,
      headers: {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'Content-Length': Buffer.byteLength(review),
      },
      agent: false,
      ...(ca ? { ca } : {}),
      ...(client ? { cert: client.cert, key: client.key } : {}),
      ...(isIP(ep.serverName) === 0 ? { servername: ep.serverName } : {}),
      checkServerIdentity: (_host, cert) => checkServerIdentity(ep.serverName, cert),
      signal: AbortSignal.timeout(timeoutSeconds * 1000),
    });
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_RESPONSE) req.destroy(new Error('the webhook response is larger than 16 MiB'));
        else chunks.push(c);
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(review);
  });
}

/** Calls `hook` with `request` (already matched) and says how it went. */
export async function callHook(
  store: Store,
  hook: ValidatingWebhook,
  request: AdmissionRequestV1,
): Promise<CallOutcome> {
  const failed = (reason: string): CallOutcome => ({
    kind: 'failed',
    message: `failed calling webhook "${hook.name}": ${reason}`,
  });
  if (request.dryRun) {
    if (hook.sideEffects === undefined) return failed('Webhook SideEffects is nil');
    if (hook.sideEffects !== 'None' && hook.sideEffects !== 'NoneOnDryRun')
      return {
        kind: 'refused',
        error: badRequest(`admission webhook "${hook.name}" does not support dry run`),
      };
  }
  const versions = hook.admissionReviewVersions ?? [];
  const version = versions.find((v) => v === 'v1' || v === 'v1beta1');
  if (!version)
    return failed(
      'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
  const caText = hook.clientConfig.caBundle
    ? Buffer.from(hook.clientConfig.caBundle, 'base64').toString('utf8')
    : '';
  if (hook.clientConfig.caBundle && !caText.includes('-----BEGIN CERTIFICATE-----'))
    return failed(
      'could not get REST client: unable to load root certificates: unable to parse bytes as PEM block',
    );
  const { endpoint, failure } = resolveEndpoint(store, hook);
  if (!endpoint) return failed(`could not get REST client: ${failure ?? ''}`);
  const timeoutSeconds = hook.timeoutSeconds ?? 10;
  const target = `Post "${endpoint.url}?timeout=${timeoutSeconds}s"`;
  if (failure) return failed(`failed to call webhook: ${target}: ${failure}`);
  const review = JSON.stringify({
    kind: 'AdmissionReview',
    apiVersion: `admission.k8s.io/${version}`,
    request,
  });
  let answer: Answer;
  try {
    answer = await post(endpoint, hook, review, timeoutSeconds, store.webhookClient);
  } catch (err) {
    const e = err as Error & { code?: string; name?: string };
    if (e.name === 'TimeoutError' || e.name === 'AbortError' || e.code === 'ABORT_ERR')
      return failed(`failed to call webhook: ${target}: context deadline exceeded`);
    return failed(`failed to call webhook: ${target}: ${goError(e, endpoint)}`);
  }
  let body: unknown;
  try {
    body = JSON.parse(answer.body);
  } catch {
    body = undefined;
  }
  if (answer.status < 200 || answer.status > 299) {
    const status = body as { kind?: string; message?: string } | undefined;
    const message =
      status?.kind === 'Status' && typeof status.message === 'string'
        ? status.message
        : statusText(answer.status, answer.body);
    return failed(`failed to call webhook: ${message}`);
  }
  if (body === undefined)
    return failed(`failed to call webhook: couldn't get version/kind; json parse error: invalid JSON`);
  try {
    return { kind: 'verdict', verdict: verifyResponse(body, request, version) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof DecodeError) return failed(`failed to call webhook: ${message}`);
    return failed(`received invalid webhook response: ${message}`);
  }
}
