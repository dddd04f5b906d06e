/**
 * An audit log's text (JSON lines as the app and the workers log them) read into
 * timestamped audit events. Every line is checked (audit-line.ts): a line that is not
 * an audit record (another log line, a stray stderr line) is foreign and counted; an
 * audit record of a shape this version does not know is counted apart, never half-read.
 * Pure.
 */
import { auditLineSchema, type TimedEvent } from './audit-line.js';

export interface AuditLog {
  events: TimedEvent[];
  /** Lines that are not audit records (other log lines, text that is not JSON). */
  foreign: number;
  /** Audit records (`"audit":true`) whose event this version does not read. */
  unreadable: number;
}

function parsed(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

/** Reads the audit events of `text`, one JSON object a line. */
export function readAuditLog(text: string): AuditLog {
  const log: AuditLog = { events: [], foreign: 0, unreadable: 0 };
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const json = parsed(line);
    if (typeof json !== 'object' || json === null || (json as { audit?: unknown }).audit !== true) {
      log.foreign += 1;
      continue;
    }
    const result = auditLineSchema.safeParse(json);
    if (result.success) log.events.push({ at: result.data.time, event: result.data.event });
    else log.unreadable += 1;
  }
  return log;
}

/** One audit line as src/audit.ts writes it (for a record kept elsewhere than a log, and for tests). */
export function auditLineOf(entry: TimedEvent): string {
  return JSON.stringify({ time: entry.at, audit: true, event: entry.event });
}
