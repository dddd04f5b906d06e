import type { ChatAction } from '../actions.js';
import type { Button, ChatMessage, Choice, Icon, Part, Rich, Span } from '../model.js';
import { openableUrl, plainText } from '../../message/rich.js';
import { cleanText } from '../../text/clean.js';
import { tableCell } from '../../text/columns.js';

/**
 * The port's messages as Adaptive Cards (schema 1.5, Universal Actions), built so that
 * no text can become markup:
 * - every piece of text is a `TextRun` inside a `RichTextBlock`. Teams and Microsoft's
 *   renderer apply no Markdown to a TextRun (TextBlock would), so `**`, `[x](y)`, `#`
 *   and HTML stay characters. Two things a TextRun still interprets are defused in
 *   `runText`: the `{{DATE(…)}}`/`{{TIME(…)}}` functions and Teams' `<at>…</at>` mention
 *   tags;
 * - links are `Action.OpenUrl` select actions on a run, made only from `link` spans
 *   (URLs the product checked);
 * - buttons are `Action.Execute` whose `data` is the port's ChatAction, decoded with
 *   its zod schema on the way back in (src/chat/teams/invoke.ts);
 * - a button's choice (how long an exclusion lasts) is an `Input.ChoiceSet` above its
 *   ActionSet, whose value Teams merges into the press's data under `choiceInputId`,
 *   decoded with the port's schema (src/chat/actions.ts lastsOfChoice).
 */

export const CARD_CONTENT_TYPE = 'application/vnd.microsoft.card.adaptive';

/** Unicode for every icon: a new icon in the port is a compile error here until mapped. */
const ICON_TEXT: Readonly<Record<Icon, string>> = {
  ok: '✅',
  warning: '⚠️',
  refused: '⛔',
  failed: '❌',
  expired: '⌛',
  waiting: '⏳',
  undo: '↩️',
  diagnosing: '🩺',
  inspect: '🔍',
  working: '⚙️',
  fix: '🔧',
  thread: '🧵',
  paused: '⏸️',
  superseded: '⏭️',
  more: '➕',
  log: '📜',
  alert: '🚨',
  pinned: '📌',
  note: '📝',
  unknown: '❔',
  connection: '🔌',
  calendar: '📅',
  progress: '📈',
  balance: '⚖️',
  'rolled-out': '🚀',
  repeat: '🔁',
  red: '🔴',
  orange: '🟠',
  blue: '🔵',
  report: '📋',
  forbidden: '🚫',
  locked: '🔒',
  link: '🔗',
  info: 'ℹ️',
  chart: '📊',
};

/** Longest code body shown when not `whole`; the rest is cut and said so. */
export const CODE_MAX_CHARS = 2_500;
/** Table rows shown; the rest are counted. */
export const TABLE_MAX_ROWS = 20;
/** Verbs of Action.Execute (the part of a press that is not the ChatAction). */
export const VERBS = Object.freeze({ press: 'press', confirm: 'confirm', refresh: 'refresh' });

type Json = Record<string, unknown>;

/**
 * Text for a TextRun: cleaned as every untrusted text is (src/text/clean.ts: escape
 * sequences, controls, bidi and invisible characters removed), then `{{` becomes
 * `{ {` so no date/time function is formed and `<at`/`</at` gets a space so no
 * mention tag is.
 */
