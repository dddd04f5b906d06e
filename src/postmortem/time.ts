/**
 * Times of a post-mortem: UTC and the reader's zone side by side ("2026-11-27 09:40:05"
 * and "2026-11-27 18:40:05 GMT+9"). The zone is an IANA name (`--tz`, else TZ); a name
 * the runtime does not know is refused, never taken for UTC. Pure.
 */
const parts = (zone: string) =>
  new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });

/** True when `zone` is a time zone this runtime knows (an IANA name such as Asia/Seoul, or UTC). */
export function isTimeZone(zone: string): boolean {
  try {
    parts(zone);
    return zone.length > 0 && zone.length <= 64;
  } catch {
    return false;
  }
}

/** `iso` in `zone`: "YYYY-MM-DD HH:MM:SS" and the offset ("GMT+9"; "UTC" for UTC). */
export function zonedTime(iso: string, zone: string): { time: string; offset: string } {
  const by = Object.fromEntries(
    parts(zone)
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  const offset = by['timeZoneName'] === 'GMT' ? 'UTC' : (by['timeZoneName'] ?? zone);
  return {
    time: `${by['year']}-${by['month']}-${by['day']} ${by['hour']}:${by['minute']}:${by['second']}`,
    offset,
  };
}

/** `iso` in UTC: "YYYY-MM-DD HH:MM:SS". */
export function utcTime(iso: string): string {
  return new Date(iso).toISOString().slice(0, 19).replace('T', ' ');
}
