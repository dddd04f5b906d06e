/**
 * The documents of a YAML text, read as kubectl reads them (kubectl-yaml.ts) and within
 * a bound on what one document may cost: the yaml package holds a document as a syntax
 * tree and nodes, a few hundred bytes for each token of the text (measured: 145 B per
 * token for a rendered chart, up to 660 B for a flow sequence of aliases), so a 16 MiB
 * flow sequence of one-character items would need gigabytes. A first pass with the
 * package's lexer (a generator: nothing kept) counts each document's tokens; the
 * documents are then composed one at a time, so only the one being read is held.
 */
import { Composer, Lexer, Parser, type Document, type LineCounter } from 'yaml';
import { KUBECTL_YAML } from './kubectl-yaml.js';

/**
 * Tokens one document may hold: about 4.5 MiB of an ordinary manifest (0.22 tokens a
 * byte), far beyond any one object (etcd stores at most 1.5 MiB of one). The composer
 * yields a document once it has read the next, so two are held at once: about 1.3 GB at
 * the worst.
 */
export const MAX_DOCUMENT_TOKENS = 1_000_000;

/** The lexer's markers (a document's start, a scalar's, a flow's end): not in the text. */
const MARKERS = new Set(['\u0002', '\u001f', '\u0018']);
const SCALAR = '\u001f';

/**
 * The offset in `text` where the first document holding more than `limit` tokens
 * starts, or undefined where none does. A `---` or `...` after a scalar's marker is
 * that scalar's text, not a document's end.
 */
export function oversizedDocument(text: string, limit = MAX_DOCUMENT_TOKENS): number | undefined {
  let count = 0;
  let offset = 0;
  let start = 0;
  let previous = '';
  for (const token of new Lexer().lex(text)) {
    if ((token === '---' || token === '...') && previous !== SCALAR) {
      count = 0;
      start = offset;
    }
    count += 1;
    if (count > limit) return start;
    if (!MARKERS.has(token)) offset += token.length;
    previous = token;
  }
  return undefined;
}

/** Each document of `text`, composed as the one before it is let go; `counter` learns the lines as they pass. */
export function* yamlDocuments(text: string, counter: LineCounter): Generator<Document.Parsed> {
  const parser = new Parser(counter.addNewLine);
  const composer = new Composer({ ...KUBECTL_YAML, prettyErrors: false });
  yield* composer.compose(parser.parse(text));
}
