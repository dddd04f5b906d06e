/**
 * The message content model (src/message/model.ts) as terminal text: the command line's
 * renderer, a third beside Slack's mrkdwn (src/chat/slack/render.ts) and Teams'
 * Adaptive Cards (src/chat/teams/cards.ts). As the Slack adapter escapes mrkdwn, this
 * one cleans every text span and every code and table cell of terminal control
 * sequences (cleanText: CSI, OSC 8 links, OSC 52 clipboard writes, C1, bidi overrides)
 * before it is styled or measured, so only our own styling reaches the terminal.
 * Tables and code sit under their title, indented (content has no buttons: those are
 * the chat port's).
 */
import type { ContentPart, Rich, Span } from '../message/model.js';
import { evidenceParts } from '../message/evidence.js';
import type { Lang } from '../i18n/lang.js';
import type { Evidence } from '../diagnosis/finding.js';
import { cleanText } from '../text/clean.js';
import { indent, table, wrap, type Style } from './format.js';

/**
 * One span as terminal text, cleaned and on one line (a line break or CR in a value
 * from the cluster would start a line of its own that reads as ours: only a `break`
 * span ends a line, as in Slack's and Teams' renderers); `strong` in bold.
 */
function span(s: Span, style: Style): string {
  const one = (text: string): string => cleanText(text, { singleLine: true });
  switch (s.kind) {
    case 'text':
    case 'emphasis':
    case 'code':
      return one(s.text);
    case 'strong':
      return style.bold(one(s.text));
    case 'mention':
      return one(s.person.name ?? s.person.id);
    case 'group':
      return one(s.id);
    case 'link':
      return `${one(s.label)} (${one(s.url)})`;
    case 'icon':
      return '';
    case 'break':
      return '\n';
  }
}

/** Inline content as terminal text (styled), every span cleaned. */
function terminalText(content: Rich, style: Style): string {
  return content.map((s) => span(s, style)).join('');
}

/** A title as the report sets it: the whole line bold, ending in a colon. */
function title(content: Rich, style: Style): string {
  return style.bold(`${terminalText(content, { ...style, bold: (t) => t })}:`);
}

/**
 * Parts as terminal lines, not indented: paragraphs as they are (wrapped at `width`
 * when given), a code body or a table under its title, two columns in.
 */
export function terminalLines(parts: readonly ContentPart[], style: Style, width?: number): string[] {
  return parts.flatMap((part): string[] => {
    switch (part.kind) {
      case 'heading':
        return [style.bold(cleanText(part.text))];
      case 'paragraph':
      case 'note': {
        const text = terminalText(part.text, style);
        return width === undefined ? text.split('\n') : text.split('\n').flatMap((l) => wrap(l, width));
      }
      case 'code':
        return [
          ...(part.title ? [title(part.title, style)] : []),
          ...indent(cleanText(part.body).trimEnd().split('\n'), 2),
        ];
      case 'table':
        return [
          ...(part.title ? [title(part.title, style)] : []),
          ...indent(
            table(
              part.header.map((h) => h.toUpperCase()),
              part.rows.map((r) => [...r]),
            ),
            2,
          ),
        ];
      case 'divider':
        return [''];
    }
  });
}

/** Lines for one piece of evidence, not indented: the port's parts of it (one switch: evidence.ts). */
export function renderEvidence(evidence: Evidence, style: Style, lang: Lang = 'en'): string[] {
  return terminalLines(evidenceParts(evidence, lang), style);
}
