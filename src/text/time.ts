/**
 * The one time format of our messages (issue 31.5): "2026-11-23 03:12 UTC". Minutes
 * are what someone reading a channel at 3 a.m. compares; the exact instant stays in
 * the JSON report and the audit log. A string that is not a time (an alert's startsAt
 * is the sender's text) is returned as it is, for the renderer to escape.
 */
export function messageTime(value: number | string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}
