import { allowedUrl } from '../../../text/allowed-url.js';
import { splitCodeSpans } from '../../../text/code-span.js';
import { cleanText } from '../../../text/clean.js';
import { cutText } from '../../../text/cut.js';

/**
 * Safe Slack text by construction. Slack reads `<…>` in mrkdwn (and in a message's
 * fallback `text`) as mentions (`<!channel>`, `<@U1>`, `<!subteam^S1>`), channel
 * links, dates and disguised links (`<https://x|Click>`). Text we did not write
 * becomes Mrkdwn only through `escapeMrkdwn`, the `mrkdwn` template (which escapes
 * every interpolated string) or `codeBlock`/`inlineCode`; `trusted` marks literals
 * we wrote. Block builders take Mrkdwn, so joining raw cluster text in is a type
 * error, not a review finding.
 */
export type Mrkdwn = string & { readonly __brand: 'Mrkdwn' };

/** Text for plain_text objects (buttons, headers, confirm dialogs): cleaned, one line. */
export type PlainText = string & { readonly __brand: 'PlainText' };

/**
 * The look-alike that replaces every backtick of untrusted text: U+02CB MODIFIER
 * LETTER GRAVE ACCENT renders as a visible grave accent, but Slack does not treat it
 * as code markup, so cluster text can neither open nor close a code span or fence.
 */
export const BACKTICK_LOOKALIKE = '\u02cb';

/**
 * Bare URLs auto-link in mrkdwn. A termination message saying "re-authenticate at
 * https://evil.example" would be one click away, in a message that looks like ours,
 * so a scheme's "://" becomes "[:]//" (the usual way to defang an indicator): still
 * readable and copyable by hand, never a link. Bare domains without a scheme still
 * auto-link, but a link then shows exactly its own target, which escaping `<…|…>`
 * keeps true.
 */
