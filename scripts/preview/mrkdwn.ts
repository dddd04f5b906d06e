/**
 * Slack mrkdwn to render-tree nodes, the way the Slack client shows it: *bold*,
 * _italic_, ~strike~, `code`, ```code blocks```, > quotes, <url|text> links, user,
 * channel and group mentions, :emoji: as their character (or the name as text when
 * the preview does not know it). The app escapes &, < and > in cluster text (src/app/
 * blocks/mrkdwn.ts); they are decoded here into text nodes, so `&lt;img …&gt;` is
 * shown as the characters `<img …>` and never becomes an element.
 */
import { el, SAFE_HREF, type RNode } from './render-tree.js';

/** Emoji the app uses (and a few common ones), by Slack name. */
export const EMOJI: Record<string, string> = {
  bar_chart: '📊',
  calendar: '📆',
  gear: '⚙️',
  grey_question: '❔',
  hourglass: '⌛',
  hourglass_flowing_sand: '⏳',
  information_source: 'ℹ️',
  large_blue_circle: '🔵',
  large_green_circle: '🟢',
  large_orange_circle: '🟠',
  leftwards_arrow_with_hook: '↩️',
  link: '🔗',
  lock: '🔒',
  mag: '🔍',
  memo: '📝',
  no_entry: '⛔',
  page_facing_up: '📄',
  pushpin: '📌',
  red_circle: '🔴',
  repeat: '🔁',
  rocket: '🚀',
  rotating_light: '🚨',
  scroll: '📜',
  stethoscope: '🩺',
  thread: '🧵',
  traffic_light: '🚥',
  warning: '⚠️',
  white_check_mark: '✅',
  wrench: '🔧',
  x: '❌',
  fire: '🔥',
  tada: '🎉',
  eyes: '👀',
  heavy_check_mark: '✔️',
  double_vertical_bar: '⏸️',
  arrows_counterclockwise: '🔄',
  arrow_down_small: '🔽',
  electric_plug: '🔌',
  scales: '⚖️',
  no_entry_sign: '🚫',
};

/** &lt; &gt; &amp; back to characters (Slack's only three escapes). */
export function decodeEntities(text: string): string {
  return text.replace(/&(lt|gt|amp);/g, (_all, name: string) =>
    name === 'lt' ? '<' : name === 'gt' ? '>' : '&',
  );
}

/** An emoji by name: its character when known, else `:name:` as text. */
export function emojiNode(name: string): RNode {
  const char = EMOJI[name];
  return char ? el('span', 'emoji', [char], { title: `:${name}:` }) : `:${name}:`;
}

const WORD = /[\p{L}\p{N}]/u;
const MARKS: Record<string, 'b' | 'i' | 's'> = { '*': 'b', _: 'i', '~': 's' };

interface Match {
  nodes: RNode[];
  end: number;
}

/** `code` on one line. */
function codeSpan(s: string, at: number): Match | undefined {
  const close = s.indexOf('`', at + 1);
  if (close <= at + 1) return undefined;
  const inner = s.slice(at + 1, close);
  if (inner.includes('\n')) return undefined;
  return { nodes: [el('code', undefined, [decodeEntities(inner)])], end: close + 1 };
}

/** <…>: a link, a mention or a special command. */
function angle(s: string, at: number): Match | undefined {
  const close = s.indexOf('>', at + 1);
  if (close < 0) return undefined;
  const inner = s.slice(at + 1, close);
  if (inner === '' || /[<\n]/.test(inner)) return undefined;
  const bar = inner.indexOf('|');
  const target = bar >= 0 ? inner.slice(0, bar) : inner;
  const label = bar >= 0 ? inner.slice(bar + 1) : undefined;
  const end = close + 1;
  if (target.startsWith('@'))
    return { nodes: [el('span', 'mention', [`@${decodeEntities(label ?? target.slice(1))}`])], end };
  if (target.startsWith('#'))
    return { nodes: [el('span', 'mention', [`#${decodeEntities(label ?? target.slice(1))}`])], end };
  if (target.startsWith('!')) {
    const [command = '', arg] = target.slice(1).split('^');
    const shown =
      label !== undefined
        ? decodeEntities(label)
        : ['here', 'channel', 'everyone'].includes(command)
          ? `@${command}`
          : command === 'subteam' && arg
            ? `@${arg}`
            : `<${decodeEntities(target)}>`;
    return { nodes: [el('span', 'mention', [shown])], end };
  }
  const url = decodeEntities(target);
  const text = label === undefined ? [url] : inline(label);
  if (!SAFE_HREF.test(url)) return { nodes: [el('span', 'link-unsafe', text, { title: url })], end };
  return { nodes: [el('a', undefined, text, { href: url, title: url })], end };
}

