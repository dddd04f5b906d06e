/**
 * Parser for kube-scheduler FailedScheduling messages.
 *
 * Since v1.10 FitError.Error() prints
 *   "0/<N> nodes are available:" + " <PreFilterMsg>." | " <count> <reason>, <count> <reason>."
 *   + " <PostFilterMsg>"
 * where the PostFilter part is the other PostFilter plugins' text (for example
 * DynamicResources' "no new claims to deallocate,") followed by DefaultPreemption's
 * "preemption: 0/<N> nodes are available: <count> <reason>, ..." or a sentence such as
 * "preemption: not eligible due to preemptionPolicy=Never.". Versions differ in the
 * trailing dots ("..", "."), and an empty cluster says "no nodes available to schedule
 * pods". Reasons themselves contain commas, braces and colons ("node(s) had taint
 * {k: v}, that the pod didn't tolerate"), so the parser walks the text with a small
 * scanner that tracks bracket depth and splits reasons only on ", <count> ".
 *
 * A plugin error aborts scheduling without any count; the one kept is DynamicResources'
 * CEL runtime error in a device selector ('running "DynamicResources" filter plugin:
 * class <c>: selector #<i>: CEL runtime error: ...'), parsed as one count-less devices
 * reason with `aborted` set.
 */
import { categorize, categorizeNote, selectorError } from './scheduling-category.js';
import type { ParsedSchedulingMessage, SchedulingReason } from '../parsed-scheduling.js';
import { indexOfTopLevel, sentenceEnd, splitItems, splitNotes } from './scheduling-brackets.js';

export {
  categorize,
  categorizeNote,
  selectorError,
  type Categorized,
  type SelectorError,
} from './scheduling-category.js';
export type {
  ClaimReason,
  NoteKind,
  ParsedSchedulingMessage,
  PluginNote,
  SchedulingCategory,
  SchedulingReason,
} from '../parsed-scheduling.js';

/** The input is not a FailedScheduling message; the message says what was expected. */
export class SchedulingMessageError extends Error {
  override name = 'SchedulingMessageError';
}

const MAX_INPUT = 100_000;
const HEADER = /\b0\/(\d+) nodes are available\b:?/gi;
const NO_NODES = /no nodes available to schedule pods/i;
const EXAMPLE = '"0/3 nodes are available: 3 Insufficient cpu."';

/**
 * Parses one FailedScheduling message (as in the event, `kubectl describe` line
 * prefixes and surrounding quotes tolerated).
 *
 * @throws SchedulingMessageError when the text holds no scheduler message.
 * @example
 * parseSchedulingMessage('0/10 nodes are available: 1 Insufficient nvidia.com/gpu, 9 node(s) didn\'t match Pod\'s node affinity/selector.')
 * // { total: 10, reasons: [{ count: 1, reason: 'Insufficient nvidia.com/gpu', category: 'resources', resource: 'nvidia.com/gpu' }, ...], preemption: null }
 */
export function parseSchedulingMessage(text: string): ParsedSchedulingMessage {
  if (typeof text !== 'string') throw new SchedulingMessageError('expected the message as text');
  if (text.length > MAX_INPUT) {
    throw new SchedulingMessageError(
      `input is ${text.length} characters; one scheduler message is far shorter`,
    );
  }
  const s = text.replace(/\s+/g, ' ').trim();
  if (!s)
    throw new SchedulingMessageError(`empty input: expected one FailedScheduling message such as ${EXAMPLE}`);

  const header = findHeader(s, 0);
  const noNodes = NO_NODES.exec(s);
  if (header && (!noNodes || header.index < noNodes.index)) return parseFromHeader(s, header);
  if (noNodes) return { total: 0, reasons: [], preemption: null };
  const aborted = parsePluginError(s);
  if (aborted) return aborted;
  throw new SchedulingMessageError(
    `not a FailedScheduling message: found neither "0/N nodes are available" nor "no nodes available to schedule pods" (expected something like ${EXAMPLE})`,
  );
}

const PLUGIN_ERROR = /running "([A-Za-z]+)" filter plugin: /;

/**
 * 'running "DynamicResources" filter plugin: class gpu.example.com: selector #0: CEL
 * runtime error: no such key: model' (RunFilterPlugins wraps a plugin's Error status),
 * or the allocator's text alone: one count-less devices reason, nothing counted.
 */
