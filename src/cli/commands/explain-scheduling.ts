/**
 * `rollout-doctor explain-scheduling [-o text|json] [MESSAGE...]`: reads kube-scheduler
 * FailedScheduling messages on stdin (or one as arguments), prints the structure of
 * each and what would change its outcome, reason by reason.
 *
 * Several messages on stdin: one per line, or separated by blank lines. A line that
 * starts no message (no "0/N nodes are available" outside a preemption part, no "no
 * nodes available to schedule pods") continues the one above, so a message wrapped
 * by a terminal still reads as one. `-o json` prints the DESIGN.md §3 object for one
 * message and an array of them, in input order, for several; each object also
 * carries `changes` and `changeNotes` (explain-scheduling-advice.ts).
 */
import { ciSafeText, cleanText, escapeJsonControls } from '../../text/clean.js';
import { parseArgs } from 'node:util';
import {
  parseSchedulingMessage,
  SchedulingMessageError,
  type ParsedSchedulingMessage,
  type SchedulingReason,
} from '../../diagnosis/scheduling/scheduling-message.js';
import { indent, table, wrap } from '../../report/format.js';
import { EXIT, readAll, UsageError, type CliIo } from '../io.js';
import { usageError } from '../usage-words.js';
import { adviseScheduling, type SchedulingAdvice } from './explain-scheduling-advice.js';
import { EXPLAIN_FLAGS, EXPLAIN_VALUES, HELP_WORDS } from '../help-words.js';
import { translate, wordsIn } from '../../i18n/catalogue.js';
import type { Lang } from '../../i18n/lang.js';
import { cliLang, LANG_OPTION } from '../args.js';
import { EXPLAIN_WORDS } from '../explain-words.js';

const USAGE = 'rollout-doctor explain-scheduling [-o text|json] [--lang en|ko] [MESSAGE...]';

/** The help in the reader's language (cli/help-words.ts): flags and values as typed. */
function help(lang: Lang): string {
  return translate(HELP_WORDS, lang, 'explainHelp', {
    usage: USAGE,
    flags: [...EXPLAIN_FLAGS],
    values: [...EXPLAIN_VALUES],
  });
}

/** One message of the input, with the line it starts on (1-based). */
export interface InputMessage {
  line: number;
  text: string;
}

const HEADER = /\b0\/\d+ nodes are available\b/i;
const NO_NODES = /no nodes available to schedule pods/i;

/** True when the line starts a message rather than continuing a wrapped one. */
function startsMessage(line: string): boolean {
  if (NO_NODES.test(line)) return true;
  const header = HEADER.exec(line);
  return header !== null && !/preemption:\s*$/i.test(line.slice(0, header.index));
}

/**
 * Splits stdin into messages: one per line or per blank-line-separated block.
 * @example splitMessages('0/3 nodes are available: 3 Insufficient cpu.\n0/1 nodes are available: 1 Too many pods.').length // 2
 */
export function splitMessages(input: string): InputMessage[] {
  const messages: InputMessage[] = [];
  let current: InputMessage | undefined;
  input.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (!line) {
      current = undefined;
      return;
    }
    if (current && !startsMessage(line)) {
      current.text += ` ${line}`;
      return;
    }
    current = { line: index + 1, text: line };
    messages.push(current);
  });
  return messages;
}

interface Explained {
  input: InputMessage;
  parsed: ParsedSchedulingMessage;
  advice: SchedulingAdvice;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const lang = cliLang(argv, io.env);
  const { values, positionals } = parseOptions(argv);
  if (values.help) {
    io.stdout.write(help(lang));
    return EXIT.ok;
  }
  const output = values.output ?? 'text';
  if (output !== 'text' && output !== 'json')
    throw usageError('outputFormat', { value: output, formats: ['text', 'json'] });

  let messages: InputMessage[];
  if (positionals.length > 0) {
    messages = [{ line: 1, text: positionals.join(' ') }];
  } else {
    if (io.stdin.isTTY) io.stderr.write(`${translate(EXPLAIN_WORDS, lang, 'pasteHint')}\n`);
    messages = splitMessages(await readAll(io.stdin));
  }
  // Nothing but blank lines: the parser's own "empty input" error.
  if (messages.length === 0) messages = [{ line: 1, text: '' }];

  const explained = messages.map((input): Explained => {
    let parsed: ParsedSchedulingMessage;
    const where = (problem: string): string =>
      messages.length === 1
        ? problem
        : `message ${messages.indexOf(input) + 1} of ${messages.length} (line ${input.line}): ${problem}`;
    try {
      parsed = parseSchedulingMessage(input.text);
    } catch (error) {
      if (!(error instanceof SchedulingMessageError)) throw error;
      throw new UsageError(where(error.message));
    }
    // What the scheduler never writes: nodes counted with no reason, a reason on more nodes than there are.
    if (parsed.total > 0 && parsed.reasons.length === 0) {
      throw new UsageError(
        where(`"0/${parsed.total} nodes are available:" is followed by no reason (a cut message?)`),
      );
    }
    const over = parsed.reasons.find((r) => r.count > parsed.total);
    if (over) {
      throw new UsageError(where(`${over.count} nodes for "${over.reason}" but only ${parsed.total} in all`));
    }
    // The text in the reader's language; JSON keeps the English (DESIGN.md §3).
    return { input, parsed, advice: adviseScheduling(parsed, output === 'json' ? 'en' : lang) };
  });

