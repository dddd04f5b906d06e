import { columns, tableCell } from '../text/columns.js';

/**
 * Fixed-width table as text: columns padded to their widest cell. Each cell is one line
 * of at most CELL_MAX characters (tableCell): a break in a reason would forge a row, and
 * a 20,000-character one would pad every row; anything shorter is never cut ("node
 * affinit…" hid the reason).
 */
export function table(header: readonly string[], untrustedRows: readonly (readonly string[])[]): string {
  // Cells are text whatever job JSON held (a number, an object): measured as shown, by
  // terminal columns, so a Korean header lines up with its rows.
  const rows = untrustedRows.map((r) => r.map(tableCell));
  const widths = header.map((h, i) => Math.max(columns(h), ...rows.map((r) => columns(r[i] ?? ''))));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c + ' '.repeat(Math.max(0, (widths[i] ?? 0) - columns(c))))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}
