/**
 * The record an exclude-node plan writes beside its affinity, in the same JSON patch
 * (exclusion-record.ts): which values it adds, which nodes, what set them apart, and
 * when it ends (markers the executor fills at the apply: exclusion-ttl.ts). An earlier
 * record on the workload is carried on for the values of it the affinity still holds,
 * so removing the newer exclusion removes the older one's values too, and never the
 * user's. Pure.
 */
import type { TemplateCrashPicture } from '../../diagnosis/crash/crash-distribution.js';
import type { Affinity, Node } from '../../diagnosis/k8s.js';
import {
  annotationPointer,
  mergeValues,
  readRecord,
  recordAnnotations,
  type ExclusionRecord,
} from '../exclusion-record.js';
import { DEFAULT_EXCLUSION_TTL, expiresMarker, UNTIL_REMOVED, type ExclusionTtl } from '../exclusion-ttl.js';
import { translate } from '../../i18n/catalogue.js';
import { exclusionWords } from '../exclusion-words.js';
import { APPLY_TIME } from '../restart-time.js';
import type { JsonPatchOp } from '../json-pointer.js';

/** The values of `key` some required NotIn of `affinity` already holds. */
function notInValues(affinity: Affinity | undefined, key: string): Set<string> {
  const terms =
    affinity?.nodeAffinity?.requiredDuringSchedulingIgnoredDuringExecution?.nodeSelectorTerms ?? [];
  const values = new Set<string>();
  for (const term of terms)
    for (const e of term.matchExpressions ?? [])
      if (e.key === key && e.operator === 'NotIn') for (const v of e.values ?? []) values.add(v);
  return values;
}

/** What the plan records, before its times are filled. */
export function exclusionRecord(input: {
  before: Affinity | undefined;
  exclusion: { key: string; values: readonly string[] };
  nodes: readonly Node[];
  picture: TemplateCrashPicture;
  finding: string;
  annotations: Readonly<Record<string, string>> | undefined;
  ttl: ExclusionTtl | undefined;
}): ExclusionRecord {
  const { before, exclusion } = input;
  const held = notInValues(before, exclusion.key);
  const added = { [exclusion.key]: exclusion.values.filter((v) => !held.has(v)) };
  // An earlier record: only the values the affinity still holds are still ours.
  const earlier = readRecord(input.annotations);
  const kept: Record<string, string[]> = {};
  for (const [key, values] of Object.entries(earlier?.values ?? {})) {
    const still = notInValues(before, key);
    const ours = values.filter((v) => still.has(v));
    if (ours.length > 0) kept[key] = ours;
  }
  const nodes = input.nodes.map((n) => ({
    name: n.metadata.name ?? '',
    ...(n.metadata.uid ? { uid: n.metadata.uid } : {}),
  }));
  const separator = input.picture.blame === 'attribute' ? input.picture.separator : undefined;
  return {
    values: mergeValues(kept, added),
    nodes: [...(earlier?.nodes ?? []).filter((e) => !nodes.some((n) => n.name === e.name)), ...nodes],
    reason: {
      finding: input.finding,
      fields: separator ? [...separator.fields] : [],
      bad: separator ? separator.bad.map((b) => [...b]) : [],
    },
    setAt: APPLY_TIME,
    expiresAt: expiresMarker(input.ttl ?? DEFAULT_EXCLUSION_TTL),
  };
}

/**
 * The operations that write the record: one `add` per annotation, or (a workload with
 * no annotations at all) one `add` of the map; JSON patch `add` replaces a member that
 * exists, so an earlier record is overwritten with the merged one.
 */
export function recordOps(
  record: ExclusionRecord,
  annotations: Readonly<Record<string, string>> | undefined,
): JsonPatchOp[] {
  const written = recordAnnotations(record);
  if (annotations === undefined) return [{ op: 'add', path: '/metadata/annotations', value: written }];
  return Object.entries(written).map(([key, value]) => ({ op: 'add', path: annotationPointer(key), value }));
}

/** The operations that put the annotations back as they were before `recordOps` (the Undo). */
export function recordUndoOps(
  record: ExclusionRecord,
  annotations: Readonly<Record<string, string>> | undefined,
): JsonPatchOp[] {
  return Object.keys(recordAnnotations(record)).map((key) => {
    const was = annotations?.[key];
    return was === undefined
      ? { op: 'remove' as const, path: annotationPointer(key) }
      : { op: 'replace' as const, path: annotationPointer(key), value: was };
  });
}

/**
 * How long the exclusion lasts, in the plan's words (English, as the plan's other
 * words: a plan is data the renderers show as it is).
 */
export function lastsWords(ttl: ExclusionTtl | undefined): string {
  const chosen = ttl ?? DEFAULT_EXCLUSION_TTL;
  return chosen === UNTIL_REMOVED
    ? translate(exclusionWords, 'en', 'lastsUntilRemoved')
    : translate(exclusionWords, 'en', 'lasts', { ttl: chosen });
}