  if (output === 'json') {
    const objects = explained.map(({ parsed, advice }) => ({
      ...parsed,
      changes: advice.changes,
      changeNotes: advice.notes,
    }));
    const value = objects.length === 1 ? objects[0] : objects;
    io.stdout.write(escapeJsonControls(`${JSON.stringify(value, null, 2)}\n`));
  } else {
    io.stdout.write(ciSafeText(cleanText(renderAll(explained, lang))));
  }
  return EXIT.ok;
}

/** Each distinct message once (events repeat the same text for every pending pod), with its lines. */
function renderAll(explained: Explained[], lang: Lang): string {
  const w = wordsIn(EXPLAIN_WORDS, lang);
  if (explained.length === 1 && explained[0]) return renderExplained(explained[0], lang);
  const groups = new Map<string, Explained[]>();
  for (const e of explained) {
    const key = e.input.text.replace(/\s+/g, ' ');
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const distinct = [...groups.values()];
  const parts = distinct.map((group, i) => {
    const lines = group.map((e) => e.input.line);
    const where =
      lines.length === 1
        ? w.atLine({ line: lines[0] ?? 0 })
        : w.atLines({ lines: lines.join(', '), count: lines.length });
    const first = group[0];
    if (!first) return '';
    return [
      w.messageOf({ index: i + 1, of: distinct.length, where }),
      ...indent(wrap(cleanText(first.input.text, { singleLine: true }), 96), 2),
      '',
      renderExplained(first, lang),
    ].join('\n');
  });
  return parts.join('\n');
}

function renderExplained({ parsed, advice }: Explained, lang: Lang): string {
  const lines = [renderParsed(parsed, lang).trimEnd()];
  if (advice.changes.length > 0 || advice.notes.length > 0) {
    lines.push(translate(EXPLAIN_WORDS, lang, 'whatWouldChange'));
    for (const c of advice.changes)
      lines.push(
        ...indent(
          wrap(cleanText(c.change, { singleLine: true }), 94).map((l, i) => (i === 0 ? `- ${l}` : `  ${l}`)),
          2,
        ),
      );
    for (const note of advice.notes)
      lines.push(...indent(wrap(cleanText(note, { singleLine: true }), 96), 2));
  }
  return `${lines.join('\n')}\n`;
}

function parseOptions(argv: string[]): {
  values: { output?: string; help?: boolean; lang?: string };
  positionals: string[];
} {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        output: { type: 'string', short: 'o' },
        help: { type: 'boolean', short: 'h' },
        ...LANG_OPTION,
      },
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

/** The parse as a short table per part. */
export function renderParsed(parsed: ParsedSchedulingMessage, lang: Lang = 'en'): string {
  const w = wordsIn(EXPLAIN_WORDS, lang);
  const [nodesColumn, reasonColumn, categoryColumn] = [
    w.columnNodes({}),
    w.columnReason({}),
    w.columnCategory({}),
  ];
  const rows = (reasons: SchedulingReason[]): string[][] =>
    reasons.map((r) => [
      String(r.count),
      r.reason,
      r.resource ? `${r.category} (${r.resource})` : r.category,
    ]);
  const lines: string[] = [];
  if (parsed.aborted) {
    lines.push(w.abortedHeader({ plugin: parsed.aborted.plugin }));
    lines.push(
      ...indent(
        table(
          [reasonColumn, categoryColumn],
          parsed.reasons.map((r) => [r.reason, r.claims ? `${r.category} (${r.claims})` : r.category]),
        ),
        2,
      ),
    );
    return `${lines.join('\n')}\n`;
  } else if (parsed.total === 0) {
    lines.push(w.noNodesConsidered({}));
  } else {
    lines.push(w.noneFit({ total: parsed.total }));
    if (parsed.reasons.length > 0)
      lines.push(...indent(table([nodesColumn, reasonColumn, categoryColumn], rows(parsed.reasons)), 2));
  }
  for (const note of parsed.notes ?? []) lines.push(w.alsoReported({ note }));
  const p = parsed.preemption;
  if (!p) {
    lines.push(w.noPreemption({}));
  } else if (p.text !== undefined) {
    lines.push(w.preemptionSaid({ text: p.text }));
  } else {
    lines.push(w.preemptionConsidered({ total: p.total }));
    if (p.reasons.length > 0)
      lines.push(
        ...indent(
          table(
            [nodesColumn, reasonColumn],
            p.reasons.map((r) => [String(r.count), r.reason]),
          ),
          2,
        ),
      );
  }
  // How the counts add up (a node failing for several reasons) is said with the advice.
  return `${lines.join('\n')}\n`;
}
