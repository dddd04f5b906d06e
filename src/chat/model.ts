import type { ChatAction } from './actions.js';
import type { ContentPart, Platform, Rich } from '../message/model.js';

export { ICONS } from '../message/model.js';
export type { ContentPart, Icon, PartRole, PersonRef, Platform, Rich, Span } from '../message/model.js';

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

/** One block of a message: the content every surface shows (message/model.ts), or buttons. */
export type Part = ContentPart | { readonly kind: 'actions'; readonly buttons: readonly Button[] };

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
