/**
 * Markdown that text we did not write (cluster messages, names, user ids, plan
 * summaries) cannot break out of: inline text with every character Markdown or HTML
 * reads escaped, code spans and fenced blocks whose fence is longer than any run of
 * backticks inside. Controls, terminal escapes and invisible characters are removed
 * first (src/text/clean.ts), as for every other surface. Pure.
 */
import { cleanText } from '../text/clean.js';
import { splitCodeSpans } from '../text/code-span.js';

/**
 * Characters CommonMark or GFM give a meaning inside a line: emphasis, code, links and
 * images, HTML and entities, tables, strikethrough, autolinks (`:` of a scheme, `@` of
 * an address).
 */
const INLINE_SPECIAL = /[\\`*_[\]<>|~&!:@]/g;
/** What a line starting with it would become: a heading, list, quote or setext underline. */
const LEADING_BLOCK = /^(\s*)([#>+=-]|\d+(?=[.)]))/;

function escapeProse(text: string, first: boolean): string {
  const escaped = text.replace(INLINE_SPECIAL, (c) => `\\${c}`).replace(/\b(www)\./gi, '$1\\.');
  // Only the start of the whole text can start a block; digits are kept, their dot escaped.
  if (!first) return escaped;
  return escaped.replace(LEADING_BLOCK, (_m, space: string, mark: string) =>
    /^\d/.test(mark) ? `${space}${mark}\\` : `${space}\\${mark}`,
  );
}

function longestRun(text: string, char: string): number {
  let longest = 0;
  let run = 0;
  for (const c of text) {
    run = c === char ? run + 1 : 0;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Untrusted text as inline code: one line, delimited by more backticks than it holds. */
export function mdCode(text: string): string {
  const clean = cleanText(text, { singleLine: true });
  const ticks = '`'.repeat(longestRun(clean, '`') + 1);
  // A space on each side keeps a leading or trailing backtick (or space) inside the span.
  const pad = /^[` ]|[` ]$/.test(clean) ? ' ' : '';
  return clean === '' ? '` `' : `${ticks}${pad}${clean}${pad}${ticks}`;
}

/** Untrusted text as plain inline Markdown (one line): nothing in it formats, links or opens HTML. */
export function mdText(text: string): string {
  return splitCodeSpans(cleanText(text, { singleLine: true }))
    .map((part, i) => (part.code ? mdCode(part.text) : escapeProse(part.text, i === 0)))
    .join('');
}

/**
 * Untrusted text as a fenced code block. The fence is longer than any run of
 * backticks in the text, so no line of it can close the block (CommonMark §4.5);
 * `info` is ours (a language such as `diff`).
 */
export function mdFence(text: string, info = 'text'): string {
  const clean = cleanText(text).replace(/\n+$/, '');
  const fence = '`'.repeat(Math.max(3, longestRun(clean, '`') + 1));
  return `${fence}${info}\n${clean}\n${fence}`;
}

/**
 * A table row of cells already made safe (mdText, mdCode, our words). GFM splits a row
 * at every pipe not escaped, inside code spans too, so each is escaped here.
 */
export function mdRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/(?<!\\)\|/g, '\\|')).join(' | ')} |`;
}
