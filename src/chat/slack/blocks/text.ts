import type { types } from '@slack/bolt';
import { cleanText } from '../../../text/clean.js';
import {
  QUOTE_LOOKALIKE,
  codeBlock,
  escapeForCode,
  plainText,
  truncateMrkdwn,
  type Mrkdwn,
} from './mrkdwn.js';

/** Small Block Kit helpers that keep every string inside Slack's limits (DESIGN.md §6). */

export type Block = Record<string, unknown>;

export const LIMITS = {
  blocks: 50,
  sectionText: 3000,
  buttonText: 75,
  buttonValue: 2000,
  confirmTitle: 100,
  confirmText: 300,
  confirmButton: 30,
  headerText: 150,
  optionText: 75,
} as const;

export { escapeMrkdwn, mrkdwn, trusted, type Mrkdwn } from './mrkdwn.js';

/** A mrkdwn section; only Mrkdwn (escaped or ours) goes in (./mrkdwn.ts). */
export function section(text: Mrkdwn): Block {
  return { type: 'section', text: { type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.sectionText) } };
}

/** Room for a code block body in a section under a title, with the fence and a margin. */
const CODE_ROOM = LIMITS.sectionText - 200;

/**
 * The most a code section's title may take: titles carry cluster names (an owner's
 * application name, a pod), and a title longer than the section left no room, or
 * negative room, for the body (splitting a line into pieces of 0 characters never
 * ended: the app's event loop hung for minutes on a 100 KB Argo CD application name).
 */
const MAX_CODE_TITLE = 1000;

/**
 * Pieces of `line` whose escaped form fits `room`: only for single lines longer than a
 * section. `line` is already cleaned, so escaping only ever lengthens it and a prefix
 * never escapes longer than the whole: each piece is found by a binary search over
 * prefixes of at most `room` characters, linear in the line (escaping the whole rest
 * for every piece took 38 s of the app's event loop for a 1 MB event message).
 */
function splitLongLine(line: string, room: number): string[] {
  const out: string[] = [];
  let rest = line;
  while (escapeForCode(rest.slice(0, room + 1)).length > room) {
    let lo = 1;
    let hi = Math.min(room, rest.length);
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (escapeForCode(rest.slice(0, mid)).length <= room) lo = mid;
      else hi = mid - 1;
    }
    out.push(rest.slice(0, lo));
    rest = rest.slice(lo);
  }
  out.push(rest);
  return out;
}

/**
 * The most cluster text one code section list shows: about seven sections (two thread
 * replies). Event messages and annotation values have no size limit that protects the
 * channel; a 1 MB FailedScheduling message was 180 replies. The CLI prints all of it.
 */
const MAX_CODE_BODY = 20_000;

/** `body` cut after whole lines to `max` characters, saying how much was left out. */
function capBody(body: string, max: number): string {
  if (body.length <= max) return body;
  const kept = body.slice(0, max);
  const lastBreak = kept.lastIndexOf('\n');
  const head = lastBreak > max / 2 ? kept.slice(0, lastBreak) : kept;
  return `${head}\n… ${body.length - head.length} more characters not shown here (rollout-doctor diagnose prints them all)`;
}

/**
 * Untrusted `body` as code blocks under our `title`, split at line boundaries over as
 * many sections as it needs (the thread report's tables, logs, patches). Cluster text
 * past `MAX_CODE_BODY` characters is left out, with a line saying so; `whole` keeps
 * every character (an exact patch the approver must see in full).
 */
export function codeSections(fullTitle: Mrkdwn, rawBody: string, options: { whole?: boolean } = {}): Block[] {
  const title = truncateMrkdwn(fullTitle, MAX_CODE_TITLE);
  const room = CODE_ROOM - title.length;
  const cleaned = cleanText(rawBody);
  const body = options.whole ? cleaned : capBody(cleaned, MAX_CODE_BODY);
  const chunks: string[] = [];
  let current: string[] = [];
  let size = 0;
  for (const line of body
    .replace(/^\n+|\n+$/g, '')
    .split('\n')
    .flatMap((l) => splitLongLine(l, room))) {
    const cost = escapeForCode(line).length + 1;
    if (current.length > 0 && size + cost > room) {
      chunks.push(current.join('\n'));
      current = [];
      size = 0;
    }
    current.push(line);
    size += cost;
  }
  if (current.length > 0 || chunks.length === 0) chunks.push(current.join('\n'));
  return chunks.map((chunk, i) =>
    section(`${i === 0 ? `${title}\n` : ''}${codeBlock(chunk, LIMITS.sectionText)}` as Mrkdwn),
  );
}

