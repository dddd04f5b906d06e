/**
 * How far apart the processes' clocks may be. Signatures, plan expiries and
 * approvals carry times one process wrote and another checks: the app signs a job until
 * a time a worker compares with its own clock, a worker stores a plan until a time the
 * app compares with its clock. Every such check allows CLOCK_SKEW_TOLERANCE_MS either
 * way. Each process compares its clock with Redis's (TIME) at start and every minute
 * (src/queue/clock-watch.ts) and takes these times from Redis's clock;
 * beyond the tolerance it says so (log, metric), and where Redis's clock is unknown it
 * answers with the clock, not with "expired" or "tampered" (docs/operations.md, "Clocks").
 */

/** The skew every freshness window tolerates, either way. */
export const CLOCK_SKEW_TOLERANCE_MS = 60_000;

/** True once `now` is past `expiresAt` by more than the tolerated skew. */
export function expiredBeyondSkew(now: number, expiresAt: number): boolean {
  return now > expiresAt + CLOCK_SKEW_TOLERANCE_MS;
}

/** "30 min 4 s ahead of", "20 min behind", "1.2 s ahead of": this clock against another. */
export function offsetWords(offsetMs: number): string {
  const abs = Math.abs(offsetMs);
  const total = Math.round(abs / 1000);
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const size =
    minutes > 0
      ? `${minutes} min${seconds > 0 ? ` ${seconds} s` : ''}`
      : `${(abs / 1000).toFixed(abs < 10_000 ? 1 : 0)} s`;
  return `${size} ${offsetMs >= 0 ? 'ahead of' : 'behind'}`;
}
