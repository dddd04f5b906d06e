import { z } from 'zod';

/**
 * Largest webhook body accepted. Alertmanager's `max_alerts` is unlimited by default,
 * so a huge group could otherwise make us buffer megabytes per request; 1 MiB holds
 * several hundred alerts with generous annotations.
 */
export const DEFAULT_MAX_ALERT_BODY_BYTES = 1024 * 1024;

const labelSet = z.record(z.string(), z.string());

const alertSchema = z.object({
  status: z.enum(['firing', 'resolved']),
  labels: labelSet,
  annotations: labelSet.default({}),
  startsAt: z.string(),
  endsAt: z.string().optional(),
  generatorURL: z.string().optional(),
  fingerprint: z.string().optional(),
});

/** Alertmanager webhook payload, version 4 (DESIGN.md §6). Unknown fields are ignored. */
const alertmanagerPayloadSchema = z.object({
  version: z.literal('4'),
  groupKey: z.string().min(1),
  truncatedAlerts: z.number().int().nonnegative().default(0),
  status: z.enum(['firing', 'resolved']),
  receiver: z.string(),
  groupLabels: labelSet.default({}),
  commonLabels: labelSet.default({}),
  commonAnnotations: labelSet.default({}),
  externalURL: z.string().default(''),
  alerts: z.array(alertSchema),
});

export type AlertmanagerPayload = z.infer<typeof alertmanagerPayloadSchema>;
export type AlertmanagerAlert = AlertmanagerPayload['alerts'][number];

type PayloadParseResult = { ok: true; payload: AlertmanagerPayload } | { ok: false; reason: string };

/**
 * Parses a raw webhook body. Never throws: bad JSON or a payload that does not match
 * version 4 comes back as `{ ok: false, reason }`, the reason naming the bad fields so
 * whoever wired the receiver can fix it from Alertmanager's log.
 *
 * @example parseAlertmanagerPayload('{"version":"4",...}') // { ok: true, payload }
 */
export function parseAlertmanagerPayload(body: string): PayloadParseResult {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not valid JSON' };
  }
  const parsed = alertmanagerPayloadSchema.safeParse(json);
  if (!parsed.success) {
    return { ok: false, reason: describeIssues(parsed.error.issues) };
  }
  return { ok: true, payload: parsed.data };
}

const MAX_REASONS = 5;

function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  const parts = issues.slice(0, MAX_REASONS).map((issue) => {
    const where = issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)';
    return `${where}: ${issue.message}`;
  });
  const more = issues.length > MAX_REASONS ? `; and ${issues.length - MAX_REASONS} more` : '';
  return `invalid Alertmanager payload: ${parts.join('; ')}${more}`;
}
