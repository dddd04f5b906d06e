/**
 * The record an exclude-node plan writes beside its affinity, in the same JSON patch
 * (exclusion-record.ts): which values it adds, which nodes, what set them apart, and
 * when it ends (markers the executor fills at the apply: exclusion-ttl.ts). An earlier
 * record on the workload is carried on for the values of it the affinity still holds,
 * so removing the newer exclusion removes the older one's values too, and never the
 * user's; while that earlier exclusion is live, the record ends no sooner than it did
 * (the marker's floor), so a shorter new one never ends it early. Pure.
 */
import type { TemplateCrashPicture } from '../../diagnosis/crash/crash-distribution.js';
import type { Affinity, Node } from '../../diagnosis/k8s.js';
import {
  annotationPointer,
  exclusionState,
  mergeValues,
  readRecord,
  recordAnnotations,
  type ExclusionRecord,
} from '../exclusion-record.js';
import {
  DEFAULT_EXCLUSION_TTL,
  expiresMarker,
  NEVER,
  UNTIL_REMOVED,
  type ExclusionTtl,
} from '../exclusion-ttl.js';
import { translate } from '../../i18n/catalogue.js';
import { exclusionWords } from '../exclusion-words.js';
import { APPLY_TIME } from '../restart-time.js';
import type { JsonPatchOp } from '../json-pointer.js';
import type { PlanSaid } from '../plan-said.js';

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

type Carried = { values: Record<string, string[]>; nodes: ExclusionRecord['nodes']; until?: string };

/**
 * The earlier exclusion a new record carries on: its values the affinity still holds
 * (only those are still ours), its nodes, and, while it is live at `now`, its end
 * (RFC 3339, or `never`): the floor of the new record's end.
 */
function carriedExclusion(
  annotations: Readonly<Record<string, string>> | undefined,
  before: Affinity | undefined,
  now: number,
): Carried | undefined {
  const earlier = readRecord(annotations);
  if (!earlier) return undefined;
  const values: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(earlier.values)) {
    const still = notInValues(before, key);
    const ours = list.filter((v) => still.has(v));
    if (ours.length > 0) values[key] = ours;
  }
  if (Object.keys(values).length === 0) return { values, nodes: earlier.nodes };
  const state = exclusionState(earlier, now).state;
  const until = state === 'until-removed' ? NEVER : state === 'live' ? earlier.expiresAt : undefined;
  return { values, nodes: earlier.nodes, ...(until ? { until } : {}) };
}

/**
 * The warning of a plan that carries an earlier live exclusion on: whose, and that the
 * one record now ends no sooner than it did (or lasts until removed). Empty otherwise.
 */
function carriedWarnings(carried: Carried | undefined): PlanSaid[] {
  if (!carried?.until) return [];
  const nodes = carried.nodes.map((n) => n.name).join(', ');
  return [
    carried.until === NEVER
      ? { key: 'exclusionCarriedNever', params: { nodes } }
      : { key: 'exclusionCarried', params: { nodes, until: carried.until } },
  ];
}

/** What the plan records, before its times are filled. */
export function exclusionRecord(input: {
  before: Affinity | undefined;
  exclusion: { key: string; values: readonly string[] };
  nodes: readonly Node[];
  picture: TemplateCrashPicture;
  finding: string;
  ttl: ExclusionTtl | undefined;
  /** The earlier exclusion on the workload, carried on (carriedExclusion). */
  earlier: Carried | undefined;
}): ExclusionRecord {
  const { before, exclusion, earlier } = input;
  const held = notInValues(before, exclusion.key);
  const added = { [exclusion.key]: exclusion.values.filter((v) => !held.has(v)) };
  const kept = earlier?.values ?? {};
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
    expiresAt: expiresMarker(input.ttl ?? DEFAULT_EXCLUSION_TTL, earlier?.until),
  };
}

/**
 * The record's whole write for a plan made from `snapshot` on a workload with
 * `annotations`: its ops, the Undo's, and the warning of an earlier exclusion carried on.
 */
export function exclusionWrite(
  snapshot: { capturedAt: string },
  annotations: Readonly<Record<string, string>> | undefined,
  input: Omit<Parameters<typeof exclusionRecord>[0], 'earlier'>,
): { ops: JsonPatchOp[]; undo: JsonPatchOp[]; warnings: PlanSaid[] } {
  // The snapshot's time says whether an earlier exclusion is still live.
  const earlier = carriedExclusion(annotations, input.before, Date.parse(snapshot.capturedAt));
  const record = exclusionRecord({ ...input, earlier });
  return {
    ops: recordOps(record, annotations),
    undo: recordUndoOps(record, annotations),
    warnings: carriedWarnings(earlier),
  };
}

/**
 * The operations that write the record: one `add` per annotation, or (a workload with
 * no annotations at all) one `add` of the map; JSON patch `add` replaces a member that
 * exists, so an earlier record is overwritten with the merged one.
 */
function recordOps(
  record: ExclusionRecord,
  annotations: Readonly<Record<string, string>> | undefined,
): JsonPatchOp[] {
  const written = recordAnnotations(record);
  if (annotations === undefined) return [{ op: 'add', path: '/metadata/annotations', value: written }];
  return Object.entries(written).map(([key, value]) => ({ op: 'add', path: annotationPointer(key), value }));
}

/** The operations that put the annotations back as they were before `recordOps` (the Undo). */
function recordUndoOps(
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
