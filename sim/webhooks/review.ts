/**
 * The AdmissionReview a webhook receives (k8s.io/apiserver/pkg/admission/plugin/webhook/
 * request/admissionreview.go CreateV1AdmissionReview), and the answer it must give
 * (VerifyAdmissionResponse): the response present, its uid the request's, apiVersion
 * admission.k8s.io/v1 and kind AdmissionReview, no patch from a validating webhook. The
 * answer is untrusted input: decoded with zod, strings made valid UTF-8 as Go's decoder
 * makes them.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { AdmissionRequest } from '../admission/validating-policy.js';
import { wellFormed } from '../server/warnings.js';

/** What admission knows of a request: the policies' view plus the write's field manager. */
export interface WebhookAttributes extends AdmissionRequest {
  readonly fieldManager?: string;
}

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

export interface AdmissionRequestV1 {
  uid: string;
  kind: GroupVersionKind;
  resource: { group: string; version: string; resource: string };
  subResource?: string;
  requestKind: GroupVersionKind;
  requestResource: { group: string; version: string; resource: string };
  requestSubResource?: string;
  name?: string;
  namespace?: string;
  operation: string;
  userInfo: { username: string; groups: string[] };
  object: unknown;
  oldObject: unknown;
  dryRun: boolean;
  options: unknown;
}

/** The kind a request's object has: a scale subresource speaks autoscaling/v1 Scale. */
function kindOf(a: WebhookAttributes): GroupVersionKind {
  if (a.subresource === 'scale') return { group: 'autoscaling', version: 'v1', kind: 'Scale' };
  return { group: a.group, version: a.version, kind: a.kind };
}

/** CreateOptions, UpdateOptions or DeleteOptions, as the handlers hand them to admission. */
function optionsOf(a: WebhookAttributes): unknown {
  const kind =
    a.operation === 'CREATE' ? 'CreateOptions' : a.operation === 'UPDATE' ? 'UpdateOptions' : 'DeleteOptions';
  return {
    kind,
    apiVersion: 'meta.k8s.io/v1',
    ...(a.dryRun ? { dryRun: ['All'] } : {}),
    ...(a.fieldManager && a.operation !== 'DELETE' ? { fieldManager: a.fieldManager } : {}),
  };
}

/** The request part of the review (JSON omitempty: no empty name, namespace or subresource). */
export function admissionRequest(a: WebhookAttributes): AdmissionRequestV1 {
  const kind = kindOf(a);
  const resource = { group: a.group, version: a.version, resource: a.resource };
  return {
    uid: randomUUID(),
    kind,
    resource,
    ...(a.subresource ? { subResource: a.subresource } : {}),
    requestKind: kind,
    requestResource: resource,
    ...(a.subresource ? { requestSubResource: a.subresource } : {}),
    ...(a.name ? { name: a.name } : {}),
    ...(a.namespace ? { namespace: a.namespace } : {}),
    operation: a.operation,
    userInfo: { username: a.user.username, groups: [...a.user.groups] },
    object: a.object ?? null,
    oldObject: a.oldObject ?? null,
    dryRun: a.dryRun,
    options: optionsOf(a),
  };
}

const status = z
  .object({
    status: z.string().optional(),
    message: z.string().optional(),
    reason: z.string().optional(),
    details: z.record(z.string(), z.unknown()).nullable().optional(),
    code: z.number().int().optional(),
  })
  .nullable()
  .optional();

const reviewSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  response: z
    .object({
      uid: z.string().optional(),
      allowed: z.boolean().optional(),
      status,
      patch: z.string().nullable().optional(),
      patchType: z.string().nullable().optional(),
      warnings: z.array(z.string()).nullable().optional(),
    })
    .nullable()
    .optional(),
});

/** The answer did not decode (client-go's Into fails: "failed to call webhook"). */
export class DecodeError extends Error {}

export interface WebhookVerdict {
  allowed: boolean;
  status?: {
    status?: string;
    message?: string;
    reason?: string;
    details?: Record<string, unknown>;
    code?: number;
  };
  warnings: string[];
}

/**
 * The webhook's verdict, or why its answer is not one: a DecodeError, or an Error for a
 * review that decodes but fails verification ("received invalid webhook response").
 */
export function verifyResponse(
  body: unknown,
  request: AdmissionRequestV1,
  version: 'v1' | 'v1beta1',
): WebhookVerdict {
  const parsed = reviewSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DecodeError(
      `json: cannot unmarshal the field ${issue?.path.join('.') ?? ''} of AdmissionReview: ${issue?.message ?? 'invalid'}`,
    );
  }
  const review = parsed.data;
  const response = review.response;
  if (!response) throw new Error('webhook response was absent');
  if (version === 'v1') {
    if ((response.uid ?? '') !== request.uid)
      throw new Error(`expected response.uid="${request.uid}", got "${response.uid ?? ''}"`);
    const [group, v] = (review.apiVersion ?? '').includes('/')
      ? (review.apiVersion ?? '').split('/', 2)
      : ['', review.apiVersion ?? ''];
    if (group !== 'admission.k8s.io' || v !== 'v1' || review.kind !== 'AdmissionReview')
      throw new Error(
        `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${group}/${v}, Kind=${review.kind ?? ''}`,
      );
    if (response.patch) throw new Error('validating webhook may not return response.patch');
    if (response.patchType !== undefined && response.patchType !== null)
      throw new Error('validating webhook may not return response.patchType');
  }
  const s = response.status ?? undefined;
  return {
    allowed: response.allowed ?? false,
    ...(s
      ? {
          status: {
            ...(s.status !== undefined ? { status: s.status } : {}),
            ...(s.message !== undefined ? { message: wellFormed(s.message) } : {}),
            ...(s.reason !== undefined ? { reason: wellFormed(s.reason) } : {}),
            ...(s.details ? { details: s.details } : {}),
            ...(s.code !== undefined ? { code: s.code } : {}),
          },
        }
      : {}),
    warnings: (response.warnings ?? []).map(wellFormed),
  };
}
