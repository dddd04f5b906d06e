/**
 * Fixed-width table as text: columns padded to their widest cell. Cells are never cut
 * ("node affinit…" hid the reason); a very wide column just wraps.
 */
export function table(header: readonly string[], untrustedRows: readonly (readonly string[])[]): string {
  // Cells are text whatever job JSON held (a number, an object): measured as shown.
  const rows = untrustedRows.map((r) => r.map((c) => (typeof c === 'string' ? c : String(c ?? ''))));
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
