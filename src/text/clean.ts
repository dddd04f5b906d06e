/**
 * Cleaning of text we did not write (cluster objects, logs, alert labels) before it
 * reaches a person, in Slack or on a terminal. Shared by src/chat/slack/blocks/mrkdwn.ts
 * (Slack) and the text report (CLI), so both strip exactly the same things.
 */

import { plainCodeSpans } from './code-span.js';

/**
 * Terminal escape sequences, 7-bit and 8-bit: OSC (ESC ] or U+009D … BEL or ST,
 * e.g. OSC 8 hyperlinks and OSC 52 clipboard writes), DCS/SOS/PM/APC strings
 * (ESC P, X, ^, _ or U+0090/0098/009E/009F … ST), CSI (ESC [ or U+009B, then
 * parameters and a final byte) and two-byte ESC sequences. The string forms are
 * removed whole so that their payload (a URL, base64 for the clipboard) does not
 * stay behind as text.
 */
const ESCAPE_SEQUENCE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /(?:\u001b[\]PX^_]|[\u009d\u0090\u0098\u009e\u009f])[^\u0007\u001b\u009c]*(?:\u0007|\u001b\\|\u009c)?|(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|\u001b[\u0020-\u002f]*[\u0030-\u007e]?/g;

/**
 * Characters that control a terminal or can make displayed text differ from what it
 * says: C0 controls except \n and \t (BEL, backspace and CR can overwrite what was
 * printed), DEL, C1 controls, bidirectional overrides, embeddings and isolates
 * (U+202A-202E, U+2066-2069), direction marks (U+200E/200F, U+061C), zero-width and
 * invisible formatting characters (U+200B-200D, U+2060-2064, U+FEFF, U+00AD, U+180B-180F,
 * U+115F/1160, U+3164, U+FFA0, U+034F combining grapheme joiner, U+17B4/17B5, the
 * shorthand format controls U+1BCA0-1BCA3 and musical formatters U+1D173-1D17A),
 * variation selectors (U+FE00-FE0E, U+E0100-E01EF: invisible code points that together
 * can carry any bytes; U+FE0F, the emoji presentation selector, stays: emoji and our own
 * icons carry it, and alone it carries no bytes), interlinear annotation (U+FFF9-FFFB) and
 * the unassigned specials before it (U+FFF0-FFF8),
 * line and paragraph separators
 * (U+2028/2029) and U+E0000-E0FFF (tag characters among them): with the rest, every
 * Default_Ignorable_Code_Point but U+FE0F (test/unit/clean-text.test.ts holds that).
 */
const INVISIBLE_ABOVE_C0 =
  '[\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufe00-\\ufe0e\\ufeff\\uffa0\\ufff0-\\ufffb]' +
  // Surrogate pairs: the whole ignorable plane-14 block (U+E0000-E0FFF: tag characters,
  // the variation selectors supplement and the unassigned rest), shorthand format controls
  // (U+1BCA0-1BCA3), musical formatters (U+1D173-1D17A), Egyptian hieroglyph format
  // controls (U+13430-1343F).
  '|[\\udb40-\\udb43][\\udc00-\\udfff]|\\ud82f[\\udca0-\\udca3]|\\ud834[\\udd73-\\udd7a]|\\ud80d[\\udc30-\\udc3f]';
// eslint-disable-next-line no-misleading-character-class -- a combining mark or variation selector alone is what is matched
const INVISIBLE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f]|${INVISIBLE_ABOVE_C0}`, 'g');

/**
 * Untrusted text made safe to show: terminal escape sequences removed whole, CRLF
 * and lone CR turned into newlines (a lone CR would let text overwrite its own line),
 * every other control, bidi or invisible formatting character removed. Keeps \n and
 * \t; pass `singleLine` to turn them into spaces (names, titles, button labels).
 *
 * @example cleanText('ok\u001b]52;c;ZXZpbA==\u0007\u202Egnp.exe') === 'okgnp.exe'
 */
export function cleanText(text: string, options: { singleLine?: boolean } = {}): string {
  // Job data read back from Redis is JSON: a field typed string may hold anything.
  const cleaned = plainCodeSpans(typeof text === 'string' ? text : String(text))
    .replace(ESCAPE_SEQUENCE, '')
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '');
  return options.singleLine ? cleaned.replace(/[\n\t]+/g, ' ') : cleaned;
}
/** Every string inside a JSON-like value passed through cleanText; other values kept. */
export function cleanDeep<T>(value: T): T {
  if (typeof value === 'string') return cleanText(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => cleanDeep(v)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[cleanText(k)] = cleanDeep(v);
    return out as T;
  }
  return value;
}

/**
 * JSON text with every non-ASCII control, bidi and invisible character written as a
 * \u escape. JSON.stringify escapes only C0 controls; C1 (U+009B is CSI to some
 * terminals) and bidi overrides would reach a terminal raw. Outside strings JSON is
 * ASCII, so this changes no value: `-o json` stays the raw data.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(
    // eslint-disable-next-line no-misleading-character-class -- a combining mark or variation selector alone is what is matched
    new RegExp(INVISIBLE_ABOVE_C0, 'g'),
    // A Unicode tag character (U+E0000-E007F, invisible "ASCII smuggling") is a surrogate
    // pair: each half written as its own \u escape, which JSON reads back as the pair.
    (c) =>
      c
        .split('')
        .map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`)
        .join(''),
  );
}

/** Line breaks and tabs, with every character cleanText removes: what showControls writes out. */
// eslint-disable-next-line no-misleading-character-class -- a combining mark or variation selector alone is what is matched
const CONTROL_OR_BREAK = new RegExp(`[\\n\\t]|${INVISIBLE.source}`, 'g');

