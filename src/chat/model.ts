import type { ChatAction } from './actions.js';

/**
 * The chat port's message model: what rollout-doctor says, with no platform in it.
 *
 * People, conversations and messages are referred to by the ids their platform gives
 * them (a Slack user id `U…`, an Entra ID object id; a Slack channel id, a Teams
 * conversation id), tagged with the platform so that one install can serve several.
 *
 * Text is plain text plus structured parts, never markup: a `text` span holds the
 * characters as they should read, whoever wrote them (us, the cluster, an alert).
 * Each adapter turns the model into its own markup and escapes every text span for
 * it by construction (Slack: src/chat/slack/render.ts). So no span can carry a
 * mention, a link, bold or a code fence that an adapter did not make from a
 * structured part.
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

/** A channel, group chat or direct chat, and the thread in it when there is one. */
export interface ConversationRef {
  readonly platform: Platform;
  /** The platform's conversation id (a Slack channel id, a Teams conversation id). */
  readonly id: string;
  /** The thread (Slack: the root message's ts; Teams: the root activity id); absent: top level. */
  readonly thread?: string;
}

/** A message the bot posted, to update later. */
export interface MessageRef {
  readonly conversation: ConversationRef;
  /** The platform's message id (a Slack ts, a Teams activity id). */
  readonly id: string;
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

/** A confirm step before a button acts: all plain text. */
export interface Confirm {
  readonly title: string;
  readonly text: string;
  readonly yes: string;
  readonly no: string;
}

/**
 * A closed choice made beside a button before pressing it (how long a node exclusion
 * lasts): a select of options, the first chosen until the person picks another. The
 * press carries the option's value, which the adapter decodes with the port's schema
 * (actions.ts `lastsOfChoice`): never free text.
 */
export interface Choice {
  readonly label: string;
  readonly options: readonly { readonly value: string; readonly label: string }[];
}

/** A button: what it says, what pressing it asks for, and an optional confirm step and choice. */
export interface Button {
  readonly label: string;
  readonly action: ChatAction;
  readonly style?: 'primary' | 'danger';
  readonly confirm?: Confirm;
  readonly choice?: Choice;
}

/**
 * One block of a message. `code` and `table` bodies are untrusted text shown
 * literally (a log tail, an event message, a patch); `whole` asks for every character
 * (an exact patch an approver must see), otherwise adapters may cut long bodies and
 * say so.
 */
export type Part =
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
  | { readonly kind: 'actions'; readonly buttons: readonly Button[] }
  | { readonly kind: 'divider' };

/**
 * A whole message. `summary` is the one-line plain text platforms show in
 * notifications and where parts cannot be shown; `parts` empty means the summary is
 * the message.
 */
export interface ChatMessage {
  readonly summary: Rich;
  readonly parts: readonly Part[];
  /**
   * The message for a platform whose size limit `parts` exceed (Slack: 50 blocks,
   * about 11,000 characters): what must stay (the verdict, the approval marks, the
   * buttons) and where the rest is. Absent: adapters cut `parts`.
   */
  readonly brief?: readonly Part[];
}

/**
 * What a chat API's failure means for the notification that met it (the notify consumer
 * decides by it, src/app/notify/consumer.ts): wait and retry (`rate-limited`), retry
 * before the notifications queued after it, so that "rolled out" never overtakes
 * "applied" in a thread (`transient`: the API answered 5xx or could not be reached), or
 * give up, as a retry cannot fix it (`permanent`: no such channel, not a member, …).
 */
export type ChatFailure =
  | { readonly kind: 'rate-limited'; readonly retryAfterSeconds: number }
  | { readonly kind: 'transient' }
  | { readonly kind: 'permanent'; readonly code: string };
