/** Small text helpers shared by the report renderers: tables, indentation, optional ANSI colour. */
import { cleanText } from '../text/clean.js';
import { columns, tableCell } from '../text/columns.js';
import { cutText } from '../text/cut.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
  green(text: string): string;
}

const ansi =
  (open: number, close: number) =>
  (text: string): string =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const plain = (text: string): string => text;

export function makeStyle(color: boolean): Style {
  if (!color) return { bold: plain, dim: plain, red: plain, yellow: plain, cyan: plain, green: plain };
  return {
    bold: ansi(1, 22),
    dim: ansi(2, 22),
    red: ansi(31, 39),
    yellow: ansi(33, 39),
    cyan: ansi(36, 39),
    green: ansi(32, 39),
  };
}

/**
 * Left-aligned columns separated by two spaces; cells are single-line (newlines become
 * spaces). Cells are cleaned (cleanText: terminal escapes, bidi and zero-width
 * characters removed) before they are measured and padded, so hostile text can
 * neither survive nor misalign a column; cells carry no styling of ours.
 */
export function table(header: string[], rows: string[][]): string[] {
  const clean = (cell: string): string => tableCell(cleanText(cell, { singleLine: true }));
  const all = [header, ...rows].map((row) => row.map(clean));
  // Padded by terminal columns, so a Korean header or cell lines up (ASCII as before).
  const widths = header.map((_, i) => Math.max(...all.map((row) => columns(row[i] ?? ''))));
  return all.map((row) =>
    row
      .map((cell, i) =>
        i === row.length - 1 ? cell : cell + ' '.repeat(Math.max(0, (widths[i] ?? 0) - columns(cell))),
      )
      .join('  ')
      .trimEnd(),
  );
}

export function indent(lines: string[], by: number): string[] {
  const pad = ' '.repeat(by);
  return lines.map((line) => (line ? pad + line : line));
}

/** The longest word prose shows whole: an image reference with its digest fits, a 20 kB reason does not. */
const WORD_MAX = 400;

/**
 * Wraps one paragraph of prose at `width` columns without breaking words; wide characters
 * count two. A line break in the text is a space like any other: prose carries values
 * from the cluster (a kernel version, a message), and a break in one must not start a
 * line that reads as the report's own ("No problem found"). Callers that want several
 * lines wrap each.
 */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const whole of text.split(/\s+/).filter(Boolean)) {
    // A word no line can hold (a 20,000-character reason from the cluster) is cut.
    const word = cutText(whole, WORD_MAX);
    if (line && columns(line) + 1 + columns(word) > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** Text on one line: every run of whitespace with a line break in it a single space. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ');
}