/**
 * Mrkdwn prose over as many sections as it needs, split after whole sentences (or,
 * for a sentence longer than a section, between words): never cut mid-sentence.
 */
export function proseSections(text: Mrkdwn): Block[] {
  const room = LIMITS.sectionText - 100;
  if (text.length <= room) return [section(text)];
  // Pieces with the separator that preceded them: a line break, or a space between sentences.
  const pieces = text
    .split('\n')
    .flatMap((line, i) =>
      line.split(/(?<=[.!?])\s+/).map((sentence, j) => ({ sentence, sep: i > 0 && j === 0 ? '\n' : ' ' })),
    );
  const chunks: string[] = [];
  let current = '';
  const push = (piece: string, sep: string): void => {
    if (current !== '' && current.length + 1 + piece.length > room) {
      chunks.push(current);
      current = '';
    }
    current = current === '' ? piece : `${current}${sep}${piece}`;
  };
  // A "word" longer than a section (a token without spaces) goes over several, whole,
  // never split inside an escaped entity such as &amp;.
  const pushWord = (word: string, sep: string): void => {
    let rest = word;
    let first = true;
    while (rest.length > room) {
      let cut = room;
      const amp = rest.lastIndexOf('&', cut);
      if (amp > cut - 6 && !rest.slice(amp, cut).includes(';')) cut = amp;
      // Nor next to an underscore kept inside a word: at a piece's edge it could open
      // or close italics (escaped text keeps `_` only between two letters or digits).
      // A few characters back at most (a_b_c_… would otherwise walk to the start and
      // cut one character a section); where that finds no plain edge, the underscores
      // at the cut become the look-alike the escaping uses at word edges.
      const floor = Math.max(1, cut - 8);
      while (cut > floor && (rest[cut] === '_' || rest[cut - 1] === '_')) cut -= 1;
      if (rest[cut] === '_' || rest[cut - 1] === '_') rest = edgeUnderscores(rest, cut);
      chunks.push(...(current === '' ? [] : [current]));
      current = '';
      chunks.push(rest.slice(0, cut));
      rest = rest.slice(cut);
      first = false;
    }
    push(rest, first ? sep : '');
  };
  for (const { sentence, sep } of pieces) {
    if (sentence.length <= room) push(sentence, sep);
    else sentence.split(' ').forEach((word, k) => pushWord(word, k === 0 ? sep : ' '));
  }
  if (current !== '') chunks.push(current);
  // A later section starts mid-text, where the caller put no line start: a `>` there
  // (escaped, `&gt;`) would quote the section.
  return chunks.map((c, i) =>
    section((i === 0 ? c : c.replace(/^(\s*)&gt;/, `$1${QUOTE_LOOKALIKE}`)) as Mrkdwn),
  );
}

export function context(text: Mrkdwn): Block {
  return { type: 'context', elements: [{ type: 'mrkdwn', text: truncateMrkdwn(text, LIMITS.sectionText) }] };
}

/** A plain_text object: Slack does not parse it, but controls and bidi characters are still removed. */
export function plain(text: string, max: number): { type: 'plain_text'; text: string; emoji: true } {
  return { type: 'plain_text', text: plainText(text, max), emoji: true };
}

/**
 * Our builders return plain objects; Bolt's types want its block union. The shapes
 * are checked by the Slack stand-in's Block Kit validation in tests.
 */
export function asSlackBlocks(blocks: Block[]): types.KnownBlock[] {
  return blocks as unknown as types.KnownBlock[];
}

/** The underscores either side of `cut` as U+FF3F (same length): no italics from a section edge. */
function edgeUnderscores(text: string, cut: number): string {
  const at = (i: number): string => (text[i] === '_' ? '\uff3f' : (text[i] ?? ''));
  return `${text.slice(0, cut - 1)}${at(cut - 1)}${at(cut)}${text.slice(cut + 1)}`;
}
