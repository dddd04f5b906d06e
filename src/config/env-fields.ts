/**
 * How the loaders read one environment variable (app-environment.ts,
 * worker-environment.ts): a blank value is unset, lists are comma-separated with
 * blanks dropped, cluster and namespace names are DNS-1123 labels, people are Slack or
 * Entra ids, and keys are parsed with a message that never repeats the value.
 */
import { z } from 'zod';
import { canonicalId, isPrincipal } from '../policy/policy-ids.js';

const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export type Env = Record<string, string | undefined>;

export const emptyToUndefined = (value: unknown): unknown =>
  typeof value === 'string' && value.trim() === '' ? undefined : value;

export const optionalString = z.preprocess(emptyToUndefined, z.string().optional());

export const clusterName = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .default('default')
    .refine((v) => DNS1123_LABEL.test(v) && v.length <= 63, 'must be a DNS-1123 label (a-z, 0-9, -)'),
);

/** A comma-separated list (blanks dropped) whose every item passes `valid`. */
export const commaList = (fallback: string, valid: (item: string) => boolean, message: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default(fallback)
      .transform((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== ''),
      )
      .refine((list) => list.every(valid), message),
  );

export const isDnsLabel = (v: string): boolean => DNS1123_LABEL.test(v) && v.length <= 63;

export const clusterList = commaList(
  'default',
  isDnsLabel,
  'every cluster must be a DNS-1123 label (a-z, 0-9, -)',
).refine((list) => list.length > 0, 'must name at least one cluster');

/** Entra object ids compare in lower case (src/policy/policy-ids.ts). */
const lowerGuids = (list: string[]): string[] => list.map(canonicalId);

export const readerList = commaList(
  '',
  (id) => id === '*' || isPrincipal(id),
  'must be `*` or comma-separated Slack user ids (U…/W…), user group ids (S…) and Entra user object ids (GUIDs, Teams)',
).transform(lowerGuids);

export const approverList = commaList(
  '',
  isPrincipal,
  'must be comma-separated Slack user ids (U…/W…), user group ids (S…) or Entra user object ids (GUIDs, Teams)',
).transform(lowerGuids);

export const positiveInt = (fallback: number) =>
  z.preprocess(emptyToUndefined, z.coerce.number().int().positive().default(fallback));

/**
 * ROLLOUT_DOCTOR_INCIDENT_RETENTION_DAYS: how long an incident's record is kept in Redis
 * after its last event (src/queue/incident-journal.ts), for `postmortem --incident`.
 */
export const incidentRetentionDays = z.preprocess(
  emptyToUndefined,
  z.coerce.number().int().min(1, 'must be at least 1 day').max(3650, 'must be at most 3650 days').default(30),
);
export const DAY_MS = 86_400_000;

export const port = z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000));

/**
 * ROLLOUT_DOCTOR_SHUTDOWN_SECONDS: from SIGTERM to exit at most, whatever Redis does.
 * Unset: the process's default (the app 10 s, the worker its drain grace + 3 s).
 */
export const shutdownSeconds = z.preprocess(
  emptyToUndefined,
  z.coerce.number().int().positive().max(3600).optional(),
);

export const logLevel = z.preprocess(emptyToUndefined, z.enum(LOG_LEVELS).default('info'));

/** A comma-separated setting parsed by `parse`, which throws an Error naming the bad entry. */
export const parsedList = <T>(parse: (text: string) => T) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default('')
      .transform((v, ctx) => {
        try {
          return parse(v);
        } catch (error) {
          ctx.addIssue({ code: 'custom', message: error instanceof Error ? error.message : String(error) });
          return z.NEVER;
        }
      }),
  );

const KEYGEN_HINT = 'generate keys with `rollout-doctor keygen` (docs/operations.md)';

/** Parses a key, or adds the issue that says why (never the value) and returns z.NEVER. */
function parsedKey<T>(parse: (text: string) => T, text: string, ctx: z.RefinementCtx): T {
  try {
    return parse(text);
  } catch (error) {
    ctx.addIssue({
      code: 'custom',
      message: `is not a valid key (${error instanceof Error ? error.message : 'unreadable'}): ${KEYGEN_HINT}`,
    });
    return z.NEVER;
  }
}

/** A required key setting parsed by `parse`; the message never repeats the value. */
export const keySetting = <T>(parse: (text: string) => T) =>
  z.preprocess(
    emptyToUndefined,
    z.string({ error: `is required: ${KEYGEN_HINT}` }).transform((v, ctx) => parsedKey(parse, v, ctx)),
  );

/** An optional key setting parsed by `parse` (empty: an empty map); the message never repeats the value. */
export const optionalKeySetting = <T>(parse: (text: string) => ReadonlyMap<string, T>) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((v, ctx): ReadonlyMap<string, T> =>
        v === undefined ? new Map() : parsedKey(parse, v, ctx),
      ),
  );

export function problemsOf(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${String(issue.path[0] ?? '(environment)')} ${issue.message}`);
}