export function runText(text: string, options: { singleLine?: boolean } = {}): string {
  return cleanText(text, options)
    .replace(/\{\{/g, '{ {')
    .replace(/\{\{/g, '{ {')
    .replace(/<(\/?)(at\b)/gi, '< $1$2');
}

/**
 * A run of text: one line (a line break in untrusted text is a space; a `break` span
 * starts the next block), or with `lines` a code body's lines as they are.
 */
function run(text: string, style: Json = {}, lines = false): Json {
  return { type: 'TextRun', text: runText(text, { singleLine: !lines }), ...style };
}

function spanRun(span: Exclude<Span, { kind: 'break' }>): Json {
  switch (span.kind) {
    case 'text':
      return run(span.text);
    case 'strong':
      return run(span.text, { weight: 'Bolder' });
    case 'emphasis':
      return run(span.text, { italic: true });
    case 'code':
      return run(span.text, { fontType: 'Monospace' });
    case 'mention':
      return run(`@${span.person.name ?? span.person.id}`, { weight: 'Bolder' });
    case 'group':
      // An Entra object id tells a reader nothing: the policy's names say who (approve.ts).
      return run('an approver the approval policy lists by id', { weight: 'Bolder' });
    case 'link': {
      // As in Slack: only an http(s) address without credentials opens; else the label alone.
      const url = openableUrl(span.url);
      return url
        ? run(span.label, { selectAction: { type: 'Action.OpenUrl', url: url.href } })
        : run(span.label);
    }
    case 'icon':
      return run(ICON_TEXT[span.icon]);
  }
}

/** Inline content as RichTextBlocks, one per line (a `break` starts the next). */
export function richBlocks(content: Rich, style: Json = {}, runStyle: Json = {}): Json[] {
  const lines: Json[][] = [[]];
  for (const span of content) {
    if (span.kind === 'break') lines.push([]);
    else lines[lines.length - 1]?.push({ ...spanRun(span), ...runStyle });
  }
  return lines
    .filter((inlines) => inlines.length > 0)
    .map((inlines, i) => ({
      type: 'RichTextBlock',
      inlines,
      ...(i > 0 ? { spacing: 'None' } : {}),
      ...style,
    }));
}

function codeBlock(part: Extract<Part, { kind: 'code' }>): Json[] {
  const cut = !part.whole && part.body.length > CODE_MAX_CHARS;
  const body = cut ? part.body.slice(0, CODE_MAX_CHARS) : part.body;
  return [
    ...(part.title ? richBlocks(part.title) : []),
    {
      type: 'Container',
      style: 'emphasis',
      items: [
        { type: 'RichTextBlock', inlines: [run(body, { fontType: 'Monospace', size: 'Small' }, true)] },
      ],
    },
    ...(cut
      ? [
          richText(`… ${part.body.length - CODE_MAX_CHARS} more characters not shown`, {
            isSubtle: true,
            size: 'Small',
          }),
        ]
      : []),
  ];
}

function richText(text: string, runStyle: Json = {}): Json {
  return { type: 'RichTextBlock', inlines: [run(text, runStyle)] };
}

function tableBlock(part: Extract<Part, { kind: 'table' }>): Json[] {
  const rows = part.rows.slice(0, TABLE_MAX_ROWS);
  const cell = (text: string, style: Json = {}): Json => ({
    type: 'TableCell',
    items: [{ type: 'RichTextBlock', inlines: [run(tableCell(text), style)] }],
  });
  const width = Math.max(part.header.length, ...rows.map((r) => r.length));
  return [
    ...(part.title ? richBlocks(part.title) : []),
    {
      type: 'Table',
      columns: Array.from({ length: width }, () => ({ width: 1 })),
      firstRowAsHeader: true,
      rows: [
        { type: 'TableRow', cells: part.header.map((h) => cell(h, { weight: 'Bolder' })) },
        ...rows.map((r) => ({ type: 'TableRow', cells: r.map((c) => cell(c)) })),
      ],
    },
    ...(part.rows.length > rows.length
      ? [richText(`${part.rows.length - rows.length} more rows not shown`, { isSubtle: true, size: 'Small' })]
      : []),
  ];
}

/** Who is looking: decides which Approve/Undo buttons are enabled. */
export interface CardViewer {
  /** The viewer may approve this message's plans; false disables Approve and Undo. */
  mayApprove: boolean;
}

const APPROVAL_KINDS: ReadonlySet<ChatAction['kind']> = new Set(['approve', 'undo', 'propose']);

/** The id of the input that holds a plan's choice: the key its value comes back under in an invoke's data. */
export function choiceInputId(planId: string): string {
  return `lasts-${planId}`;
}

/** A button's choice as a compact Input.ChoiceSet, its first option chosen until changed. */
function choiceSet(choice: Choice, planId: string): Json {
  return {
    type: 'Input.ChoiceSet',
    id: choiceInputId(planId),
    label: runText(choice.label),
    style: 'compact',
    isMultiSelect: false,
    choices: choice.options.map((o) => ({ title: runText(o.label), value: o.value })),
    ...(choice.options[0] ? { value: choice.options[0].value } : {}),
  };
}

/** The choices of an ActionSet's buttons, above it (an ActionSet holds actions only). */
function choiceSets(buttons: readonly Button[]): Json[] {
  return buttons.flatMap((b) =>
    b.choice && b.action.kind === 'approve' ? [choiceSet(b.choice, b.action.planId)] : [],
  );
}

/** An Action.Execute for a button. A confirm step makes the press ask first (verb `confirm`). */
export function executeAction(button: Button, viewer: CardViewer | undefined): Json {
  const gated = APPROVAL_KINDS.has(button.action.kind);
  return {
    type: 'Action.Execute',
    title: runText(button.label),
    verb: button.confirm ? VERBS.confirm : VERBS.press,
    data: { action: button.action },
    ...(button.style === 'primary'
      ? { style: 'positive' }
      : button.style === 'danger'
        ? { style: 'destructive' }
        : {}),
    ...(gated && viewer !== undefined && !viewer.mayApprove
      ? { isEnabled: false, tooltip: 'Only approvers may press this' }
      : {}),
  };
}

function partBlocks(part: Part, viewer: CardViewer | undefined): Json[] {
  switch (part.kind) {
    case 'heading':
      return [richText(part.text, { weight: 'Bolder', size: 'Medium' })];
    case 'paragraph': {
      // The role names the paragraph once: on its first line's block (ids are unique in a card).
      const [first, ...rest] = richBlocks(part.text);
      return first ? [part.role ? { ...first, id: `role-${part.role}` } : first, ...rest] : [];
    }
    case 'note':
      return richBlocks(part.text, {}, { isSubtle: true, size: 'Small' });
    case 'code':
      return codeBlock(part);
    case 'table':
      return tableBlock(part);
    case 'actions':
      return [
        ...choiceSets(part.buttons),
        { type: 'ActionSet', actions: part.buttons.map((b) => executeAction(b, viewer)) },
      ];
    case 'divider':
      return [];
  }
}

export interface CardOptions {
  /** The viewer of a per-user card (an invoke's answer); undefined: the card everyone sees. */
  viewer?: CardViewer;
  /**
   * Teams user ids (MRIs, 29:…) whose clients fetch their own view of the card on
   * sight (refresh.userIds; Teams takes at most 60). Empty: no automatic refresh.
   */
  refreshUserIds?: readonly string[];
  /** Data carried by the refresh action (which message to re-render). */
  refreshData?: Json;
}

/**
 * The most a card's body may take, in UTF-8 bytes (Teams refuses a message over about
 * 28 KB; Korean or CJK text takes three bytes a character), before its message's brief
 * form is sent instead, or, for a message without one, its last blocks are cut.
 */
export const CARD_BODY_MAX_BYTES = 24_000;

const bytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Where a body was cut to fit: no words, as the card does not know its reader's language. */
const CUT_MARK: Json = { type: 'TextBlock', text: '✂ …', isSubtle: true, wrap: true };

/** `body` within CARD_BODY_MAX_BYTES: its blocks in order while they fit, then the cut mark. */
function fitted(body: Json[]): Json[] {
  if (bytesOf(body) <= CARD_BODY_MAX_BYTES) return body;
  const kept: Json[] = [];
  let size = bytesOf([CUT_MARK]);
  for (const block of body) {
    const cost = bytesOf(block) + 1;
    if (size + cost > CARD_BODY_MAX_BYTES) break;
    kept.push(block);
    size += cost;
  }
  return [...kept, CUT_MARK];
}

function cardBody(parts: readonly Part[], viewer: CardViewer | undefined): Json[] {
  const body: Json[] = [];
  let separate = false;
  for (const part of parts) {
    if (part.kind === 'divider') {
      separate = true;
      continue;
    }
    const blocks = partBlocks(part, viewer);
    if (separate && blocks[0]) blocks[0] = { ...blocks[0], separator: true };
    separate = false;
    body.push(...blocks);
  }
  return body;
}

/** Teams shows a user-specific view to at most 60 users per card. */
export const MAX_REFRESH_USERS = 60;

/**
 * The card for a message.
 * @example renderCard(message, { viewer: { mayApprove: false } })
 */
export function renderCard(message: ChatMessage, options: CardOptions = {}): Json {
  const parts =
    message.parts.length > 0 ? message.parts : [{ kind: 'paragraph', text: message.summary } as const];
  let body = cardBody(parts, options.viewer);
  // Teams refuses a message over about 28 KB: a message that says what must stay
  // (the port's `brief`) is sent in that form; anything else is cut at a block.
  if (message.brief && bytesOf(body) > CARD_BODY_MAX_BYTES) body = cardBody(message.brief, options.viewer);
  // A message without a brief form (a thread report's part), or a brief still too big: cut.
  body = fitted(body);
  const userIds = (options.refreshUserIds ?? []).slice(0, MAX_REFRESH_USERS);
  return {
    type: 'AdaptiveCard',
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    version: '1.5',
    body,
    fallbackText: runText(plainText(message.summary)),
    ...(userIds.length > 0
      ? {
          refresh: {
            action: { type: 'Action.Execute', verb: VERBS.refresh, data: options.refreshData ?? {} },
            userIds: [...userIds],
          },
        }
      : {}),
  };
}

/** A message activity carrying the card (`summary` is what notifications show). */
export function cardActivity(message: ChatMessage, options: CardOptions = {}): Json {
  return {
    type: 'message',
    summary: runText(plainText(message.summary)).slice(0, 250),
    attachments: [{ contentType: CARD_CONTENT_TYPE, content: renderCard(message, options) }],
  };
}