function defangUrls(text: string): string {
  // No word boundary before the scheme: "_https://x" has none, and once the underscore
  // becomes its look-alike (neutralizeFormatting) Slack auto-links what follows it.
  return text.replace(/([a-z][a-z0-9+.-]*):\/\//gi, '$1[:]//').replace(/mailto:/gi, 'mailto[:]');
}

/**
 * `@channel`, `@here` and `@everyone` are only pings in `<!…>` form in our messages
 * (we never send link_names), but clients and some integrations linkify the bare
 * words; the at sign of untrusted ones becomes U+FF20 FULLWIDTH COMMERCIAL AT.
 */
function defangBroadcasts(text: string): string {
  return text.replace(/@(?=(?:channel|here|everyone)\b)/gi, '\uff20');
}

function escapeEntities(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Look-alikes for Slack's formatting characters in untrusted text outside code. Slack
 * has no backslash escape: `*URGENT* approve now`, `_x_`, `~y~` in a termination
 * message would render as our bold, italics and strike-through (and a `*` in a name
 * closes the `*…*` we wrote around it), `:white_check_mark: approved by SRE` as our
 * icons, a line starting with `>` as a quote.
 */
export const ASTERISK_LOOKALIKE = '\u2217'; // ∗ ASTERISK OPERATOR
export const TILDE_LOOKALIKE = '\u223c'; // ∼ TILDE OPERATOR
export const UNDERSCORE_LOOKALIKE = '\uff3f'; // ＿ FULLWIDTH LOW LINE
export const COLON_LOOKALIKE = '\ua789'; // ꞉ MODIFIER LETTER COLON
export const QUOTE_LOOKALIKE = '\uff1e'; // ＞ FULLWIDTH GREATER-THAN SIGN

/**
 * The opening colon of what has the shape of an emoji shortcode (`:name:`, letters of
 * either case, digits, `_+'-`). Names of digits only are left alone (`10:42:07`,
 * `host:8080:`), except Slack's two standard ones, `:100:` and `:1234:`; the closing
 * colon is not consumed, so `:a:b:` loses both openings.
 */
const SHORTCODE_OPENING = /:(?=(?:100|1234|(?!\d+:)[a-z0-9_+'-]+):)/gi;

/**
 * An underscore that could open or close italics: every one not between two ASCII
 * letters or digits. Slack italicizes only at word boundaries (`snake_case` shows as
 * typed; what clients do, Slack's reference does not say it), so identifiers
 * (`CUDA_VISIBLE_DEVICES`, `app_version`, label values) stay exact and copyable. An
 * underscore next to anything else (a space, punctuation, another underscore, a
 * non-ASCII letter, the start or end) is replaced, whether or not Slack would take it
 * as markup there.
 */
const EMPHASIS_UNDERSCORE = /(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])/g;

/**
 * Slack formatting in untrusted text made inert by look-alikes: every `*` and `~`,
 * boundary underscores, shortcode-shaped `:name:` openings, and a `>` starting any
 * line, the first included (callers put text at the start of a line or section; a
 * `>` elsewhere is not a quote, but the first character cannot tell). Never for code,
 * which Slack shows literally.
 */
function neutralizeFormatting(text: string): string {
  return text
    .replace(/\*/g, ASTERISK_LOOKALIKE)
    .replace(/~/g, TILDE_LOOKALIKE)
    .replace(SHORTCODE_OPENING, COLON_LOOKALIKE)
    .replace(EMPHASIS_UNDERSCORE, UNDERSCORE_LOOKALIKE)
    .replace(/^([ \t]*)>/gm, `$1${QUOTE_LOOKALIKE}`);
}

/**
 * Untrusted text for the inside of a code span or block: cleaned, backticks replaced,
 * scheme URLs and broadcast words defanged, `&` `<` `>` escaped, nothing else: Slack
 * shows code literally, so `*`, `_`, `~`, `:x:` and `>` stay as they were. A string,
 * not Mrkdwn: outside code it would still format.
 */
export function escapeForCode(text: string, options: { singleLine?: boolean } = {}): string {
  return escapeEntities(defangBroadcasts(defanged(text, options)));
}

/** Cleaned, backticks replaced, scheme URLs defanged: code and prose alike. */
function defanged(text: string, options: { singleLine?: boolean }): string {
  return defangUrls(cleanText(text, options).replace(/`/g, BACKTICK_LOOKALIKE));
}

/**
 * Untrusted text as Slack mrkdwn: cleaned (control, bidi and invisible characters,
 * terminal escapes), `&` `<` `>` escaped as Slack's formatting rules require,
 * backticks replaced by a look-alike, scheme URLs and broadcast words defanged, and
 * bold, italics, strike-through, emoji shortcodes and quotes made inert by
 * look-alikes (`neutralizeFormatting`).
 *
 * @example section(mrkdwn`*Pod:* ${pod.name}`)
 */
export function escapeMrkdwn(text: string, options: { singleLine?: boolean } = {}): Mrkdwn {
  // Our code spans (src/text/code-span.ts) stay code; everything around them is escaped.
  const parts = splitCodeSpans(typeof text === 'string' ? text : String(text));
  return parts.map((p) => (p.code ? inlineCode(p.text) : escapeProse(p.text, options))).join('') as Mrkdwn;
}

function escapeProse(text: string, options: { singleLine?: boolean }): string {
  // Broadcast words after the look-alikes: `@here_` is no bare word, `@here＿` is.
  return escapeEntities(defangBroadcasts(neutralizeFormatting(defanged(text, options))));
}

/** A literal we wrote, used as mrkdwn as it is. Never pass text read from elsewhere. */
export function trusted(literal: string): Mrkdwn {
  return literal as Mrkdwn;
}

/** Already-safe mrkdwn handed to the `mrkdwn` template, which must not escape it again. */
interface MrkdwnPiece {
  readonly safe: Mrkdwn;
}

/**
 * The pieces `asIs` made. The template passes only these through unescaped: job data
 * read back from Redis is JSON, so an object `{ "safe": "<!channel>" }` where a name
 * belongs would otherwise have been taken for one of ours.
 */
const PIECES = new WeakSet<object>();

/** Marks a Mrkdwn value for the `mrkdwn` template: `mrkdwn\`${asIs(line)} and ${name}\``. */
export function asIs(safe: Mrkdwn): MrkdwnPiece {
  const piece = { safe };
  PIECES.add(piece);
  return piece;
}

/** A piece made by `asIs` in this process, never one that merely has its shape. */
function isPiece(value: unknown): value is MrkdwnPiece {
  return typeof value === 'object' && value !== null && PIECES.has(value);
}

/**
 * A value interpolated into `mrkdwn`: strings are escaped, numbers shown as digits,
 * `asIs(m)` passes already-safe mrkdwn through. A bare Mrkdwn is refused by the type
 * (it would be escaped twice); types are erased at runtime, so the template cannot
 * tell a Mrkdwn string from an untrusted one and escapes every string, and anything
 * else that reaches it at runtime (an object, an array, null from job JSON) as its
 * String() form, escaped.
 */
type Interpolation<T> = T extends Mrkdwn ? never : T extends string | number | MrkdwnPiece ? T : never;

/**
 * The longest untrusted string the `mrkdwn` template shows whole. Names and reasons
 * are far shorter; an annotation value (an Argo CD application name, a release name)
 * can be 250 KB, and every line quoting it would otherwise fill the thread with
 * dozens of replies of the same name.
 */
export const MAX_INTERPOLATION = 2000;

/**
 * Tagged template: the literal parts are ours, every interpolated string is escaped
 * as one line (names and reasons never need line breaks) and cut to
 * `MAX_INTERPOLATION` characters with '…'.
 *
 * @example mrkdwn`*${finding.code}*: ${finding.summary}`
 */
export function mrkdwn<T extends unknown[]>(
  strings: TemplateStringsArray,
  ...values: { [K in keyof T]: Interpolation<T[K]> }
): Mrkdwn {
  let out = strings[0] ?? '';
  values.forEach((value: unknown, i) => {
    const text =
      typeof value === 'number'
        ? String(value)
        : isPiece(value)
          ? value.safe
          : escapeMrkdwn(clipUntrusted(String(value)), { singleLine: true });
    out += text + (strings[i + 1] ?? '');
  });
  return out as Mrkdwn;
}

function clipUntrusted(text: string): string {
  return cutText(text, MAX_INTERPOLATION);
}

/** Several Mrkdwn pieces joined by a separator we wrote. */
export function joinMrkdwn(parts: readonly Mrkdwn[], separator: string): Mrkdwn {
  return parts.join(separator) as Mrkdwn;
}

/** Untrusted text inside an inline code span: cannot close it, cannot mention or link. */
export function inlineCode(text: string): Mrkdwn {
  return `\`${escapeForCode(text, { singleLine: true })}\`` as Mrkdwn;
}

/**
 * Untrusted text as a code block. No backtick survives in the body, so the fence
 * cannot be closed from inside; `&` `<` `>` are escaped because Slack parses
 * mentions and links inside code blocks too. Cut to `max` characters of body.
 */
export function codeBlock(text: string, max = 2900): Mrkdwn {
  const body = truncateMrkdwn(escapeForCode(text.replace(/^\n+|\n+$/g, '')) as Mrkdwn, max);
  return `\`\`\`\n${body}\n\`\`\`` as Mrkdwn;
}

/**
 * Shortens mrkdwn to `max` characters, ending in '…' when cut, never inside an
 * escaped entity (`&amp;` cut to `&am` would show as text, not as `&`). A cut can make
 * a broadcast word where there was none (`@here0` cut to `@here…`), so the cut is
 * defanged again.
 */
export function truncateMrkdwn(text: Mrkdwn, max: number): Mrkdwn {
  if (text.length <= max) return text;
  const cut = text.slice(0, Math.max(0, max - 1)).replace(/&[a-z]{0,3}$/, '');
  return `${defangBroadcasts(cut)}…` as Mrkdwn;
}

/** `<@U…>` for a Slack user id; anything that is not one (Redis is not trusted) is shown escaped. */
export function userMention(id: string): Mrkdwn {
  return /^[UW][A-Z0-9]{2,20}$/.test(id) ? (`<@${id}>` as Mrkdwn) : escapeMrkdwn(id, { singleLine: true });
}

/** An approver from the policy: a user (U…/W…) or a user group (S…) mentioned, anything else as text. */
export function approverMention(id: string): Mrkdwn {
  return /^S[A-Z0-9]{2,20}$/.test(id) ? (`<!subteam^${id}>` as Mrkdwn) : userMention(id);
}

/** Untrusted text for a plain_text object: cleaned, one line, cut to `max` characters. */
export function plainText(text: string, max: number): PlainText {
  const cleaned = cleanText(text, { singleLine: true });
  return (cleaned.length <= max ? cleaned : `${cleaned.slice(0, Math.max(0, max - 1))}…`) as PlainText;
}

/**
 * A link with our own label to a URL on one of `hosts` (the operator's Alertmanager and
 * Prometheus, ROLLOUT_DOCTOR_ALERT_LINK_HOSTS); null for anything else: another host,
 * a scheme other than http(s), credentials in the URL, or a character that could end
 * Slack's `<url|label>` early. The label is ours: the link says where it goes.
 */
export function allowedLink(url: string, label: string, hosts: readonly string[]): Mrkdwn | null {
  const href = allowedUrl(url, hosts);
  if (href === null) return null;
  return `<${href.replace(/&/g, '&amp;')}|${escapeMrkdwn(label, { singleLine: true })}>` as Mrkdwn;
}
