/**
 * Builders for the port's inline content (model.ts). Every span is made here, and the
 * `say` template passes through only spans made here: job data read back from Redis
 * is JSON, so an object shaped like `{ kind: 'mention', … }` where a name belongs is
 * shown as text, never taken for one of ours.
 *
 * @example say`${icon('ok')} ${strong(kind)} approved by ${mention(person)}`
 */
import type { Icon, PersonRef, Platform, Rich, Span } from './model.js';
import { cutText } from '../text/cut.js';

const OURS = new WeakSet<object>();

function made<T extends Span>(span: T): T {
  const frozen = Object.freeze(span);
  OURS.add(frozen);
  return frozen;
}

function madeRich(spans: readonly Span[]): Rich {
  const frozen = Object.freeze([...spans]);
  OURS.add(frozen);
  return frozen;
}

/** A span or inline content made by these builders in this process. */
export function isOurs(value: unknown): value is Span | Rich {
  return typeof value === 'object' && value !== null && OURS.has(value);
}

/**
 * The longest untrusted string `say` shows whole: an annotation value (an Argo CD
 * application name) can be 250 KB; names and reasons are far shorter.
 */
export const MAX_INTERPOLATION = 2000;

/** `text` cut to `max` characters with '…', never inside a surrogate pair. */
export function clip(text: string, max = MAX_INTERPOLATION): string {
  return cutText(text, max);
}

/**
 * A line break inside a span: every break a chat renders (CR, LF, VT, FF, NEL, U+2028/2029).
 * Breaks are `br` spans we place; one inside untrusted text (a reason, a kernel version)
 * would start a line that reads as ours, so a span's text is always one line.
 */
const LINE_BREAKS = /[\n\v\f\r\u0085\u2028\u2029]+/g;
const oneLine = (value: string): string => String(value).replace(LINE_BREAKS, ' ');

export const text = (value: string): Span => made({ kind: 'text', text: oneLine(value) });
/** Bold text; a string longer than MAX_INTERPOLATION is cut, as `say` cuts what it interpolates. */
export const strong = (value: string): Span => made({ kind: 'strong', text: clip(oneLine(value)) });
export const emphasis = (value: string): Span => made({ kind: 'emphasis', text: clip(oneLine(value)) });
export const code = (value: string): Span => made({ kind: 'code', text: oneLine(value) });
export const mention = (person: PersonRef): Span => made({ kind: 'mention', person });
export const group = (platform: Platform, id: string): Span => made({ kind: 'group', platform, id });
export const icon = (name: Icon): Span => made({ kind: 'icon', icon: name });
/** A link: `url` must already have passed the product's allow-list; `label` is ours. */
export const link = (url: string, label: string): Span => made({ kind: 'link', url, label });
export const br: Span = made({ kind: 'break' });

/** A literal we wrote, as inline content. */
export function plain(literal: string): Rich {
  return madeRich(literal === '' ? [] : [text(literal)]);
}

/** Inline content from spans and pieces made here. */
export function rich(...pieces: readonly (Span | Rich)[]): Rich {
  return madeRich(pieces.flatMap((p) => (isSpanList(p) ? p : [p])));
}

function isSpanList(piece: Span | Rich): piece is Rich {
  return Array.isArray(piece);
}

type Interpolation = string | number | Span | Rich;

/**
 * Tagged template: literal parts are text we wrote (a line break in one is a break
 * span), interpolated strings are untrusted text (cut to MAX_INTERPOLATION; a text
 * span reads as one line), numbers digits, and spans or content made
 * here pass through. Anything else that reaches it at run time (an object from job
 * JSON) is shown as its String() form.
 */
export function say(strings: TemplateStringsArray, ...values: readonly Interpolation[]): Rich {
  const literals = literalSpans(strings);
  const out = spanWriter();
  literals[0]?.forEach(out.add);
  values.forEach((value: unknown, i) => {
    if (isOurs(value)) {
      if (Array.isArray(value)) (value as Rich).forEach(out.add);
      else out.add(value as Span);
    } else if (typeof value === 'number') out.addText(String(value));
    else out.addText(clip(String(value)));
    literals[i + 1]?.forEach(out.add);
  });
  return out.done();
}

/**
 * Collects spans into inline content, joining adjacent text as it comes (what renders
 * the same, stored once). A text added empty still makes its span when nothing
 * adjoins it, as an interpolated '' always did.
 */
function spanWriter(): { add(span: Span): void; addText(value: string): void; done(): Rich } {
  const spans: Span[] = [];
  let run = '';
  let inRun = false;
  const endRun = (): void => {
    if (inRun) spans.push(text(run));
    run = '';
    inRun = false;
  };
  const addText = (value: string): void => {
    run += value;
    inRun = true;
  };
  return {
    add: (span) => {
      if (span.kind === 'text') addText(span.text);
      else {
        endRun();
        spans.push(span);
      }
    },
    addText,
    done: () => {
      endRun();
      return madeRich(spans);
    },
  };
}

/**
 * The spans of each literal part of a template, made once per call site: a tagged
 * template passes the same frozen strings array on every call, and spans are frozen.
 */
const LITERALS = new WeakMap<TemplateStringsArray, readonly (readonly Span[])[]>();

function literalSpans(strings: TemplateStringsArray): readonly (readonly Span[])[] {
  let spans = LITERALS.get(strings);
  if (spans === undefined) {
    spans = strings.map(lines);
    LITERALS.set(strings, spans);
  }
  return spans;
}

/** A literal with line breaks as text and break spans. */
function lines(literal: string): Span[] {
  return literal.split('\n').flatMap((line, i) => [...(i > 0 ? [br] : []), ...(line ? [text(line)] : [])]);
}

/**
 * Untrusted text that keeps its line breaks (an explanation, an event message): each
 * line a text span, breaks between them. Not cut: callers cut where they must.
 */
export function multiline(untrusted: string): Rich {
  const value = typeof untrusted === 'string' ? untrusted : String(untrusted);
  return madeRich(
    value.split(/\r\n|\r|\n/).flatMap((line, i) => [...(i > 0 ? [br] : []), ...(line ? [text(line)] : [])]),
  );
}

/** Several pieces of content joined by a separator we wrote. */
export function join(parts: readonly Rich[], separator: string): Rich {
  const out = spanWriter();
  const between = lines(separator);
  parts.forEach((part, i) => {
    if (i > 0) between.forEach(out.add);
    part.forEach(out.add);
  });
  return out.done();
}

/** Inline content as plain text (fallbacks, logs, tests): mentions by id, icons dropped. */
export function plainText(content: Rich): string {
  return content
    .map((span) => {
      switch (span.kind) {
        case 'text':
        case 'strong':
        case 'emphasis':
        case 'code':
          return span.text;
        case 'mention':
          return span.person.name ?? span.person.id;
        case 'group':
          return span.id;
        case 'link':
          return span.label;
        case 'icon':
          return '';
        case 'break':
          return '\n';
      }
    })
    .join('')
    .trim();
}

/**
 * A link's address as a chat may open it: http(s) with no credentials in it, parsed and
 * written again; undefined where it is anything else (the link is then shown as its label
 * alone). Each chat renderer holds its own format's rules beside it.
 */
export function openableUrl(url: string): URL | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const web = parsed.protocol === 'http:' || parsed.protocol === 'https:';
  return web && parsed.username === '' && parsed.password === '' ? parsed : undefined;
}
