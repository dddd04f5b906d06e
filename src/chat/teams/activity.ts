import { z } from 'zod';

/**
 * The Bot Framework activities the Teams adapter acts on, validated before anything
 * reads them (the token says who sent the request, not that its body is sane). Fields
 * not listed are ignored; fields listed are bounded. Other activity types
 * (conversationUpdate, messageReaction, typing, …) parse as `other` and are answered
 * 200 with nothing done.
 */

const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const id = z.string().min(1).max(512);
const guid = z.string().regex(GUID, 'must be a GUID');

const channelAccountSchema = z
  .object({
    id,
    name: z.string().max(256).optional(),
    /** The Entra ID object id: what policy lists. Absent for bots and anonymous users. */
    aadObjectId: guid.optional(),
  })
  .loose();

const conversationSchema = z
  .object({
    id,
    conversationType: z.enum(['personal', 'groupChat', 'channel']).optional(),
    tenantId: guid.optional(),
    isGroup: z.boolean().optional(),
  })
  .loose();

const channelDataSchema = z
  .object({
    tenant: z.object({ id: guid }).loose().optional(),
    team: z.object({ id }).loose().optional(),
    channel: z.object({ id }).loose().optional(),
  })
  .loose();

const mentionSchema = z
  .object({
    type: z.literal('mention'),
    mentioned: z.object({ id, name: z.string().max(256).optional() }).loose(),
    text: z.string().max(512).optional(),
  })
  .loose();

const entitySchema = z.union([mentionSchema, z.object({ type: z.string().max(100) }).loose()]);

const common = {
  id: id.optional(),
  serviceUrl: z.url({ protocol: /^https?$/ }).max(2048),
  channelId: z.string().min(1).max(64),
  from: channelAccountSchema,
  recipient: channelAccountSchema,
  conversation: conversationSchema,
  channelData: channelDataSchema.optional(),
  replyToId: id.optional(),
  timestamp: z.string().max(64).optional(),
  /** The sender's client locale (`ko-KR`, `en-US`): the language the bot answers in (src/i18n/lang.ts). */
  locale: z.string().max(64).optional().catch(undefined),
};

const messageActivitySchema = z
  .object({
    ...common,
    type: z.literal('message'),
    text: z.string().max(40_000).default(''),
    entities: z.array(entitySchema).max(50).optional(),
  })
  .loose();

/** `Action.Execute` (Universal Actions): a press (`manual`) or a card refresh (`automatic`). */
const cardActionInvokeSchema = z
  .object({
    ...common,
    type: z.literal('invoke'),
    name: z.literal('adaptiveCard/action'),
    value: z
      .object({
        action: z
          .object({
            type: z.literal('Action.Execute'),
            id: z.string().max(256).optional(),
            verb: z.string().min(1).max(64),
            data: z.record(z.string(), z.unknown()).optional(),
          })
          .loose(),
        trigger: z.enum(['manual', 'automatic']).optional(),
      })
      .loose(),
  })
  .loose();

const otherActivitySchema = z.object({ ...common, type: z.string().min(1).max(64) }).loose();

export type MessageActivity = z.infer<typeof messageActivitySchema>;
export type CardActionInvoke = z.infer<typeof cardActionInvokeSchema>;
export type ChannelAccount = z.infer<typeof channelAccountSchema>;

type ParsedActivity =
  | { kind: 'message'; activity: MessageActivity }
  | { kind: 'card-action'; activity: CardActionInvoke }
  | { kind: 'other'; activity: z.infer<typeof otherActivitySchema> };

/** The tenant an activity comes from: channelData.tenant.id, else conversation.tenantId. */
export function tenantOf(activity: {
  channelData?: { tenant?: { id: string } | undefined } | undefined;
  conversation: { tenantId?: string | undefined };
}): string | undefined {
  return activity.channelData?.tenant?.id ?? activity.conversation.tenantId;
}

/**
 * Parses a request body: a message, a card action invoke, another activity, or a
 * reason it is none of these (the endpoint answers 400).
 */
export function parseActivity(
  body: string,
): { ok: true; parsed: ParsedActivity } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return { ok: false, reason: 'body is not JSON' };
  }
  const type = typeof json === 'object' && json !== null ? (json as { type?: unknown }).type : undefined;
  if (type === 'message') {
    const parsed = messageActivitySchema.safeParse(json);
    return parsed.success
      ? { ok: true, parsed: { kind: 'message', activity: parsed.data } }
      : { ok: false, reason: firstIssue(parsed.error) };
  }
  if (type === 'invoke' && (json as { name?: unknown }).name === 'adaptiveCard/action') {
    const parsed = cardActionInvokeSchema.safeParse(json);
    return parsed.success
      ? { ok: true, parsed: { kind: 'card-action', activity: parsed.data } }
      : { ok: false, reason: firstIssue(parsed.error) };
  }
  const parsed = otherActivitySchema.safeParse(json);
  return parsed.success
    ? { ok: true, parsed: { kind: 'other', activity: parsed.data } }
    : { ok: false, reason: firstIssue(parsed.error) };
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue === undefined ? 'invalid activity' : `${issue.path.join('.') || 'activity'}: ${issue.message}`;
}

/**
 * The text of a message without the bot's own mention(s): Teams puts `<at>Name</at>`
 * into `text` for each mention and lists it in `entities`. Only mentions of the bot
 * (recipient id) are removed; the rest of the text is the command, untrusted.
 */
export function commandText(activity: MessageActivity): string {
  let text = activity.text;
  for (const entity of activity.entities ?? []) {
    if (entity.type !== 'mention') continue;
    const mention = entity as z.infer<typeof mentionSchema>;
    if (mention.mentioned.id !== activity.recipient.id || mention.text === undefined) continue;
    text = text.split(mention.text).join(' ');
  }
  return text
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}
