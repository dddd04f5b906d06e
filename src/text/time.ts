/**
 * The one time format of our messages: "2026-11-23 03:12 UTC". Minutes
 * are what someone reading a channel at 3 a.m. compares; the exact instant stays in
 * the JSON report and the audit log. A string that is not a time (an alert's startsAt
 * is the sender's text) is returned as it is, for the renderer to escape.
 */
export function messageTime(value: number | string | Date): string {
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return `${date.toISOString().replace('T', ' ').slice(0, 16)} UTC`;
}

/** A span in the largest units that matter: "45s", "5m", "1h 30m", "2d 3h". */
export function spanWords(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const units: [number, string][] = [
    [86_400, 'd'],
    [3_600, 'h'],
    [60, 'm'],
    [1, 's'],
  ];
  const parts: string[] = [];
  let rest = s;
  for (const [size, unit] of units) {
    if (rest >= size && parts.length < 2) {
      parts.push(`${Math.floor(rest / size)}${unit}`);
      rest %= size;
    } else if (parts.length > 0) break;
  }
  return parts.length > 0 ? parts.join(' ') : '0s';
}
