/**
 * Sentences the engine writes in English into the data it returns (an evidence table's
 * title, a plan's warning, why an owner reverts a field, a guard it could not read).
 * The data keeps them in English (JSON fields never translate, and the same diagnosis
 * is rendered in whichever language its reader has); a reader of another language gets
 * them from here, each sentence matched whole against the English of every registered
 * entry and written again in the reader's language with the parameters it carried.
 * As in gettext the English is the key; unlike a lookup by string, an entry with
 * parameters matches every sentence it can write.
 *
 * An entry's `en` must be a plain template over string parameters, with no branch on a
 * parameter: it is compiled into a pattern by writing each parameter as a marker. The
 * engine writes its English with the same entry (`ENTRY.en(params)`) where it can, so
 * the two cannot drift apart; test/unit/i18n-sentences.test.ts writes every sample in
 * English and reads it back to the same entry and parameters.
 *
 * Parameters are cluster text or other sentences: a captured parameter that is itself a
 * whole registered sentence is translated too; anything else stays as written, text to
 * the surface that escapes it.
 */
import { registerCatalogue } from './catalogue.js';
import type { Lang } from './lang.js';

type Params = Record<string, string>;
/** One sentence in every language, each a function of the same string parameters. */
type Sentence<P extends Params> = { readonly [L in Lang]: (params: P) => string };

interface Compiled {
  readonly pattern: RegExp;
  readonly sentence: Sentence<Params>;
  /** Its English without the parameters: where two entries match, the longer says more. */
  readonly literal: number;
  /** Its English has a clause list of its own (`; `): a parameter may then hold one too. */
  readonly clauses: boolean;
  /**
   * Its English is punctuation around parameters (`${fields}: ${reason}`): it matches
   * only where a parameter is itself a sentence it translates, never cluster text.
   */
  readonly frame: boolean;
}

const COMPILED: Compiled[] = [];
const OPEN = '\u0001';
const CLOSE = '\u0002';

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The pattern an entry's English writes: each parameter a lazy group, a repeated one a back-reference. */
function compile(sentence: Sentence<Params>): Compiled {
  const marked = sentence.en(new Proxy({} as Params, { get: (_t, key) => `${OPEN}${String(key)}${CLOSE}` }));
  const bare = marked.replace(new RegExp(`${OPEN}[^${CLOSE}]*${CLOSE}`, 'g'), '');
  const seen = new Set<string>();
  const source = marked
    .split(new RegExp(`(${OPEN}[^${CLOSE}]*${CLOSE})`))
    .map((piece) => {
      if (!piece.startsWith(OPEN)) return escapeRegExp(piece);
      const key = piece.slice(1, -1);
      if (seen.has(key)) return `\\k<${key}>`;
      seen.add(key);
      return `(?<${key}>[\\s\\S]+?)`;
    })
    .join('');
  return {
    pattern: new RegExp(`^${source}$`),
    sentence,
    literal: bare.length,
    frame: !/[A-Za-z]/.test(bare),
    clauses: bare.includes(CLAUSE_END),
  };
}

/**
 * Registers sentences under `name` (for the catalogue tests, with their samples) and for
 * `sentenceIn`. Returns the catalogue, so the engine writes its English with it.
 */
export function defineSentences<C extends Record<string, Sentence<never>>>(
  name: string,
  catalogue: C,
  samples: {
    readonly [K in keyof C]: readonly (Parameters<C[K]['en']> extends []
      ? object
      : Parameters<C[K]['en']>[0])[];
  },
): C {
  registerCatalogue(name, catalogue as never, samples as never);
  for (const sentence of Object.values(catalogue) as unknown as Sentence<Params>[])
    COMPILED.push(compile(sentence));
  // The most specific entry first: `${fields}: ${reason} (manifest read …)` before `${fields}: ${reason}`.
  COMPILED.sort((a, b) => b.literal - a.literal);
  return catalogue;
}

