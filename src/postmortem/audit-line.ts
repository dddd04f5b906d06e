/**
 * An audit log line as the app and the workers write it (src/audit.ts through pino,
 * src/logger.ts): one JSON object a line, `audit: true`, the event under `event`, the
 * time under `time` (epoch milliseconds, pino's default). Every field is checked here:
 * a log line is untrusted input to the post-mortem. Pure.
 */
import { z } from 'zod';
import type { AuditEvent } from '../audit.js';

/** Bounds that keep one hostile line from growing a record without end. */
const TEXT = z.string().max(20_000);
const NAME = z.string().max(300);
const PEOPLE = z.array(NAME).max(50);

const approval = z.object({
  action: z.literal('approval'),
  planId: NAME,
  cluster: NAME,
  namespace: NAME,
  deployment: NAME,
  kind: NAME,
  user: NAME,
  result: z.enum(['claimed', 'recorded']),
  lasts: NAME.optional(),
});

const refusal = z.object({
  action: z.literal('refusal'),
  planId: NAME,
  cluster: NAME.optional(),
  namespace: NAME.optional(),
  deployment: NAME.optional(),
  user: NAME,
  reason: z.enum([
    'not-approver',
    'expired',
    'already-claimed',
    'unknown-plan',
    'same-approver',
    'self-approval',
    'other-plan-approved',
    'not-requester',
    'not-reader',
    'tampered',
    'superseded',
    'outdated',
    'other-duration',
    'not-offered',
    'rate-limited',
    'budget-unread',
    'unfinished',
  ]),
  detail: TEXT.optional(),
});

const notification = z.object({
  action: z.literal('notification'),
  planId: NAME,
  kind: NAME,
  queue: NAME,
  outcome: z.literal('tampered'),
  detail: TEXT,
});

/** Every outcome a remediation can have (src/audit.ts). */
export const OUTCOMES = [
  'applied',
  'already-applied',
  'refused',
  'failed',
  'rolled-out',
  'pods-ready',
  'still-failing',
  'timeout',
  'paused',
  'not-queued',
  'tampered',
] as const;

const outcome = z.object({
  action: z.literal('outcome'),
  planId: NAME,
  cluster: NAME,
  namespace: NAME,
  deployment: NAME,
  kind: NAME,
  approvedBy: PEOPLE,
  outcome: z.enum(OUTCOMES),
  detail: TEXT.optional(),
});

const diagnosis = z.object({
  action: z.literal('diagnosis'),
  planId: z.literal('diagnosis'),
  cluster: NAME,
  namespace: NAME,
  deployment: NAME,
  workloadKind: NAME,
  requestedBy: NAME,
  requestedAt: z.iso.datetime({ offset: true }),
  findings: z
    .array(z.object({ code: NAME, severity: NAME, summary: TEXT, messages: z.array(TEXT).max(20) }))
    .max(50),
  offered: z.array(z.object({ id: NAME, kind: NAME, summary: TEXT })).max(50),
  notOffered: z.array(z.object({ kind: NAME, addresses: NAME, reason: TEXT })).max(50),
  serving: z
    .object({
      desired: z.number().int().nonnegative(),
      available: z.number().int().nonnegative(),
      updated: z.number().int().nonnegative(),
    })
    .optional(),
  manifestChanges: z
    .array(z.object({ addresses: NAME, where: TEXT, diff: TEXT }))
    .max(20)
    .optional(),
});

export const EXCLUSION_CAUSES = ['expired', 'nodes-changed'] as const;
export const EXCLUSION_OUTCOMES = [
  'removed',
  'already-removed',
  'refused',
  'failed',
  'offered',
  'waiting',
] as const;

/** A node exclusion that ended itself, or whose removal was offered (src/worker/exclusion-expiry.ts). */
const exclusion = z.object({
  action: z.literal('exclusion'),
  planId: NAME,
  cluster: NAME,
  namespace: NAME,
  deployment: NAME,
  cause: z.enum(EXCLUSION_CAUSES),
  outcome: z.enum(EXCLUSION_OUTCOMES),
  detail: TEXT.optional(),
});

/** A post-mortem draft posted by the Draft post-mortem button (src/chat/use-cases/postmortem-press.ts). */
const postmortem = z.object({
  action: z.literal('postmortem'),
  planId: z.literal('postmortem'),
  cluster: NAME,
  namespace: NAME,
  incident: TEXT,
  user: NAME,
  channel: NAME,
  file: TEXT,
  posted: z.enum(['file', 'snippets']),
  entries: z.number().int().nonnegative(),
});

/** A "Propose in Git" job's outcome (src/worker/propose-processor.ts). */
const proposal = z.object({
  action: z.literal('proposal'),
  planId: NAME,
  cluster: NAME,
  namespace: NAME,
  deployment: NAME,
  kind: NAME,
  approvedBy: PEOPLE,
  outcome: z.enum(['opened', 'updated', 'unchanged', 'by-hand', 'refused', 'failed', 'tampered']),
  url: TEXT.optional(),
  detail: TEXT.optional(),
});

/** An audit event, every kind src/audit.ts writes. */
export const auditEventSchema = z.discriminatedUnion('action', [
  approval,
  refusal,
  notification,
  outcome,
  diagnosis,
  exclusion,
  postmortem,
  proposal,
]);

// Both ways: the schema accepts every event the code writes, and yields only those.
type Parsed = z.infer<typeof auditEventSchema>;
const writtenIsRead = (event: AuditEvent): Parsed => event;
const readIsWritten = (event: Parsed): AuditEvent => event;
void writtenIsRead;
void readIsWritten;

/** One audit line: the event and when it was logged. */
export const auditLineSchema = z.object({
  time: z.number().int().nonnegative(),
  audit: z.literal(true),
  event: auditEventSchema,
});

/** An audit event with its time (epoch milliseconds). */
export interface TimedEvent {
  at: number;
  event: AuditEvent;
}
