/**
 * How long a canary `pause` step lasts, as the Argo Rollouts controller reads it
 * (pkg/apis/rollouts/v1alpha1/types.go, RolloutPause.DurationSeconds): an integer is
 * seconds; a string is seconds when it is an integer, else Go's time.ParseDuration
 * ("1h", "90s", "1h30m", "1.5h"); anything else, or no duration, is a pause that waits
 * for a person (PauseDurationNotSet). Pure.
 */

/** Go's time.ParseDuration units, in seconds. */
const UNIT_SECONDS: Record<string, number> = {
  ns: 1e-9,
  us: 1e-6,
  µs: 1e-6,
  μs: 1e-6,
  ms: 1e-3,
  s: 1,
  m: 60,
  h: 3600,
};

/** time.ParseDuration in seconds, or undefined where Go refuses the text. */
export function goDurationSeconds(text: string): number | undefined {
  const body = text.replace(/^[+-]/, '');
  if (body === '0') return 0;
  const part = /(\d+\.?\d*|\.\d+)(ns|us|µs|μs|ms|s|m|h)/y;
  let total = 0;
  let at = 0;
  while (at < body.length) {
    part.lastIndex = at;
    const match = part.exec(body);
    if (!match?.[1] || !match[2]) return undefined;
    total += Number(match[1]) * (UNIT_SECONDS[match[2]] ?? Number.NaN);
    at = part.lastIndex;
  }
  if (at === 0 || !Number.isFinite(total)) return undefined;
  return text.startsWith('-') ? -total : total;
}

/** The seconds a step's `pause` lasts, or undefined: not a pause, or one without a duration (it waits for a person). */
export function pauseSeconds(step: Record<string, unknown> | undefined): number | undefined {
  const pause = step?.['pause'];
  if (typeof pause !== 'object' || pause === null) return undefined;
  const duration = (pause as { duration?: unknown }).duration;
  if (typeof duration === 'number') return Number.isInteger(duration) ? duration : undefined;
  if (typeof duration !== 'string') return undefined;
  if (/^[+-]?\d+$/.test(duration)) return Number(duration);
  const seconds = goDurationSeconds(duration);
  // DurationSeconds truncates to whole seconds.
  return seconds === undefined ? undefined : Math.trunc(seconds);
}
