import { cutText } from './cut.js';

/** Wide characters (Hangul, CJK, full-width forms) take two terminal columns. */
const WIDE = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/g;

/** How many terminal columns `text` takes (a Korean syllable two, as terminals draw it). */
export function columns(text: string): number {
  return text.length + (text.match(WIDE)?.length ?? 0);
}

/** The most characters a table cell shows: a 20,000-character reason would pad every row to its width. */
export const CELL_MAX = 200;

/**
 * A table cell as shown on every surface (terminal, Slack code block, Teams table): one
 * line (a break in a reason or message would start a row that reads as the table's
 * own), whitespace runs as one space, at most CELL_MAX characters with '…' where cut.
 * @example tableCell('CrashLoop\nnode-z  Running') === 'CrashLoop node-z Running'
 */
export function tableCell(value: unknown): string {
  const flat = (typeof value === 'string' ? value : String(value ?? '')).replace(/[\s\u0085]+/g, ' ').trim();
  return cutText(flat, CELL_MAX);
}
