/** Small statistics helpers shared by the benchmarks. */

/** The value at percentile `p` (0-100) of an ascending array (nearest rank). */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Median of unsorted values. */
export function median(values: readonly number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    50,
  );
}

/** Rounds to two decimals for the report. */
export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

/**
 * Longest sequence of requests where each one started after the previous one
 * finished: how many round trips the caller actually waited for in a row.
 */
export function sequentialDepth(requests: readonly { receivedAt?: number; finishedAt?: number }[]): number {
  const timed = requests
    .filter(
      (r): r is { receivedAt: number; finishedAt: number } =>
        r.receivedAt !== undefined && r.finishedAt !== undefined,
    )
    .sort((a, b) => a.receivedAt - b.receivedAt);
  const depth: number[] = [];
  let best = 0;
  for (const [i, r] of timed.entries()) {
    let d = 1;
    for (let j = 0; j < i; j += 1) {
      const before = timed[j];
      if (before && before.finishedAt <= r.receivedAt) d = Math.max(d, (depth[j] ?? 0) + 1);
    }
    depth.push(d);
    best = Math.max(best, d);
  }
  return best;
}
