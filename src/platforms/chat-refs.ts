/**
 * Where a message lives and who acted on it, for every chat platform the app serves
 * (the list: ./list.ts): the records and jobs that steer where the bot speaks
 * (subscriptions, approvals, remediation jobs and outcomes, root state) name a platform
 * beside the ids. An absent platform is the list's first, Slack, the only platform
 * records had before Teams, so records and jobs already in Redis read as they always did.
 *
 * Each platform's ids have their own shape (the list's `ids`), checked here. The app
 * signs the platform into every mark and signature over such a record, so a record of
 * one platform cannot be replayed as another's.
 */
import { z } from 'zod';
import { PLATFORM_LIST, type IdPatterns, type PlatformEntry } from './list.js';

export type ChatPlatform = (typeof PLATFORM_LIST)[number]['name'];

/** Every platform's name, in the list's order (./list.ts). */
export const CHAT_PLATFORMS = PLATFORM_LIST.map((p) => p.name) as [ChatPlatform, ...ChatPlatform[]];

/** The platform a record that names none is on: the list's first (records from before platforms). */
export const DEFAULT_PLATFORM: ChatPlatform = CHAT_PLATFORMS[0];

const ENTRIES: ReadonlyMap<string, PlatformEntry> = new Map(PLATFORM_LIST.map((p) => [p.name, p]));

/** A platform's entry in the list (./list.ts). */
export function platformEntry(platform: ChatPlatform): PlatformEntry {
  const entry = ENTRIES.get(platform);
  if (!entry) throw new Error(`no chat platform ${platform}`);
  return entry;
}

/** Whether a mention of a person by id reaches them on `platform` (a name: unknown platforms do not). */
export function mentionsById(platform: string): boolean {
  return ENTRIES.get(platform)?.mentionsById ?? false;
}

/** A record's platform field: absent means the default platform (records from before platforms). */
export const platformField = z.enum(CHAT_PLATFORMS).optional();

/** The platform a record names (absent: the default platform). */
export function platformOf(record: { platform?: ChatPlatform | undefined }): ChatPlatform {
  return record.platform ?? DEFAULT_PLATFORM;
}

/** `{ platform }` for any platform but the default, nothing for the default: what records store. */
export function platformTag(platform: ChatPlatform | undefined): { platform?: ChatPlatform } {
  return platform === undefined || platform === DEFAULT_PLATFORM ? {} : { platform };
}

/**
 * What a key or signed text says of a record's platform: nothing for the default
 * platform (the keys and signatures records have always had), else `<name><separator>`.
 */
export function platformPrefix(record: { platform?: ChatPlatform | undefined }, separator: string): string {
  const platform = platformOf(record);
  return platform === DEFAULT_PLATFORM ? '' : `${platform}${separator}`;
}

/** The platform a person id an approval names belongs to (the first whose shape it has), or null. */
export function platformOfApprover(id: string): ChatPlatform | null {
  return CHAT_PLATFORMS.find((p) => isId(p, 'approver', id)) ?? null;
}

/** The platform a conversation id belongs to (the first whose shape it has), or null. */
export function platformOfConversation(id: string): ChatPlatform | null {
  return CHAT_PLATFORMS.find((p) => isId(p, 'conversation', id)) ?? null;
}

/** A person id of any platform (requesters in jobs). */
export function isPersonId(id: string): boolean {
  return CHAT_PLATFORMS.some((p) => isId(p, 'person', id));
}

/** Loose bounds every id meets; the platform's pattern is checked by `checkRef`. */
export const anyConversation = z.string().min(1).max(420);
export const anyMessageId = z.string().min(1).max(210);
export const anyPerson = z.string().min(1).max(64);

/** Whether `id` is an id of `kind` on `platform`. */
export function isId(platform: ChatPlatform, kind: keyof IdPatterns, id: string): boolean {
  return platformEntry(platform).ids[kind].test(id);
}

/**
 * A zod check for a record naming a message and people: every id must have its
 * platform's shape. `people` are approver ids (of any platform: one person may approve
 * with the id they have), `requester` a person or "-".
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
  // Approvers of a message may be people of another platform too: the policy's people:
  // join a Slack id and an Entra id into one person, and one who has no id on the
  // message's platform approved with the one they have (the approval's signature names
  // the platform of the message, so a record still cannot move between platforms).
  for (const p of value.people ?? [])
    if (!CHAT_PLATFORMS.some((other) => isId(other, 'person', p))) issue('a person');
  for (const p of value.approvers ?? [])
    if (!CHAT_PLATFORMS.some((other) => isId(other, 'approver', p))) issue('an approver');
  if (value.requester !== undefined && value.requester !== '-' && !isId(platform, 'person', value.requester))
    issue('the requester');
}

/**
 * The key part naming a message: `<channel>/<ts>` on the default platform, Slack (the
 * keys records have always had), `<platform>:<conversation>/<message>` on any other
 * (`teams:19:…/1732…`).
 */
export function messageKeyPart(m: {
  platform?: ChatPlatform | undefined;
  channel: string;
  ts: string;
}): string {
  return `${platformPrefix(m, ':')}${m.channel}/${m.ts}`;
}

/** The record platform of an adapter's platform name; null for a platform records do not know. */
export function chatPlatform(name: string): ChatPlatform | null {
  return (CHAT_PLATFORMS as readonly string[]).includes(name) ? (name as ChatPlatform) : null;
}
