/**
 * Adaptive Card to terminal text, for `npm run demo -- --chat teams`: what the Teams
 * client would show of the cards src/chat/teams/cards.ts builds. Text runs joined per
 * block, tables as rows, Action.Execute buttons as [Title]. Every piece of text is
 * passed through cleanText, so nothing a card carries can control the terminal.
 */
import { cleanText } from '../../src/text/clean.js';

type Json = Record<string, unknown>;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const list = (v: unknown): Json[] =>
  Array.isArray(v) ? v.filter((x): x is Json => x !== null && typeof x === 'object') : [];
const clean = (text: string, singleLine = false): string => cleanText(text, { singleLine });

/** The text of a RichTextBlock (its runs) or TextBlock. */
function blockText(element: Json): string {
  if (element.type === 'TextBlock') return clean(str(element.text));
  return list(element.inlines)
    .map((run) => clean(str(run.text)))
    .join('');
}

function buttons(actions: Json[]): string {
  return actions.map((a) => `[${clean(str(a.title), true)}]`).join(' ');
}

/** One card element as lines of text. */
function renderElement(element: Json): string[] {
  switch (element.type) {
    case 'RichTextBlock':
    case 'TextBlock':
      return blockText(element).split('\n');
    case 'Container':
      return list(element.items).flatMap(renderElement);
    case 'Table':
      return list(element.rows).map((row) =>
        list(row.cells)
          .map((cell) => list(cell.items).map(blockText).join(' ').replace(/\n/g, ' '))
          .join('  '),
      );
    case 'ActionSet':
      return [buttons(list(element.actions))];
    default:
      return [];
  }
}

/** A posted activity's cards (or its text) as lines. */
export function renderActivity(activity: Json): string[] {
  const cards = list(activity.attachments).map((a) => a.content as Json | undefined);
  if (cards.length === 0) return clean(str(activity.text)).split('\n');
  return cards.flatMap((card) => [
    ...list(card?.body).flatMap(renderElement),
    ...(list(card?.actions).length > 0 ? [buttons(list(card?.actions))] : []),
  ]);
}
