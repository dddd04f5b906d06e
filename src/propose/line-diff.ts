/**
 * A line diff of two short texts (the same document before and after an edit, both as
 * the `yaml` package writes them), and the edit carried over to the text as written: a
 * line the edit did not touch keeps its own spacing and comments. Pure.
 */

type LineOp = { op: 'same'; a: number } | { op: 'del'; a: number } | { op: 'ins'; b: number };

/** Longest common subsequence over the middle that differs; undefined past `limit` cells. */
function lineOps(a: readonly string[], b: readonly string[], limit = 4_000_000): LineOp[] | undefined {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start += 1;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA -= 1;
    endB -= 1;
  }
  const n = endA - start;
  const m = endB - start;
  if (n * m > limit) return undefined;
  // lcs at (i, j): the common lines of a[start+i..endA) and b[start+j..endB), row-major.
  const width = m + 1;
  const lcs = new Uint32Array((n + 1) * width);
  const at = (i: number, j: number): number => lcs[i * width + j] ?? 0;
  for (let i = n - 1; i >= 0; i -= 1)
    for (let j = m - 1; j >= 0; j -= 1)
      lcs[i * width + j] =
        a[start + i] === b[start + j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const ops: LineOp[] = [];
  for (let k = 0; k < start; k += 1) ops.push({ op: 'same', a: k });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      ops.push({ op: 'same', a: start + i });
      i += 1;
      j += 1;
    } else if (j < m && (i === n || at(i, j + 1) >= at(i + 1, j))) {
      ops.push({ op: 'ins', b: start + j });
      j += 1;
    } else {
      ops.push({ op: 'del', a: start + i });
      i += 1;
    }
  }
  for (let k = endA; k < a.length; k += 1) ops.push({ op: 'same', a: k });
  return ops;
}

const squeezed = (line: string): string => line.replace(/\s+/g, '');

/**
 * `written` (the text as in the file) with the change from `before` to `after` (both as
 * the yaml package writes them), or undefined when `before` is not `written` line for
 * line (then the caller writes `after` whole).
 */
export function carryEdit(written: string, before: string, after: string): string | undefined {
  const lines = (text: string): string[] => text.replace(/\n+$/, '').split('\n');
  const w = lines(written);
  const a = lines(before);
  const b = lines(after);
  if (w.length !== a.length || w.some((line, k) => squeezed(line) !== squeezed(a[k] ?? ''))) return undefined;
  const ops = lineOps(a, b);
  if (!ops) return undefined;
  const out = ops.flatMap((o) => (o.op === 'same' ? [w[o.a] ?? ''] : o.op === 'ins' ? [b[o.b] ?? ''] : []));
  const tail = /\n+$/.exec(written)?.[0] ?? '';
  return `${out.join('\n')}${tail}`;
}
