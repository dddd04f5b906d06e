/**
 * What people do in chat, platform-free: the buttons' meanings. An adapter encodes an
 * action into its platform's button (Slack: an action_id and a value; Teams: the data
 * of an `Action.Execute`) and decodes a press back into a `ChatAction` with
 * `chatActionSchema`: a press is untrusted input until it parses.
 */
import { z } from 'zod';
import { WORKLOAD_KINDS, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { isId, type ChatPlatform } from '../platforms/chat-refs.js';
import {
  EXCLUSION_TTL_CHOICES,
  exclusionTtlChoiceSchema,
  type ExclusionTtlChoice,
} from '../remediation/exclusion-ttl.js';
import { clusterSchema, namespaceSchema, resourceNameSchema } from '../queue/schemas.js';

/** A message nobody asked for (alert and early-warning threads), said so in signed data. */
export const NO_REQUESTER = '-';

/**
 * Who asked for the diagnosis a message shows: a person id on the message's platform,
 * or NO_REQUESTER. It travels in the app's own signed marks and in the button, never
 * in a record a Redis writer could delete (the two-person rule depends on it).
 */
export type Requester = string;

/**
 * A person id of `platform` (its shape in the list of platforms, src/platforms/list.ts),
 * or NO_REQUESTER; anything else is no requester value at all.
 */
export function isRequester(value: string, platform: ChatPlatform): value is Requester {
  return value === NO_REQUESTER || isId(platform, 'person', value);
}

/** What a Re-run diagnoses again. */
export interface RerunTarget {
  namespace: string;
  name: string;
  /** Absent: a Deployment (the values posted before other kinds). */
  kind?: WorkloadKind;
}

export type ChatAction =
  /**
   * Approve a stored plan (Apply). `shown` is the digest of the plan as the message
   * showed it (null: a button posted before buttons carried one); `requester` who
   * asked for the diagnosis (null: a button posted before buttons named one). `lasts`:
   * how long a node exclusion lasts, as the approver chose it beside the button
   * (absent: as the plan says, its configured default); one of a closed set.
   */
  | {
      kind: 'approve';
      planId: string;
      shown: string | null;
      requester: Requester | null;
      lasts?: ExclusionTtlChoice;
    }
  /** Approve the undo of an applied plan: a stored plan too, approval-gated the same way. */
  | { kind: 'undo'; planId: string; shown: string | null; requester: Requester | null }
  /** Diagnose the same workload again. */
  | { kind: 'rerun'; cluster: string; target: Required<RerunTarget> }
  /** A plan already approved or expired: the button only says where it stands. */
  | { kind: 'status'; planId: string }
  /** Remove a result (its requester only). */
  | { kind: 'dismiss' }
  /**
   * Draft the post-mortem of the incident a resolved thread is about. It carries
   * nothing: the incident is the app's record of the pressed message
   * (src/chat/notify/postmortem-buttons.ts), never what the platform sends back.
   */
  | { kind: 'postmortem' }
  /**
   * Propose a stored plan's lasting change in Git (docs/propose-in-git.md): the plan as the message
   * showed it (`shown`, its digest) and who asked for the diagnosis, as Approve carries
   * them, so the same approval policy decides (src/chat/use-cases/propose-press.ts).
   */
  | { kind: 'propose'; planId: string; shown: string | null; requester: Requester | null };

export type ChatActionKind = ChatAction['kind'];

const planId = z.string().min(1).max(2000);
const shown = z
  .string()
  .regex(/^[0-9a-f]{64}$/)
  .nullable();
const requester = z.string().min(1).max(100).nullable();

/** A decoded press, validated: adapters parse what the platform sent back with this. */
export const chatActionSchema: z.ZodType<ChatAction> = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('approve'),
      planId,
      shown,
      requester,
      lasts: exclusionTtlChoiceSchema.optional(),
    })
    .strict(),
  z.object({ kind: z.literal('undo'), planId, shown, requester }).strict(),
  z
    .object({
      kind: z.literal('rerun'),
      // Kubernetes names, as the diagnosis job has them: a Re-run that could never be
      // queued is not a press, and spends no budget (the job's schema refused it after).
      cluster: clusterSchema,
      target: z
        .object({ namespace: namespaceSchema, name: resourceNameSchema, kind: z.enum(WORKLOAD_KINDS) })
        .strict(),
    })
    .strict(),
  z.object({ kind: z.literal('status'), planId }).strict(),
  z.object({ kind: z.literal('dismiss') }).strict(),
  z.object({ kind: z.literal('postmortem') }).strict(),
  z.object({ kind: z.literal('propose'), planId, shown, requester }).strict(),
]);

/** The value of a choice's option that keeps the plan's own duration (its configured default). */
export const PLANNED = 'planned';

/** An option's value as a client sends it back: the plan's own, or one of the choices. Nothing else. */
export const choiceValueSchema = z.enum([PLANNED, ...EXCLUSION_TTL_CHOICES]);

/**
 * How long an exclusion lasts, from the value a client sent for the choice beside an
 * Approve button: `{ lasts }` for a choice, `{}` for the plan's own (or no choice sent),
 * null for a value that is none of the options (refused: never taken as free text).
 */
export function lastsOfChoice(value: unknown): { lasts?: ExclusionTtlChoice } | null {
  if (value === undefined || value === null) return {};
  const parsed = choiceValueSchema.safeParse(value);
  if (!parsed.success) return null;
  return parsed.data === PLANNED ? {} : { lasts: parsed.data };
}
