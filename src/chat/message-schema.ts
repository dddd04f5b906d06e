/**
 * The chat port's message model (model.ts) as a zod schema, for messages read back
 * from somewhere untrusted (a Teams card record in Redis, src/chat/teams/card-store.ts):
 * every span, part and button checked for its shape and bounded in size, buttons'
 * actions by `chatActionSchema`. Objects are strict, so a stored value cannot carry a
 * field no adapter knows.
 */
import { z } from 'zod';
import { chatActionSchema, choiceValueSchema } from './actions.js';
import { ICONS, type ChatMessage } from './model.js';

/** Longest string of a stored message (a whole patch in a `code` part is the longest we make). */
const MAX_STRING = 64 * 1024;
const MAX_ITEMS = 500;

const str = z.string().max(MAX_STRING);
const id = z.string().min(1).max(512);

const person = z.object({ platform: id, id, name: z.string().max(256).optional() }).strict();

const span = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: str }).strict(),
  z.object({ kind: z.literal('strong'), text: str }).strict(),
  z.object({ kind: z.literal('emphasis'), text: str }).strict(),
  z.object({ kind: z.literal('code'), text: str }).strict(),
  z.object({ kind: z.literal('mention'), person }).strict(),
  z.object({ kind: z.literal('group'), platform: id, id }).strict(),
  z.object({ kind: z.literal('link'), url: z.string().max(4096), label: str }).strict(),
  z.object({ kind: z.literal('icon'), icon: z.enum(ICONS) }).strict(),
  z.object({ kind: z.literal('break') }).strict(),
]);

const rich = z.array(span).max(MAX_ITEMS);

const confirm = z.object({ title: str, text: str, yes: str, no: str }).strict();

/** A choice beside a button: its options' values only from the closed set a press may carry. */
const choice = z
  .object({
    label: str,
    options: z
      .array(z.object({ value: choiceValueSchema, label: str }).strict())
      .min(1)
      .max(10),
  })
  .strict();

const button = z
  .object({
    label: str,
    action: chatActionSchema,
    style: z.enum(['primary', 'danger']).optional(),
    confirm: confirm.optional(),
    choice: choice.optional(),
  })
  .strict();

const part = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('heading'), text: str }).strict(),
  z
    .object({
      kind: z.literal('paragraph'),
      text: rich,
      role: z.enum(['verdict', 'state', 'resolved']).optional(),
    })
    .strict(),
  z.object({ kind: z.literal('note'), text: rich }).strict(),
  z
    .object({ kind: z.literal('code'), title: rich.optional(), body: str, whole: z.boolean().optional() })
    .strict(),
  z
    .object({
      kind: z.literal('table'),
      title: rich.optional(),
      header: z.array(str).max(MAX_ITEMS),
      rows: z.array(z.array(str).max(MAX_ITEMS)).max(MAX_ITEMS),
    })
    .strict(),
  z.object({ kind: z.literal('actions'), buttons: z.array(button).max(25) }).strict(),
  z.object({ kind: z.literal('divider') }).strict(),
]);

/** A whole message, validated. */
export const chatMessageSchema: z.ZodType<ChatMessage> = z
  .object({
    summary: rich,
    parts: z.array(part).max(MAX_ITEMS),
    brief: z.array(part).max(MAX_ITEMS).optional(),
  })
  .strict();
