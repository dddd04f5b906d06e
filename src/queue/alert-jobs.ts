import { z } from 'zod';
import { WORKLOAD_KINDS } from '../diagnosis/workload-ref.js';

/**
 * Job data the alert flow puts on the shared queues (src/queue owns the queues; these
 * are the alert-specific shapes). Job data is stored in clear text in Redis: names
 * and hashes only, never tokens.
 */

const hash = z.string().regex(/^[0-9a-f]{32}$/);

/** Where a diagnosis made for an alert goes: the thread of that group and workload. */
const alertThreadRefSchema = z.object({
  kind: z.literal('alert-thread'),
  groupHash: hash.optional(),
  workloadHash: hash,
});
/** The workload an alert is about, as far as the app can tell without cluster access. */
const alertWorkloadSchema = z.object({
  cluster: z.string().min(1),
  namespace: z.string().min(1),
  /** Named by a workload alert (of kind `kind`), or a Deployment's guessed from pod names (`guessed`). */
  deployment: z.string().min(1).optional(),
  /** The named workload's kind; absent means a Deployment (jobs queued before kinds). */
  kind: z.enum(WORKLOAD_KINDS).optional(),
  guessed: z.boolean(),
  /** Pods named by pod alerts: the worker reads their ownerReferences. */
  pods: z.array(z.string().min(1)).max(20),
});
/** Notify job: open, update or resolve the Slack thread of one group and workload. */
export const alertThreadJobSchema = z.object({
  kind: z.literal('alert-thread'),
  groupHash: hash,
  workloadHash: hash,
  channel: z.string().min(1),
  status: z.enum(['firing', 'resolved']),
  workload: alertWorkloadSchema,
  alertNames: z.array(z.string()).max(50),
  summary: z.string().max(300).optional(),
  startsAt: z.string(),
  endsAt: z.string().optional(),
  externalURL: z.string().max(500).optional(),
  truncatedAlerts: z.number().int().nonnegative(),
  /** When the app received the notification (RFC 3339). */
  receivedAt: z.string(),
});
export type AlertThreadJob = z.infer<typeof alertThreadJobSchema>;

/**
 * Notify job: the workloads of one notification past the per-notification cap, in one
 * message per channel, instead of a thread and a diagnosis each.
 */
export const alertOverflowJobSchema = z.object({
  kind: z.literal('alert-overflow'),
  groupHash: hash,
  channel: z.string().min(1),
  workloads: z.number().int().positive(),
  firing: z.number().int().nonnegative(),
  limit: z.number().int().positive(),
  /** Which cap: one notification's (ROLLOUT_DOCTOR_ALERT_MAX_WORKLOADS) or the minute's across notifications. */
  cause: z.enum(['notification', 'minute']).default('notification'),
  alertNames: z.array(z.string()).max(10),
  namespaces: z.array(z.string()).max(10),
  receivedAt: z.string(),
});
export type AlertOverflowJob = z.infer<typeof alertOverflowJobSchema>;

/** Diagnose request made for an alert: which workload, and which thread gets the answer. */
export const alertDiagnosisRequestSchema = z.object({
  workload: alertWorkloadSchema,
  reply: alertThreadRefSchema,
});
export type AlertDiagnosisRequest = z.infer<typeof alertDiagnosisRequestSchema>;

/** BullMQ deduplication (throttle mode): later adds with the same id are dropped until ttl passes. */
export interface Dedup {
  id: string;
  ttlMs: number;
}

/** Findings worth an incident thread before any alert fires (the worker's watch, the app's opener). */
export const EARLY_WARNING_CODES: readonly string[] = Object.freeze([
  'RolloutSurgeDeadlock',
  'CrashLoopOnNode',
  // A StatefulSet's ordered rollout waiting forever at a pod (its crash loop is the signal).
  'RolloutStuck',
]);