/** *bold*, _italic_, ~strike~ with Slack's word boundaries, on one line. */
function emphasis(s: string, at: number, mark: string, tag: 'b' | 'i' | 's'): Match | undefined {
  const before = at > 0 ? (s[at - 1] ?? '') : '';
  const first = s[at + 1] ?? '';
  if ((before !== '' && WORD.test(before)) || first === '' || /\s/.test(first) || first === mark)
    return undefined;
  for (let j = s.indexOf(mark, at + 2); j >= 0; j = s.indexOf(mark, j + 1)) {
    const inner = s.slice(at + 1, j);
    if (inner.includes('\n')) return undefined;
    const last = s[j - 1] ?? '';
    const after = s[j + 1] ?? '';
    if (!/\s/.test(last) && (after === '' || !WORD.test(after)))
      return { nodes: [el(tag, undefined, inline(inner))], end: j + 1 };
  }
  return undefined;
}

/** Inline mrkdwn of one paragraph (no ``` fences). */
export function inline(s: string): RNode[] {
  const out: RNode[] = [];
  let text = 0;
  let i = 0;
  const flush = (to: number): void => {
    if (to > text) out.push(decodeEntities(s.slice(text, to)));
  };
  while (i < s.length) {
    const ch = s[i] ?? '';
    let match: Match | undefined;
    if (ch === '`') match = codeSpan(s, i);
    else if (ch === '<') match = angle(s, i);
    else if (ch === ':') {
      const m = /^:([a-z0-9_+'-]+):/.exec(s.slice(i, i + 64));
      if (m?.[1] && EMOJI[m[1]]) match = { nodes: [emojiNode(m[1])], end: i + m[0].length };
    } else {
      const tag = MARKS[ch];
      if (tag) match = emphasis(s, i, ch, tag);
    }
    if (match) {
      flush(i);
      out.push(...match.nodes);
      i = match.end;
      text = i;
    } else {
      i += 1;
    }
  }
  flush(s.length);
  return out;
}

/** Prose: lines starting with '>' are quotes, everything else inline text (newlines kept). */
function prose(s: string): RNode[] {
  const out: RNode[] = [];
  const lines = s.split('\n');
  let quote: string[] = [];
  let plain: string[] = [];
  const endPlain = (): void => {
    if (plain.length > 0) out.push(...inline(plain.join('\n')));
    plain = [];
  };
  const endQuote = (): void => {
    if (quote.length > 0) out.push(el('blockquote', undefined, inline(quote.join('\n'))));
    quote = [];
  };
  for (const line of lines) {
    if (line.startsWith('>')) {
      endPlain();
      quote.push(line.replace(/^> ?/, ''));
    } else {
      endQuote();
      plain.push(line);
    }
  }
  endPlain();
  endQuote();
  return out;
}

/**
 * A whole mrkdwn text. ``` fences become code blocks, shown verbatim (entities
 * decoded, nothing else interpreted); an unmatched fence stays as text.
 */
export function mrkdwnNodes(text: string): RNode[] {
  const parts = text.split('```');
  if (parts.length % 2 === 0) {
    // An odd number of fences: the last one opens nothing.
    const last = parts.pop() ?? '';
    parts[parts.length - 1] = `${parts[parts.length - 1] ?? ''}\`\`\`${last}`;
  }
  const out: RNode[] = [];
  parts.forEach((part, i) => {
    if (i % 2 === 1) {
      out.push(el('pre', undefined, [decodeEntities(part.replace(/^\n/, '').replace(/\n$/, ''))]));
      return;
    }
    // The newline beside a fence belongs to the code block's own line.
    let p = part;
    if (i > 0) p = p.replace(/^\n/, '');
    if (i < parts.length - 1) p = p.replace(/\n$/, '');
    if (p !== '') out.push(...prose(p));
  });
  return out;
}

/** plain_text: shown as is; with `emoji: true` (Slack's default) :name: becomes the emoji. */
export function plainNodes(text: string, emoji = true): RNode[] {
  if (!emoji) return [text];
  const out: RNode[] = [];
  let last = 0;
  for (const m of text.matchAll(/:([a-z0-9_+'-]+):/g)) {
    const name = m[1] ?? '';
    if (!EMOJI[name]) continue;
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(emojiNode(name));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