const NAMED_ESCAPES: Record<string, string> = { '\n': '\\n', '\t': '\\t', '\r': '\\r' };

/**
 * Text with every line break, tab, control, bidi or invisible character written out as
 * an escape (`\n`, `\u001b`, `\u{e0041}`) instead of removed: one line that shows what
 * was there. For messages that quote what someone typed or a file holds (a command
 * line's errors), where a value silently changed would name something else: the
 * argument `deployment/\e[31mred` is shown as `\u001b[31mred`, not as `red`, a valid name.
 */
function showControls(text: string): string {
  return text.replace(CONTROL_OR_BREAK, (c) => {
    const named = NAMED_ESCAPES[c];
    if (named) return named;
    const point = c.codePointAt(0) ?? 0;
    return point > 0xffff ? `\\u{${point.toString(16)}}` : `\\u${point.toString(16).padStart(4, '0')}`;
  });
}

/** The longest stretch of a quoted value a one-line message shows. */
const QUOTED_CHARS = 80;

/**
 * A value someone typed or a file holds, for a one-line message: in double quotes (a
 * quote or backslash in it escaped), its controls shown (showControls), and cut after QUOTED_CHARS characters with its length
 * said, so a 100,000-character name does not make a 100 KB error line.
 * @example quoted('a\u001b[31mb') === '"a\\u001b[31mb"'
 */
export function quoted(value: string): string {
  const points = [...value];
  const shown = (text: string): string => showControls(text.replace(/["\\]/g, (c) => `\\${c}`));
  if (points.length <= QUOTED_CHARS) return `"${shown(value)}"`;
  return `"${shown(points.slice(0, QUOTED_CHARS).join(''))}…" (${points.length} characters)`;
}

/** The longest message a command line's error line carries. */
const ERROR_LINE_CHARS = 500;

/**
 * A message for a terminal's error line: controls shown (never removed, never acted on),
 * one line, at most ERROR_LINE_CHARS characters (what was cut is counted).
 */
export function errorLineText(message: string): string {
  const shown = showControls(message);
  const points = [...shown];
  if (points.length <= ERROR_LINE_CHARS) return shown;
  return `${points.slice(0, ERROR_LINE_CHARS).join('')}… (${points.length - ERROR_LINE_CHARS} more characters)`;
}

/**
 * Azure Pipelines' `##vso[` and the runners' older `##[` commands, read anywhere in a
 * line (case aside); GitHub Actions' `::name::` commands, read at a line's start once
 * its leading whitespace is trimmed.
 */
const CI_COMMAND_ANYWHERE = /##(?=vso\\?\[|\\?\[)/gi;
const CI_COMMAND_AT_START = /^(\s*):(?=:)/;

/**
 * A line a CI runner does not read as a workflow or logging command: the `#` of `##vso[`
 * or `##[` (or of their backslash-escaped forms) and the first `:` of a leading `::`
 * written as \u escapes. What `check` prints goes to CI logs. In JSON text, where `#`
 * and `:` only occur inside strings, the escapes decode to the same value.
 * @example ciSafeLine('  ::error::x') === '  \\u003a:error::x'
 */
export function ciSafeLine(line: string): string {
  return line.replace(CI_COMMAND_ANYWHERE, '\\u0023#').replace(CI_COMMAND_AT_START, '$1\\u003a');
}

/** Every line of a text a CI runner may read, as ciSafeLine leaves it (the last guard of each command's output). */
export function ciSafeText(text: string): string {
  return text.split('\n').map(ciSafeLine).join('\n');
}

/**
 * A value we did not write, for one line of a CI log or terminal: every line break,
 * control, bidi or invisible character shown as an escape (showControls), so it can
 * neither start a line of its own nor style or reorder one, and nothing in it a CI
 * runner reads as a command (ciSafeLine).
 * @example lineValue('a\n::error::x') === 'a\\n::error::x'
 */
export function lineValue(value: string): string {
  return ciSafeLine(showControls(typeof value === 'string' ? value : String(value)));
}

/** The longest message text a SARIF result carries. */
const SARIF_MESSAGE_CHARS = 1000;

/**
 * Text for a SARIF message (plain text, where `[label](target)` is an embedded link and
 * GitHub renders some markdown): backslash, brackets, backticks, angle brackets and `!`
 * escaped with a backslash (SARIF 2.1.0 §3.11.6 escapes `[` and `]` so), parentheses too
 * with `parens` (a value; our own words keep theirs, harmless without a bracket),
 * controls shown as escapes: never a link, image, HTML or code span.
 */
export function sarifText(text: string, options: { parens?: boolean } = {}): string {
  const special = options.parens ? /[\\[\]()`<>!]/g : /[\\[\]`<>!]/g;
  return lineValue(text.replace(special, (c) => `\\${c}`));
}

/** A value for a SARIF message: in double quotes, defanged (sarifText), cut after QUOTED_CHARS characters. */
export function sarifQuoted(value: string): string {
  const points = [...value];
  const shown = (text: string): string => sarifText(text, { parens: true }).replace(/"/g, '\\"');
  if (points.length <= QUOTED_CHARS) return `"${shown(value)}"`;
  return `"${shown(points.slice(0, QUOTED_CHARS).join(''))}…" (${points.length} characters)`;
}

/** A SARIF message of at most SARIF_MESSAGE_CHARS characters, what was cut counted. */
export function sarifMessage(text: string): string {
  const points = [...text];
  if (points.length <= SARIF_MESSAGE_CHARS) return text;
  return `${points.slice(0, SARIF_MESSAGE_CHARS).join('')}… (${points.length - SARIF_MESSAGE_CHARS} more characters)`;
}
