import type { ChatAdapter } from '../adapter.js';
import type { ChatFailure, ChatMessage, ConversationRef, MessageRef, PersonRef } from '../model.js';
import { cardActivity } from './cards.js';
import { ConnectorError, HOST_NOT_ALLOWED, type BotConnector } from './connector.js';
import type { TeamsPerson } from './directory.js';
import { privateAnswers, type PrivateAnswers } from './private-answers.js';

/**
 * The Teams side of the chat port's outbound half (ChatAdapter): posts and updates
 * Adaptive Cards through the Bot Connector, and remembers what each card shows
 * (CardStore) so a per-user refresh or a press can render it again for one viewer.
 *
 * Conversations: a Teams channel id (19:…@thread.tacv2) with `thread` set is the
 * thread whose root activity that is (`<channel>;messageid=<root>`); a channel without
 * a thread gets a new thread (a new post). Group and personal chats have no threads.
 */

export const TEAMS = 'teams';

/** What the bot remembers of a card it posted (to re-render it for one viewer). */
export interface CardRecord {
  message: ChatMessage;
  /** Teams user ids (29:…) asked to refresh on sight. */
  refreshUserIds: readonly string[];
}

export interface CardStore {
  get(ref: MessageRef): Promise<CardRecord | undefined>;
  set(ref: MessageRef, record: CardRecord): Promise<void>;
}

/** In-process card store, bounded (oldest forgotten first): tests and benches; the app keeps cards in Redis (card-store.ts). */
export function memoryCardStore(max = 5_000): CardStore {
  const records = new Map<string, CardRecord>();
  const key = (ref: MessageRef): string => `${ref.conversation.id}\u0000${ref.id}`;
  return {
    get: async (ref) => records.get(key(ref)),
    set: async (ref, record) => {
      records.delete(key(ref));
      records.set(key(ref), record);
      while (records.size > max) {
        const oldest = records.keys().next().value;
        if (oldest === undefined) break;
        records.delete(oldest);
      }
    },
  };
}

/** A personal chat between the bot and one person (`a:…`): what is said there is private. */
function isPersonalChat(conversationId: string): boolean {
  return conversationId.startsWith('a:');
}

/** A Teams channel (threads live there), as opposed to a group or personal chat. */
function isChannel(conversationId: string): boolean {
  return /^19:[^;]+@thread\.(tacv2|skype)$/.test(conversationId);
}

/** Splits a Teams conversation id into the port's conversation and thread. */
export function conversationRef(teamsConversationId: string): ConversationRef {
  const [id = teamsConversationId, thread] = teamsConversationId.split(';messageid=');
  return { platform: TEAMS, id, ...(thread ? { thread } : {}) };
}

/** The Teams conversation id of a port conversation (its thread's, when it has one). */
function teamsConversationId(conversation: ConversationRef): string {
  return conversation.thread && isChannel(conversation.id)
    ? `${conversation.id};messageid=${conversation.thread}`
    : conversation.id;
}

/**
 * A Bot Connector failure as the port names it: 429 waits its Retry-After (2 s when it
 * gives none); 5xx and no answer are an outage; 400, 403, 404 and 413 (no such
 * conversation, the bot removed from it, a message gone, a card too large) and a service
 * URL whose host is not allowed are refusals no retry fixes.
 */
export function connectorFailure(error: unknown): ChatFailure | undefined {
  if (!(error instanceof ConnectorError)) return undefined;
  if (error.code === HOST_NOT_ALLOWED) return { kind: 'permanent', code: error.code };
  if (error.status === 429) return { kind: 'rate-limited', retryAfterSeconds: error.retryAfterSeconds ?? 2 };
  if (error.status === 0 || error.status >= 500) return { kind: 'transient' };
  if ([400, 403, 404, 413].includes(error.status))
    return { kind: 'permanent', code: `${error.status} ${error.code}` };
  return undefined;
}

interface TeamsAdapterOptions {
  connector: BotConnector;
  store: CardStore;
  tenantId: string;
  /** The serviceUrl of a conversation (learned from its activities), else the configured one. */
  serviceUrlOf(conversationId: string): Promise<string> | string;
  /**
   * Teams user ids (29:…) whose clients should fetch their own view (approvers the bot
   * has seen; the app reads them from Redis, refresh-list.ts), asked at every post and update.
   */
  refreshUserIds(): readonly string[] | Promise<readonly string[]>;
  /** How to reach an Entra object id privately, when the bot has seen that person (directory.ts). */
  personOf?(aadObjectId: string): Promise<TeamsPerson | undefined>;
  /** How many private answers a person gets a minute (private-answers.ts; default 3). */
  privateAnswers?: PrivateAnswers;
  /** A private answer that was not said: past the bound, or no way to reach the person privately. */
  untold?(person: PersonRef, why: 'bounded' | 'unreachable'): void;
}

