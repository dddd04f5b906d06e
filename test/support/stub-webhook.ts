/**
 * A validating admission webhook for tests: HTTPS on 127.0.0.1 with a serving certificate
 * from a test CA (test-certificate.ts), answering each AdmissionReview with what the test's
 * `answer` decides (allowed, warnings, status), or with a raw body, or after a delay. It
 * keeps every review it was sent. The caBundle to put in a ValidatingWebhookConfiguration
 * is the CA's PEM in base64.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { makeTestCertificate, type TestCertificate } from './test-certificate.js';

export interface ReviewRequest {
  uid: string;
  kind: { group: string; version: string; kind: string };
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; groups?: string[] };
  object: Record<string, unknown> | null;
  oldObject: Record<string, unknown> | null;
  dryRun: boolean;
  options?: Record<string, unknown>;
}

export interface StubAnswer {
  allowed?: boolean;
  warnings?: string[];
  status?: { code?: number; message?: string; reason?: string };
  /** The whole body instead of a well-formed review. */
  raw?: unknown;
  /** Waits this long before answering. */
  delayMs?: number;
}

export interface StubWebhook {
  /** https://127.0.0.1:PORT/validate */
  url: string;
  port: number;
  /** base64 of the CA's PEM, for clientConfig.caBundle. */
  caBundle: string;
  /** Every review request received, in order, with the query it came with. */
  reviews: { request: ReviewRequest; query: string; apiVersion: string }[];
  close(): Promise<void>;
}

/** A CA for a test file: one key pair, reused for every stub it signs. */
export function makeTestCa(): TestCertificate {
  return makeTestCertificate({ cn: 'rollout-doctor test webhook CA', ca: true });
}

export async function startStubWebhook(
  answer: (request: ReviewRequest) => StubAnswer,
  options: { ca: TestCertificate; dnsNames?: string[]; port?: number },
): Promise<StubWebhook> {
  const serving = makeTestCertificate({
    cn: 'stub webhook',
    dnsNames: ['localhost', ...(options.dnsNames ?? [])],
    ipAddresses: ['127.0.0.1'],
    issuer: options.ca,
  });
  const reviews: StubWebhook['reviews'] = [];
  const server: Server = createServer({ key: serving.keyPem, cert: serving.certificatePem }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        apiVersion: string;
        request: ReviewRequest;
      };
      reviews.push({
        request: review.request,
        query: (req.url ?? '').split('?')[1] ?? '',
        apiVersion: review.apiVersion,
      });
      const decided = answer(review.request);
      const body =
        decided.raw !== undefined
          ? decided.raw
          : {
              apiVersion: 'admission.k8s.io/v1',
              kind: 'AdmissionReview',
              response: {
                uid: review.request.uid,
                allowed: decided.allowed ?? true,
                ...(decided.warnings ? { warnings: decided.warnings } : {}),
                ...(decided.status ? { status: decided.status } : {}),
              },
            };
      const send = (): void => {
        if (res.destroyed) return;
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (decided.delayMs) setTimeout(send, decided.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}/validate`,
    port,
    caBundle: Buffer.from(options.ca.certificatePem).toString('base64'),
    reviews,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export const WEBHOOK_NAME = 'check.rollout-doctor.io';

/**
 * One webhook on Deployment creates and updates (sideEffects None, AdmissionReview v1)
 * calling `clientConfig`; `over` replaces any of its fields.
 */
export function deploymentWebhook(
  clientConfig: Record<string, unknown>,
  over: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    name: WEBHOOK_NAME,
    clientConfig,
    rules: [
      {
        operations: ['CREATE', 'UPDATE'],
        apiGroups: ['apps'],
        apiVersions: ['v1'],
        resources: ['deployments'],
      },
    ],
    sideEffects: 'None',
    admissionReviewVersions: ['v1'],
    ...over,
  };
}

/** A ValidatingWebhookConfiguration named `name` holding `webhooks`. */
export function webhookConfiguration(
  name: string,
  ...webhooks: Record<string, unknown>[]
): Record<string, unknown> {
  return {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name },
    webhooks,
  };
}
