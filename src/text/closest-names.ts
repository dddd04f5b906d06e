/**
 * "Did you mean …?": the names closest to a mistyped one, by edit distance
 * (Levenshtein, with a swap of two neighbouring letters counted as one edit, as
 * typos go). Pure, for the worker's not-found answer and the command line alike.
 */

/** Optimal string alignment distance: inserts, deletes, substitutions and adjacent swaps. */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) =>
    Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i < rows; i += 1) {
    for (let j = 1; j < cols; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const row = d[i] as number[];
      const prev = d[i - 1] as number[];
      let best = Math.min(
        (prev[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (prev[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/**
 * Up to `max` of `candidates` close enough to `name` to be what was meant, closest
 * first (ties in the order given). Close enough: at most a third of the longer name's
 * letters differ (at least 2 edits allowed), or one name contains the other
 * ("tracker" for "vision-object-tracker").
 *
 * @example closestNames('vison-tracker', ['vision-tracker', 'checkout']) // ['vision-tracker']
 */
export function closestNames(name: string, candidates: readonly string[], max = 3): string[] {
  const scored = [...new Set(candidates)]
    .filter((c) => c !== name)
    .map((c, order) => {
      const distance = editDistance(name, c);
      const allowed = Math.max(2, Math.floor(Math.max(name.length, c.length) / 3));
      const contains = name.length >= 3 && (c.includes(name) || name.includes(c));
      return { c, order, distance, close: distance <= allowed || contains };
    })
    .filter((s) => s.close)
    .sort((x, y) => x.distance - y.distance || x.order - y.order);
  return scored.slice(0, max).map((s) => s.c);
}
