/**
 * The record of a node exclusion, kept on the workload itself so it
 * survives Redis: annotations on the workload object's metadata, written in the same
 * JSON patch as the affinity (one write). Never on the pod template: an annotation
 * there changes the template, and a changed template starts a rollout.
 *
 * - `rollout-doctor.io/exclusion.values`: the NotIn values rollout-doctor added, by
 *   label key, as JSON (the user's own values are not here, so removal leaves them);
 * - `rollout-doctor.io/exclusion.nodes`: the nodes excluded, name and uid (a node
 *   replaced under the same name has another uid);
 * - `rollout-doctor.io/exclusion.reason`: the finding and what set the nodes apart
 *   (the node-diff separator: fields and the values the crashing nodes had);
 * - `rollout-doctor.io/exclusion.set-at` and `.expires-at`: RFC 3339 (in a plan, the
 *   markers the executor fills at the apply: exclusion-ttl.ts), expires-at `never`
 *   for an exclusion that lasts until removed.
 *
 * Everything read back from a cluster is untrusted: a record that does not parse is
 * no record (nothing is removed on its word). Pure.
 */
import { z } from 'zod';
import { escapeToken } from './json-pointer.js';
import { NEVER, rfc3339Time } from './exclusion-ttl.js';

const EXCLUSION_PREFIX = 'rollout-doctor.io/exclusion.';

export const EXCLUSION_ANNOTATIONS = {
  values: `${EXCLUSION_PREFIX}values`,
  nodes: `${EXCLUSION_PREFIX}nodes`,
  reason: `${EXCLUSION_PREFIX}reason`,
  setAt: `${EXCLUSION_PREFIX}set-at`,
  expiresAt: `${EXCLUSION_PREFIX}expires-at`,
} as const;

/** JSON pointer of one record annotation on the workload object. */
export function annotationPointer(key: string): string {
  return `/metadata/annotations/${escapeToken(key)}`;
}

/** Every pointer a record is written at (the allowlist lets exclude-node write these and no other annotation). */
export const EXCLUSION_POINTERS: readonly string[] =
  Object.values(EXCLUSION_ANNOTATIONS).map(annotationPointer);

const labelValue = z.string().max(253);
const recordSchema = z.object({
  values: z.record(z.string().max(317), z.array(labelValue).max(50)),
  nodes: z.array(z.object({ name: z.string().max(253), uid: z.string().max(64).optional() })).max(50),
  reason: z.object({
    finding: z.string().max(64),
    fields: z.array(z.string().max(330)).max(4),
    bad: z.array(z.array(z.string().max(330)).max(20)).max(4),
  }),
  setAt: z.string().max(40),
  expiresAt: z.string().max(40),
});

/** An exclusion as recorded on its workload. */
export type ExclusionRecord = z.infer<typeof recordSchema>;

/** The record as annotations (values JSON-encoded where they are not plain strings). */
export function recordAnnotations(record: ExclusionRecord): Record<string, string> {
  return {
    [EXCLUSION_ANNOTATIONS.values]: JSON.stringify(record.values),
    [EXCLUSION_ANNOTATIONS.nodes]: JSON.stringify(record.nodes),
    [EXCLUSION_ANNOTATIONS.reason]: JSON.stringify(record.reason),
    [EXCLUSION_ANNOTATIONS.setAt]: record.setAt,
    [EXCLUSION_ANNOTATIONS.expiresAt]: record.expiresAt,
  };
}

function parsedJson(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The record a workload's annotations hold, or undefined when it has none or one that does not parse. */
export function readRecord(
  annotations: Readonly<Record<string, string>> | undefined,
): ExclusionRecord | undefined {
  if (!annotations?.[EXCLUSION_ANNOTATIONS.values]) return undefined;
  const parsed = recordSchema.safeParse({
    values: parsedJson(annotations[EXCLUSION_ANNOTATIONS.values]),
    nodes: parsedJson(annotations[EXCLUSION_ANNOTATIONS.nodes]),
    reason: parsedJson(annotations[EXCLUSION_ANNOTATIONS.reason]),
    setAt: annotations[EXCLUSION_ANNOTATIONS.setAt],
    expiresAt: annotations[EXCLUSION_ANNOTATIONS.expiresAt],
  });
  return parsed.success ? parsed.data : undefined;
}

/** Where an exclusion stands at a time: lasting until removed, live until its end, expired, or an end that does not read. */
type ExclusionState =
  | { state: 'until-removed'; setAt: number | undefined }
  | { state: 'live' | 'expired'; setAt: number | undefined; expiresAt: number }
  | { state: 'unreadable'; setAt: number | undefined };

/** @example exclusionState(record, Date.now()).state // 'expired' */
export function exclusionState(record: ExclusionRecord, now: number): ExclusionState {
  const setAt = rfc3339Time(record.setAt);
  if (record.expiresAt === NEVER) return { state: 'until-removed', setAt };
  const expiresAt = rfc3339Time(record.expiresAt);
  if (expiresAt === undefined) return { state: 'unreadable', setAt };
  return { state: now >= expiresAt ? 'expired' : 'live', setAt, expiresAt };
}

/** The values of `values` not already in `into`, merged in (per key, order kept). */
export function mergeValues(
  into: Readonly<Record<string, readonly string[]>>,
  values: Readonly<Record<string, readonly string[]>>,
): Record<string, string[]> {
  const merged: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(into)) merged[key] = [...list];
  for (const [key, list] of Object.entries(values)) {
    const at = (merged[key] ??= []);
    for (const v of list) if (!at.includes(v)) at.push(v);
  }
  return merged;
}
