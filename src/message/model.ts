/**
 * What rollout-doctor says, below every surface that shows it: rich text (spans of plain
 * text, strong, code, mentions, links, icons) and the blocks of content made of it
 * (paragraphs, notes, code, tables). The chat port's message model (src/chat/model.ts)
 * adds buttons and whole messages; the command line (src/report/terminal.ts) renders the
 * content as terminal text.
 *
 * Text is plain text plus structured parts, never markup: a `text` span holds the
 * characters as they should read, whoever wrote them (us, the cluster, an alert).
 * Each renderer turns the model into its own markup and escapes every text span for
 * it by construction (Slack: src/chat/slack/render.ts; the terminal: cleanText). So no
 * span can carry a mention, a link, bold or a code fence that a renderer did not make
 * from a structured part.
 */

/** The platform an id belongs to, as its adapter names itself ('slack', 'teams', …). */
export type Platform = string;

/**
 * A person, by the id the approval and read policy list: a Slack user id (U…, W…), an
 * Entra ID (AAD) object id. `name` is for display only (Teams mentions need one); it
 * decides nothing.
 */
export interface PersonRef {
  readonly platform: Platform;
  readonly id: string;
  readonly name?: string;
}

/**
 * Icons by meaning. Each adapter maps every one (Slack: an emoji shortcode; Teams: a
 * Unicode emoji); a new icon is a compile error in every adapter until it maps it.
 */
export const ICONS = [
  'ok',
  'warning',
  'refused',
  'failed',
  'expired',
  'waiting',
  'undo',
  'diagnosing',
  'inspect',
  'working',
  'fix',
  'thread',
  'paused',
  'superseded',
  'more',
  'log',
  'alert',
  'pinned',
  'note',
  'unknown',
  'connection',
  'calendar',
  'progress',
  'balance',
  'rolled-out',
  'repeat',
  'red',
  'orange',
  'blue',
  'report',
  'forbidden',
  'locked',
  'link',
  'info',
  'chart',
] as const;
export type Icon = (typeof ICONS)[number];

/**
 * One run of inline content. `text`, `strong`, `emphasis` and `code` hold plain text
 * that reads as one line (adapters escape it, and show a line break inside it as a
 * space: only a `break` span ends a line); `mention` names a person or an approver group by id; `link`
 * is a URL the product checked against its allow-list, with a label we wrote;
 * `break` ends a line.
 */
export type Span =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'strong'; readonly text: string }
  | { readonly kind: 'emphasis'; readonly text: string }
  | { readonly kind: 'code'; readonly text: string }
  | { readonly kind: 'mention'; readonly person: PersonRef }
  /**
   * An entry of the approval policy, a group or a person (a Slack user group S… or
   * user U…, an Entra group or user object id): trusted configuration, mentioned as
   * the platform mentions either.
   */
  | { readonly kind: 'group'; readonly platform: Platform; readonly id: string }
  | { readonly kind: 'link'; readonly url: string; readonly label: string }
  | { readonly kind: 'icon'; readonly icon: Icon }
  | { readonly kind: 'break' };

/** Inline content: spans in order. */
export type Rich = readonly Span[];

/**
 * Roles of parts that later updates find again: the verdict line of a result and the
 * line saying where its approved fix stands (re-rendered as outcomes arrive).
 */
export type PartRole = 'verdict' | 'state' | 'resolved';

/**
 * One block of content. `code` and `table` bodies are untrusted text shown
 * literally (a log tail, an event message, a patch); `whole` asks for every character
 * (an exact patch an approver must see), otherwise adapters may cut long bodies and
 * say so.
 */
export type ContentPart =
  | { readonly kind: 'heading'; readonly text: string }
  | { readonly kind: 'paragraph'; readonly text: Rich; readonly role?: PartRole }
  /** Small print under or between paragraphs. */
  | { readonly kind: 'note'; readonly text: Rich }
  | { readonly kind: 'code'; readonly title?: Rich; readonly body: string; readonly whole?: boolean }
  | {
      readonly kind: 'table';
      readonly title?: Rich;
      readonly header: readonly string[];
      readonly rows: readonly (readonly string[])[];
    }
  | { readonly kind: 'divider' };