export interface TeamsAdapter extends ChatAdapter {
  /** The card record of a posted message (for refresh and presses). */
  record(ref: MessageRef): Promise<CardRecord | undefined>;
}

export function teamsAdapter(options: TeamsAdapterOptions): TeamsAdapter {
  const { connector, store } = options;
  const activityFor = (message: ChatMessage, refreshUserIds: readonly string[]) =>
    cardActivity(message, { refreshUserIds });

  const post = async (to: ConversationRef, message: ChatMessage): Promise<MessageRef> => {
    const [refreshUserIds, serviceUrl] = await Promise.all([
      options.refreshUserIds(),
      options.serviceUrlOf(to.id),
    ]);
    const activity = activityFor(message, refreshUserIds);
    let ref: MessageRef;
    if (isChannel(to.id) && !to.thread) {
      const created = await connector.createThread(serviceUrl, {
        channelId: to.id,
        tenantId: options.tenantId,
        activity,
      });
      ref = {
        conversation: { platform: TEAMS, id: to.id, thread: created.activityId },
        id: created.activityId,
      };
    } else {
      const sent = await connector.send(serviceUrl, teamsConversationId(to), activity);
      ref = { conversation: { ...to, platform: TEAMS }, id: sent.id };
    }
    await store.set(ref, { message, refreshUserIds });
    return ref;
  };

  const answers = options.privateAnswers ?? privateAnswers();
  const tellPersonally = async (person: PersonRef, message: ChatMessage): Promise<boolean> => {
    try {
      const reach = await options.personOf?.(person.id);
      if (reach === undefined) return false;
      await connector.sendPersonal(reach.serviceUrl, {
        userId: reach.teamsUserId,
        tenantId: options.tenantId,
        activity: activityFor(message, []),
      });
      return true;
    } catch {
      return false;
    }
  };

  return {
    platform: TEAMS,
    failureOf: connectorFailure,
    post,
    /**
     * The record first, then the activity: a client that sees the new version refreshes
     * it at once (its person listed), and the refresh is answered from the record, so
     * the record must already hold what the new version shows. Written after, a refresh
     * that overtook it answered with the previous card, and that person's view stayed
     * there (a progress line instead of the result and its buttons) until the next update.
     * An update Teams refuses leaves the record one step ahead of the shared card: a
     * refresh then shows what the app meant to show, and the caller's retry sends it.
     */
    async update(ref, message) {
      const [refreshUserIds, serviceUrl] = await Promise.all([
        options.refreshUserIds(),
        options.serviceUrlOf(ref.conversation.id),
      ]);
      await store.set(ref, { message, refreshUserIds });
      await connector.update(
        serviceUrl,
        teamsConversationId(ref.conversation),
        ref.id,
        activityFor(message, refreshUserIds),
      );
    },
    /**
     * Teams has no message only one person sees in a channel or group chat outside an
     * invoke's answer (a press is answered in the invoke, inbound.ts): so this is the
     * person's personal chat with the bot (the conversation itself when it is one),
     * never a public reply (a refusal is nobody else's business, and 150
     * refused commands would be 150 public posts). Where the bot cannot reach them
     * privately nothing is shown (`untold`; the refusal itself is audited by the
     * use-case); and at most a few a minute per person (private-answers.ts).
     */
    async tell(person: PersonRef, where: ConversationRef, message: ChatMessage) {
      if (!answers.take(person.id)) {
        options.untold?.(person, 'bounded');
        return;
      }
      if (isPersonalChat(where.id)) {
        await post({ platform: TEAMS, id: where.id }, message);
        return;
      }
      if (!(await tellPersonally(person, message))) options.untold?.(person, 'unreachable');
    },
    /**
     * The personal chat with the person, opened through the Bot Connector with their
     * Teams id, at the service URL of their own activities (both learned from what they
     * sent the bot, directory.ts): false when no replica has seen them, the record cannot be
     * read, or Teams refuses (the app is not installed for them).
     */
    tellPrivately: (person, message) => tellPersonally(person, message),
    async remove(ref) {
      await connector.remove(
        await options.serviceUrlOf(ref.conversation.id),
        teamsConversationId(ref.conversation),
        ref.id,
      );
    },
    record: (ref) => store.get(ref),
    shown: async (ref) => (await store.get(ref))?.message,
  };
}
