/**
 * Where a message lives and who acted on it, for every chat platform the app serves:
 * the records and jobs that steer where the bot speaks (subscriptions, approvals,
 * remediation jobs and outcomes, root state) name a platform beside the ids. An
 * absent platform is Slack, the only platform records had before Teams, so records
 * and jobs already in Redis read as they always did.
 *
 * Each platform's ids have their own shape, checked here: Slack channel ids, message
 * timestamps and user ids; Teams conversation ids (`19:…@thread.tacv2` channels,
 * `19:…@thread.v2` group chats, `a:…` personal chats), activity ids and Entra ID (AAD)
 * object ids (lower-case GUIDs) as people. The app signs the platform into every mark
 * and signature over such a record, so a Slack record cannot be replayed as a Teams
 * one or the other way round.
 */
import { z } from 'zod';

export const CHAT_PLATFORMS = ['slack', 'teams'] as const;
export type ChatPlatform = (typeof CHAT_PLATFORMS)[number];

/** A record's platform field: absent means Slack (records from before Teams). */
export const platformField = z.enum(CHAT_PLATFORMS).optional();

/** The platform a record names (absent: Slack). */
export function platformOf(record: { platform?: ChatPlatform | undefined }): ChatPlatform {
  return record.platform ?? 'slack';
}

/** `{ platform: 'teams' }` for Teams, nothing for Slack: what records store. */
export function platformTag(platform: ChatPlatform | undefined): { platform?: 'teams' } {
  return platform === 'teams' ? { platform: 'teams' } : {};
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface IdPatterns {
  /** A channel or chat. */
  conversation: RegExp;
  /** A message in it (a Slack ts, a Teams activity id). */
  message: RegExp;
  /** A person as records name them (requesters, approvers in jobs). */
  person: RegExp;
  /** A person an approval may name (Slack: user ids only, no bots or groups). */
  approver: RegExp;
}

export const ID_PATTERNS: Record<ChatPlatform, IdPatterns> = {
  slack: {
    conversation: /^[A-Z0-9]+$/,
    message: /^\d+\.\d+$/,
    person: /^[A-Z0-9]+$/,
    approver: /^[UW][A-Z0-9]{2,}$/,
  },
  teams: {
    conversation:
      /^(19:[A-Za-z0-9_.-]{1,200}@(thread\.(tacv2|skype|v2)|unq\.gbl\.spaces)|a:[A-Za-z0-9_-]{1,400})$/,
    message: /^(\d{1,20}|1:[A-Za-z0-9_-]{1,200})$/,
    person: GUID,
    approver: GUID,
  },
};

/** Loose bounds every id meets; the platform's pattern is checked by `checkRef`. */
export const anyConversation = z.string().min(1).max(420);
export const anyMessageId = z.string().min(1).max(210);
export const anyPerson = z.string().min(1).max(64);

/** Whether `id` is an id of `kind` on `platform`. */
export function isId(platform: ChatPlatform, kind: keyof IdPatterns, id: string): boolean {
  return ID_PATTERNS[platform][kind].test(id);
}

/**
 * A zod check for a record naming a message and people: every id must have its
 * platform's shape. `people` are approver ids, `requester` a person or "-".
 */
export function checkRef(
  value: {
    platform?: ChatPlatform | undefined;
    conversation: string;
    message: string;
    people?: readonly string[] | undefined;
    approvers?: readonly string[] | undefined;
    requester?: string | undefined;
    thread?: string | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  const platform = platformOf(value);
  const issue = (what: string): void => {
    ctx.addIssue({ code: 'custom', message: `${what} is not a ${platform} id` });
  };
  if (!isId(platform, 'conversation', value.conversation)) issue('the conversation');
  if (!isId(platform, 'message', value.message)) issue('the message');
  if (value.thread !== undefined && !isId(platform, 'message', value.thread)) issue('the thread');
  for (const p of value.people ?? []) if (!isId(platform, 'person', p)) issue('a person');
  for (const p of value.approvers ?? []) if (!isId(platform, 'approver', p)) issue('an approver');
  if (value.requester !== undefined && value.requester !== '-' && !isId(platform, 'person', value.requester))
    issue('the requester');
}

/**
 * The key part naming a message: `<channel>/<ts>` on Slack (the keys records have
 * always had), `teams:<conversation>/<activity>` on Teams.
 */
export function messageKeyPart(m: {
  platform?: ChatPlatform | undefined;
  channel: string;
  ts: string;
}): string {
  return `${platformOf(m) === 'slack' ? '' : `${platformOf(m)}:`}${m.channel}/${m.ts}`;
}

/** The record platform of an adapter's platform name; null for a platform records do not know. */
export function chatPlatform(name: string): ChatPlatform | null {
  return (CHAT_PLATFORMS as readonly string[]).includes(name) ? (name as ChatPlatform) : null;
}