/**
 * A whole registered sentence in `lang`, or undefined where no entry writes it. An entry
 * whose parameter swallows a clause list its own words do not have (`${owner}'s pending
 * pod …` over "What happens next, in order: a; b's pending pod …") gives way to one that
 * reads the text without; where every match swallows, the one that leaves the least
 * English wins (the most specific first among equals).
 */
function whole(text: string, lang: Lang, depth: number): string | undefined {
  let best: string | undefined;
  for (const entry of COMPILED) {
    const said = byEntry(entry, text, lang, depth);
    if (said === undefined) continue;
    if (!said.swallows) return said.text;
    if (best === undefined || english(said.text) < english(best)) best = said.text;
  }
  return best;
}

/** `text` by one entry, and whether a parameter took clauses (`; `) the entry's words lack. */
function byEntry(
  entry: Compiled,
  text: string,
  lang: Lang,
  depth: number,
): { text: string; swallows: boolean } | undefined {
  const match = entry.pattern.exec(text);
  if (!match) return undefined;
  const params: Params = {};
  let translated = false;
  const values = Object.entries(match.groups ?? {});
  for (const [key, value] of values) {
    const said = depth > 0 ? paramIn(value, lang, depth - 1) : undefined;
    translated ||= said !== undefined;
    params[key] = said ?? value;
  }
  if (entry.frame && !translated) return undefined;
  const swallows = !entry.clauses && values.some(([, v]) => v.includes(CLAUSE_END));
  return { text: entry.sentence[lang](params), swallows };
}

/**
 * A captured parameter in `lang`: whole where an entry writes it, else clause by clause
 * (`a; b; c`, the forward model's steps). An entry whose last parameter swallowed the
 * clauses after it (`the controller removes old pod ${pod}` over the whole list) loses
 * to the clause-wise reading when that leaves no more English.
 */
function paramIn(value: string, lang: Lang, depth: number): string | undefined {
  const one = whole(value, lang, depth);
  const list = clauses(value, lang, depth);
  return list !== undefined && (one === undefined || english(list) <= english(one)) ? list : one;
}

/** A list of clauses (`a; b; c`) with each clause an entry writes in `lang`, or undefined where none is. */
function clauses(text: string, lang: Lang, depth: number): string | undefined {
  const pieces = text.split(CLAUSE_END);
  if (pieces.length === 1) return undefined;
  const said = pieces.map((piece) => whole(piece, lang, depth));
  if (said.every((s) => s === undefined)) return undefined;
  return said.map((s, i) => s ?? pieces[i]).join(CLAUSE_END);
}

/** Where a new sentence starts (". The"), and where a clause list goes on ("; the"). */
const SENTENCE_END = /(?<=[.!?]) (?=[A-Z(`\uE000])/;
const CLAUSE_END = '; ';

/** `text` in `lang` whole, else each of its pieces at `separator` that an entry writes. */
function piecewise(
  text: string,
  lang: Lang,
  separator: string | RegExp,
  next?: (piece: string) => string,
): string {
  const all = whole(text, lang, 2);
  const pieces = text.split(separator);
  if (pieces.length === 1) return all ?? (next ? next(text) : text);
  const joint = typeof separator === 'string' ? separator : ' ';
  const each = pieces.map((piece) => whole(piece, lang, 2) ?? (next ? next(piece) : piece)).join(joint);
  // A whole match whose last parameter swallowed the sentences after it (`${what}.`)
  // leaves them in English: the reading that leaves less English wins.
  return all !== undefined && english(all) <= english(each) ? all : each;
}

/** How much English a text still holds: its Latin letters. */
const english = (text: string): number => text.replace(/[^A-Za-z]/g, '').length;

/**
 * `text` (a sentence the engine wrote in English, or several) in `lang`: the whole where
 * an entry writes it, else each sentence, else each clause of it, that an entry writes;
 * anything else as written.
 */
export function sentenceIn(text: string, lang: Lang): string {
  if (lang === 'en' || text === '') return text;
  return piecewise(text, lang, SENTENCE_END, (sentence) => piecewise(sentence, lang, CLAUSE_END));
}
