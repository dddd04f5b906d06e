/**
 * String functions of the Kubernetes CEL environment as cel-go defines them, for the
 * ones where @marcbachmann/cel-js means something else:
 *
 * - Regular expressions (`matches`, and the Kubernetes `find` / `findAll`) are RE2 as Go's
 *   regexp package reads them (POSIX classes, `\A`, `\z`, `\pL`, `\Q…\E`, `(?i)`; no
 *   lookaround, no backreferences), evaluated with re2js (a port of RE2/J, see
 *   docs/architecture.md). The library runs them as JavaScript RegExps.
 * - Positions and lengths count code points (cel-go's ext strings work on runes), where
 *   JavaScript counts UTF-16 units: `indexOf`, `lastIndexOf`, `substring`, `charAt`, and
 *   `split` with an empty separator.
 * - `lowerAscii` / `upperAscii` change ASCII letters only; `trim` removes what Go's
 *   strings.TrimSpace removes (JavaScript's trim differs at U+0085 and U+FEFF).
 *
 * Arguments for which cel-go fails (an index out of range) or whose upstream result this
 * module has not pinned down are not settled here: they raise NotSettled, and the
 * selector is unknown (never a match, never a CEL runtime error on a guess).
 */
import { RE2JS, RE2JSException } from 're2js';

/** A value this module does not settle; the selector becomes unknown. */
export class NotSettled extends Error {}

const patterns = new Map<string, RE2JS | NotSettled>();

/**
 * The longest pattern compiled. Compiling costs time in proportion to its length, and a
 * selector can build a different pattern per device (`"…".matches("<10 KB>|" +
 * device.attributes[…])`): 5,000 devices took 26 s of the worker's event loop. Device
 * selectors use short patterns; a longer one is not evaluated (the selector is unknown).
 */
const MAX_PATTERN = 1024;

/** A pattern as a finding quotes it: at most 80 characters. */
function quoted(pattern: string): string {
  return JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 79)}…` : pattern);
}

function re2(pattern: string): RE2JS {
  let compiled = patterns.get(pattern);
  if (!compiled) {
    if (pattern.length > MAX_PATTERN) {
      throw new NotSettled(
        `the pattern ${quoted(pattern)} has ${pattern.length} characters, more than the ${MAX_PATTERN} this evaluator compiles`,
      );
    }
    try {
      compiled = RE2JS.compile(pattern);
    } catch (error) {
      const why = error instanceof RE2JSException ? error.message : String(error);
      // Upstream this is an error too: a compile error where the pattern is a constant
      // (Kubernetes precompiles them, so a new object is refused at admission), a CEL
      // runtime error otherwise. Which one applies is not decided here.
      compiled = new NotSettled(`the pattern ${quoted(pattern)} is not valid RE2 (${why})`);
    }
    if (patterns.size > 1000) patterns.clear();
    patterns.set(pattern, compiled);
  }
  if (compiled instanceof NotSettled) throw compiled;
  return compiled;
}

/** `s.matches(re)`: an unanchored search, as Go's regexp.MatchString. */
export function celMatches(s: string, pattern: string): boolean {
  return re2(pattern).test(s);
}

/** `s.find(re)` (Kubernetes regex library): the leftmost match, or "". */
export function celFind(s: string, pattern: string): string {
  const found: unknown = re2(pattern).re2Input.find(s);
  return typeof found === 'string' ? found : '';
}

/** `s.findAll(re[, limit])`: successive non-overlapping matches, as Go's FindAllString. */
export function celFindAll(s: string, pattern: string, limit = -1n): string[] {
  if (limit === 0n) return [];
  const n = limit < 0n || limit > BigInt(Number.MAX_SAFE_INTEGER) ? -1 : Number(limit);
  const found: unknown = re2(pattern).re2Input.findAll(s, n);
  return Array.isArray(found) ? found.map(String) : [];
}

const codePoints = (s: string): string[] => Array.from(s);

function index(n: bigint): number {
  if (n < BigInt(Number.MIN_SAFE_INTEGER) || n > BigInt(Number.MAX_SAFE_INTEGER)) return -1;
  return Number(n);
}

function outOfRange(fn: string, n: bigint): NotSettled {
  return new NotSettled(`${fn}: index ${n} is out of range (an error upstream)`);
}

function searchForward(runes: string[], sub: string[], from: number): bigint {
  for (let i = from; i + sub.length <= runes.length; i++) {
    if (sub.every((r, j) => runes[i + j] === r)) return BigInt(i);
  }
  return -1n;
}

function searchBackward(runes: string[], sub: string[], from: number): bigint {
  for (let i = Math.min(from, runes.length - sub.length); i >= 0; i--) {
    if (sub.every((r, j) => runes[i + j] === r)) return BigInt(i);
  }
  return -1n;
}

export function celIndexOf(s: string, search: string, offset?: bigint): bigint {
  if (search === '') return offset ?? 0n;
  const runes = codePoints(s);
  const from = offset === undefined ? 0 : index(offset);
  // cel-go refuses an offset outside the string; with no offset on an empty string
  // versions differ (an error or -1): neither is settled here.
  if (from < 0 || from >= runes.length) throw outOfRange('indexOf', offset ?? 0n);
  return searchForward(runes, codePoints(search), from);
}

export function celLastIndexOf(s: string, search: string, offset?: bigint): bigint {
  const runes = codePoints(s);
  if (search === '') return offset ?? BigInt(runes.length);
  const from = offset === undefined ? runes.length - 1 : index(offset);
  if (from < 0 || from >= runes.length) throw outOfRange('lastIndexOf', offset ?? -1n);
  return searchBackward(runes, codePoints(search), from);
}

export function celSubstring(s: string, start: bigint, end?: bigint): string {
  const runes = codePoints(s);
  const from = index(start);
  const to = end === undefined ? runes.length : index(end);
  if (from < 0 || from > runes.length) throw outOfRange('substring', start);
  if (to < from || to > runes.length) throw outOfRange('substring', end ?? start);
  return runes.slice(from, to).join('');
}

export function celCharAt(s: string, at: bigint): string {
  const runes = codePoints(s);
  const i = index(at);
  if (i < 0 || i > runes.length) throw outOfRange('charAt', at);
  return runes[i] ?? '';
}

/** Go's strings.SplitN: an empty separator splits into code points. */
export function celSplit(s: string, separator: string, limit = -1n): string[] {
  if (limit === 0n) return [];
  const parts = separator === '' ? codePoints(s) : s.split(separator);
  if (limit < 0n || BigInt(parts.length) <= limit) return parts;
  const n = Number(limit);
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}

export const celLowerAscii = (s: string): string => s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
export const celUpperAscii = (s: string): string => s.replace(/[a-z]+/g, (m) => m.toUpperCase());

// unicode.IsSpace: \t \n \v \f \r, space, U+0085, U+00A0 and the White_Space property.
const SPACE = '[\\t\\n\\v\\f\\r \\u0085\\u00a0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]';
const TRIM = new RegExp(`^${SPACE}+|${SPACE}+$`, 'gu');
export const celTrim = (s: string): string => s.replace(TRIM, '');

/** Whether a string has a character outside the Basic Multilingual Plane. */
export const hasAstral = (s: string): boolean => /[\u{10000}-\u{10FFFF}]/u.test(s);
