/** Plain-text cuts for one-line summaries: the first sentence, and a length bound at a word. */

import { sliceWhole } from './cut.js';

/** A one-line version of a free text: its first sentence, whole; longer ones go to the thread. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const m = /^.*?[.!?](?=\s+[A-Z(`"']|$)/.exec(flat);
  return (m?.[0] ?? flat).trim();
}

/** At most `max` characters, cut after a whole word with '…' (only for one-line summaries). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = sliceWhole(text, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max / 2 ? cut.slice(0, space) : cut}…`;
}