function parsePluginError(s: string): ParsedSchedulingMessage | undefined {
  const wrapped = PLUGIN_ERROR.exec(s);
  const text = (wrapped ? s.slice(wrapped.index + wrapped[0].length) : s).trim().replace(/^["']|["']$/g, '');
  const category = categorize(text);
  if (category.claims !== 'selector-error' || !selectorError(text)) return undefined;
  return {
    total: 0,
    reasons: [{ count: 0, reason: text, ...category, countless: true }],
    preemption: null,
    aborted: { plugin: wrapped?.[1] ?? 'DynamicResources' },
  };
}

interface Header {
  index: number;
  end: number;
  total: number;
}

function findHeader(s: string, from: number): Header | undefined {
  HEADER.lastIndex = from;
  const m = HEADER.exec(s);
  if (!m) return undefined;
  return { index: m.index, end: m.index + m[0].length, total: toCount(m[1] ?? '') };
}

function toCount(digits: string): number {
  const n = Number(digits);
  if (!Number.isSafeInteger(n))
    throw new SchedulingMessageError(`node count "${digits}" is not a usable number`);
  return n;
}

function parseFromHeader(input: string, header: Header): ParsedSchedulingMessage {
  let s = input;
  // `Unschedulable: "0/1 nodes are available: ..."`: drop the closing quote of a quoted paste.
  const quote = s[header.index - 1];
  if ((quote === '"' || quote === "'") && s.endsWith(quote)) s = s.slice(0, -1);

  const list = parseReasonList(s, header.end, header.total);
  const tail = parseTail(s.slice(list.end), header.total);
  const parsed: ParsedSchedulingMessage = {
    total: header.total,
    reasons: list.reasons,
    preemption: tail.preemption,
  };
  if (tail.notes.length > 0) {
    parsed.notes = tail.notes;
    parsed.pluginNotes = tail.notes.map((text) => ({ text, kind: categorizeNote(text) }));
  }
  return parsed;
}

interface ReasonList {
  reasons: SchedulingReason[];
  /** Index in the scanned string just after the list (at its closing '.', or the end). */
  end: number;
}

/**
 * Reads "<count> <reason>, <count> <reason>." from `pos`. A first item without a count
 * is a PreFilter message, which the scheduler applies to every node, so its count is
 * the total.
 */
function parseReasonList(s: string, pos: number, total: number): ReasonList {
  const split = splitItems(s, pos, true) ?? splitItems(s, pos, false);
  // splitItems without bracket tracking always completes.
  const { items, end } = split ?? { items: [], end: s.length };
  const reasons = items.map((item): SchedulingReason => {
    const m = /^(\d+) (.+)$/.exec(item);
    const count = m ? toCount(m[1] ?? '') : total;
    const reason = m ? (m[2] ?? '').trim() : item;
    return { count, reason, ...categorize(reason), ...(m ? {} : { countless: true as const }) };
  });
  return { reasons, end };
}

interface Tail {
  preemption: ParsedSchedulingMessage['preemption'];
  notes: string[];
}

/** What follows the reason list: plugin notes, then the preemption result, then more notes. */
function parseTail(input: string, total: number): Tail {
  const tail = cutAtNextMessage(input);
  const marker = indexOfTopLevel(tail, 'preemption:');
  if (marker < 0) return { preemption: null, notes: splitNotes(tail) };

  const notes = splitNotes(tail.slice(0, marker));
  const rest = tail.slice(marker + 'preemption:'.length).trimStart();
  const header = findHeader(rest, 0);
  if (header && header.index === 0) {
    const list = parseReasonList(rest, header.end, header.total);
    notes.push(...splitNotes(rest.slice(list.end)));
    return { preemption: { total: header.total, reasons: list.reasons }, notes };
  }
  const end = sentenceEnd(rest);
  const sentence = rest.slice(0, end).trim();
  notes.push(...splitNotes(rest.slice(end)));
  const preemption: NonNullable<Tail['preemption']> = { total, reasons: [] };
  if (sentence) preemption.text = sentence;
  return { preemption, notes };
}

/** Two pasted events: keep only the first message. */
function cutAtNextMessage(tail: string): string {
  let from = 0;
  for (;;) {
    const header = findHeader(tail, from);
    if (!header) return tail;
    if (!tail.slice(0, header.index).trimEnd().endsWith('preemption:')) {
      const lineStart = tail.lastIndexOf('.', header.index);
      return tail.slice(0, lineStart >= 0 ? lineStart + 1 : header.index);
    }
    from = header.end;
  }
}

/**
 * Prints a parsed message back in the current scheduler wording (reasons in the
 * given order). Used by the simulator and the round-trip tests.
 */
export function formatSchedulingMessage(parsed: ParsedSchedulingMessage): string {
  if (parsed.aborted)
    return `running "${parsed.aborted.plugin}" filter plugin: ${parsed.reasons[0]?.reason ?? ''}`;
  const list = (total: number, reasons: SchedulingReason[]): string =>
    `0/${total} nodes are available: ${reasons.map((r) => (r.countless ? r.reason : `${r.count} ${r.reason}`)).join(', ')}.`;
  let out = list(parsed.total, parsed.reasons);
  const notes = parsed.notes ?? [];
  if (notes.length > 0 && !parsed.preemption) return `${out} ${notes.join(', ')}.`;
  if (notes.length > 0) out += ` ${notes.join(', ')},`;
  const p = parsed.preemption;
  if (p) {
    out += p.text !== undefined ? ` preemption: ${p.text}.` : ` preemption: ${list(p.total, p.reasons)}`;
  }
  return out;
}

/** The parsed scheduler message, or null when the text is not one. */
export function safeParse(message: string): ParsedSchedulingMessage | null {
  try {
    return parseSchedulingMessage(message);
  } catch {
    return null;
  }
}
