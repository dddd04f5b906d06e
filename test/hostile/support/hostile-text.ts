/**
 * Hostile text as workload owners and alert-rule authors can write it, and a scanner
 * that finds live Slack markup in any recorded Web API payload. Written without the
 * code under test, so it judges old and new code alike.
 */

/** Each piece alone; `HOSTILE` joins them all. */
export const HOSTILE_PIECES = [
  '<!channel>',
  '<!here>',
  '<!everyone>',
  '<@U123>',
  '<#C123>',
  '<!subteam^S123>',
  '<!date^1392734382^{date_pretty}|Feb 18>',
  '<https://evil.example|Click to re-authenticate>',
  '<mailto:x@evil.example|mail>',
  'https://evil.example/login',
  '\u202Egnp.exe\u202C \u2066iso\u2069 \u200Fmark\u200E \u061C',
  // Invisible smuggling: a grapheme joiner, variation selectors (U+FE0E, U+E0100), Khmer
  // vowel inherent, a shorthand format control and a musical formatter.
  'in\u034fvis\ufe0ei\udb40\udd00b\u17b4l\ud82f\udca1e\ud834\udd73',
  '```\n*bold*\n```',
  '`inline`',
  '\u001b]8;;https://evil.example\u0007click\u001b]8;;\u0007',
  '\u001b]52;c;ZXZpbA==\u0007',
  '\u001b[2J\u001b[31mred\u001b[0m',
  '\u009b31m\u009d8;;https://evil.example\u009c',
  'bell\u0007 back\u0008\u0008 cr\roverwrite',
  'a&b @channel @here',
  // CI runners' workflow commands, at the start of a line of a log (issue 67.6).
  'x\n::error::pwned\n  ::add-mask::x\n##vso[task.setvariable variable=x]1',
];
export const HOSTILE = HOSTILE_PIECES.join(' ');

/** Shapes that would be live markup or spoofing in Slack. */
const CHECKS: [string, RegExp][] = [
  ['mention or broadcast', /<[!#]|<@(?!U0[A-Z0-9]+>)/],
  ['link', /<(?:https?|mailto|ftp|slack):/i],
  ['angle-bracket label', /<[^<>\n]*\|[^<>\n]*>/],
  ['auto-linked URL', /\b(?:https?|mailto):(?:\/\/)?[^\s]*evil/i],
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  ['control character', /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/],
  [
    'bidi or invisible formatting',
    // eslint-disable-next-line no-misleading-character-class -- a combining mark or variation selector alone is what is matched
    /[\u034f\u061c\u17b4\u17b5\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufe00-\ufe0e\ufeff]|\udb40[\udd00-\uddef]|\ud82f[\udca0-\udca3]|\ud834[\udd73-\udd7a]/,
  ],
  ['bare broadcast word', /(?:^|\s)@(?:channel|here|everyone)\b/i],
];

const INVISIBLE_CHECKS = new Set(['control character', 'bidi or invisible formatting']);

/** Problems in a plain_text object: only what can spoof text shown literally. */
export function problemsInPlainText(text: string): string[] {
  return CHECKS.filter(([name, re]) => INVISIBLE_CHECKS.has(name) && re.test(text)).map(([name]) => name);
}

/** Problems in one mrkdwn text object (or fallback text): markup checks, and code fences balanced. */
export function problemsInText(text: string): string[] {
  const found = CHECKS.filter(([, re]) => re.test(text)).map(([name]) => name);
  const fences = text.split('```').length - 1;
  if (fences % 2 !== 0) found.push('unbalanced code fence');
  // Hostile text inside a code block must not bring its own fence: the block's
  // content holds none of the hostile markers' line "*bold*" between two fences.
  if (/```\s*\n?\*bold\*\s*\n?```/.test(text)) found.push('hostile code fence');
  return found;
}

/** Keys whose values are ids, not shown text. */
const NOT_SHOWN = new Set([
  'action_id',
  'block_id',
  'value',
  'channel',
  'ts',
  'thread_ts',
  'user',
  'type',
  'style',
]);

/**
 * Every shown string in a payload, with its JSON path; `plain` marks the text of a
 * plain_text object, which Slack shows literally (no mentions or links) but which
 * must still be free of control and bidi characters.
 */
export function shownStrings(value: unknown, path = '$'): { path: string; text: string; plain: boolean }[] {
  if (typeof value === 'string') return [{ path, text: value, plain: false }];
  if (Array.isArray(value)) return value.flatMap((v, i) => shownStrings(v, `${path}[${i}]`));
  if (value !== null && typeof value === 'object') {
    const o = value as Record<string, unknown>;
    if (o.type === 'plain_text' && typeof o.text === 'string')
      return [{ path: `${path}.text`, text: o.text, plain: true }];
    return Object.entries(o).flatMap(([k, v]) => (NOT_SHOWN.has(k) ? [] : shownStrings(v, `${path}.${k}`)));
  }
  return [];
}

/** "path: problem (text…)" for every problem in a payload; empty when it is clean. */
export function unsafeMarkup(payload: unknown): string[] {
  return shownStrings(payload).flatMap(({ path, text, plain }) =>
    (plain ? problemsInPlainText(text) : problemsInText(text)).map(
      (p) => `${path}: ${p} (${JSON.stringify(text.slice(0, 160))})`,
    ),
  );
}

/** Every string of a JSON-like value with HOSTILE appended, except the keys in `keep` (enums, codes). */
export function poison<T>(value: T, keep: ReadonlySet<string>, key = ''): T {
  if (typeof value === 'string') return (keep.has(key) ? value : `${value} ${HOSTILE}`) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => poison(v, keep, key)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = poison(v, keep, k);
    return out as T;
  }
  return value;
}
