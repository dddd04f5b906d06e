/**
 * AdmissionReview (admission.k8s.io/v1) as the API server sends it to a validating
 * webhook, and the response it expects: the same apiVersion and kind, `response.uid`
 * equal to `request.uid`, `allowed`, and optional `warnings` and `status` (DESIGN.md §4d;
 * k8s.io/api/admission/v1 types.go). Only what the webhook reads is checked; the
 * objects themselves are validated where they are judged.
 */
import { z } from 'zod';

const groupVersionKind = z.object({ group: z.string(), version: z.string(), kind: z.string() });

export const admissionReviewSchema = z.object({
  apiVersion: z.literal('admission.k8s.io/v1'),
  kind: z.literal('AdmissionReview'),
  request: z
    .object({
      uid: z.string().min(1).max(128),
      kind: groupVersionKind,
      resource: z.object({ group: z.string(), version: z.string(), resource: z.string() }),
      subResource: z.string().optional(),
      name: z.string().optional(),
      namespace: z.string().optional(),
      operation: z.enum(['CREATE', 'UPDATE', 'DELETE', 'CONNECT']),
      userInfo: z.object({ username: z.string().optional() }).loose().optional(),
      object: z.record(z.string(), z.unknown()).nullable().optional(),
      oldObject: z.record(z.string(), z.unknown()).nullable().optional(),
      dryRun: z.boolean().optional(),
    })
    .loose(),
});

type AdmissionReview = z.infer<typeof admissionReviewSchema>;
export type AdmissionRequest = AdmissionReview['request'];

interface AdmissionAnswer {
  allowed: boolean;
  warnings?: string[];
  /** With allowed false: what kubectl prints after "admission webhook … denied the request:". */
  message?: string;
}

export function admissionResponse(uid: string, answer: AdmissionAnswer): object {
  return {
    apiVersion: 'admission.k8s.io/v1',
    kind: 'AdmissionReview',
    response: {
      uid,
      allowed: answer.allowed,
      ...(answer.warnings && answer.warnings.length > 0 ? { warnings: answer.warnings } : {}),
      ...(!answer.allowed
        ? { status: { code: 403, reason: 'Forbidden', message: answer.message ?? '' } }
        : {}),
    },
  };
}
