/**
 * Cuts a dump's text into pieces that parse on their own, so a large dump is never
 * held as one parse tree: its documents (at `---` / `...` lines), and inside a List
 * document the items of its top-level `items:` block sequence, as `kubectl get -o
 * yaml` writes them. Each piece remembers the line it starts on, so a parse error
 * still names the line of the whole file.
 *
 * Cutting is plain line work that YAML makes safe: a `---` or `...` line at column 0
 * always ends a document, even inside a block scalar; and an item of a sequence at
 * indentation n begins with `-` at exactly n spaces, while everything belonging to
 * an item is indented further (comments aside, which parse anywhere). Anything less
 * regular (directives, a flow-style `items: [...]`) is left whole for the parser, and
 * the loader parses a document whole whenever its pieces do not parse alone. The
 * scanning is done with regular expressions over the whole text (no array of lines),
 * so cutting 100 MB takes a fraction of a second.
 */

/** A run of the dump's text, with the 0-based line it starts on. */
export interface Chunk {
  text: string;
  line: number;
  /**
   * A List item cut as it stands (`- apiVersion: …`, a slice of the dump, never a
   * copy): it parses to a sequence of one, the item.
   */
  entry?: true;
}

/** A List document cut into its header (with `items: []`) and one chunk per item. */
export interface ListChunks {
  header: Chunk;
  items: Chunk[];
  /** The indentation of each item's keys in its chunk. */
  indent: number;
}

const MARKERS = /^(?:---(?=[ \t\r]|$)|\.\.\.[ \t\r]*$)/gm;
const ITEMS_KEY = /^items:[ \t]*(?:#.*)?\r?$/m;
/** Only blank lines and comments. */
const BLANK = /^(?:[ \t\r]*(?:#[^\n]*)?(?:\n|$))*$/;

/** Newlines in text[from, to). */
function newlines(text: string, from: number, to: number): number {
  let count = 0;
  for (let at = text.indexOf('\n', from); at !== -1 && at < to; at = text.indexOf('\n', at + 1)) count += 1;
  return count;
}

/**
 * The documents of a YAML stream. Text before the first `---` counts as a document
 * only when it holds more than comments and blank lines; after that every `---`
 * starts one (an empty document parses as null).
 */
export function splitDocuments(text: string): Chunk[] {
  if (/^%/m.test(text)) return [{ text, line: 0 }];
  const docs: Chunk[] = [];
  let start = 0;
  let line = 0;
  let explicit = false;
  const flush = (end: number): void => {
    const body = text.slice(start, end);
    if (explicit || !BLANK.test(body)) docs.push({ text: body, line });
  };
  for (const match of text.matchAll(MARKERS)) {
    const at = match.index;
    flush(at);
    line += newlines(text, start, at);
    if (match[0].startsWith('---')) {
      // Content after `--- ` on the marker line belongs to the new document.
      start = at + 3;
      explicit = true;
    } else {
      const next = text.indexOf('\n', at);
      start = next === -1 ? text.length : next + 1;
      line += next === -1 ? 0 : 1;
      explicit = false;
    }
  }
  flush(text.length);
  return docs;
}

/**
 * A List document's items as separate chunks, or undefined when the document has no
 * top-level block `items:` sequence to cut (then it is parsed whole).
 */
export function splitListItems(doc: Chunk): ListChunks | undefined {
  const { text } = doc;
  const key = ITEMS_KEY.exec(text);
  if (!key) return undefined;
  const afterKey = text.indexOf('\n', key.index);
  if (afterKey === -1) return undefined;
  // The first line after `items:` that is not blank or a comment opens the sequence.
  const first = /^( *)-(?: |\r?$)/m.exec(text.slice(afterKey + 1, afterKey + 1 + 4096));
  const before = first ? text.slice(afterKey + 1, afterKey + 1 + first.index) : '';
  if (!first || !BLANK.test(before)) return undefined;
  const indent = first[1]?.length ?? 0;
  const begin = afterKey + 1 + first.index;
  // The block ends at the first line, not blank and not a comment, indented less
  // than the items, or as much without being an item.
  const end = new RegExp(
    indent === 0 ? '^(?![-#\\s]|$)' : `^(?: {0,${indent - 1}}[^ \\n#\\r]| {${indent}}[^ \\n#\\r-])`,
    'gm',
  );
  end.lastIndex = begin;
  const stop = end.exec(text)?.index ?? text.length;
  const itemStart = new RegExp(`^ {${indent}}-(?= |\\r?$)`, 'gm');
  itemStart.lastIndex = begin;
  const starts: number[] = [];
  for (let m = itemStart.exec(text); m && m.index < stop; m = itemStart.exec(text)) starts.push(m.index);
  const items: Chunk[] = [];
  let line = doc.line + newlines(text, 0, begin);
  starts.forEach((at, i) => {
    const to = starts[i + 1] ?? stop;
    // The item as it stands ("- key: v"): a slice of the dump's text, never copied.
    items.push({ text: text.slice(at, to), line, entry: true });
    line += newlines(text, at, to);
  });
  // Blank lines where the items were, so the header's lines keep their numbers.
  const header = `${text.slice(0, key.index)}items: []${'\n'.repeat(newlines(text, key.index, stop))}${text.slice(stop)}`;
  return { header: { text: header, line: doc.line }, items, indent: indent + 2 };
}
