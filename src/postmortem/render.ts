/**
 * The post-mortem draft of an incident record, in Markdown shaped like the team's
 * post-mortems (../shared/seeds/): summary, timeline (UTC and a local zone), impact,
 * analysis with the error messages quoted, the alternatives, what was adopted, the
 * result, follow-ups and lessons. Every value from the record is untrusted text and
 * goes through markdown.ts; every sentence comes from words.ts. Pure.
 */
import type { Lang } from '../i18n/lang.js';
import { wordsIn } from '../i18n/catalogue.js';
import { mdCode, mdFence, mdRow, mdText } from './markdown.js';
import type { IncidentRecord, RecordedExclusion, RecordedWrite, TimelineEntry } from './record.js';
import { utcTime, zonedTime } from './time.js';
import { postmortemWords } from './words.js';
import { findKind } from '../remediation/kinds/index.js';
import { DEFAULT_WORKLOAD_KIND, WORKLOAD_KINDS, type WorkloadKind } from '../diagnosis/workload-ref.js';
import { sentenceIn } from '../message/sentences.js';

const isWorkloadKind = (kind: string | null): kind is WorkloadKind => WORKLOAD_KINDS.some((k) => k === kind);

type Words = ReturnType<typeof wordsIn<typeof postmortemWords>>;

interface RenderOptions {
  lang: Lang;
  /** The reader's IANA time zone (checked by the caller: time.ts isTimeZone). */
  zone: string;
}

const code = (text: string) => ({ md: mdCode(text) });
const text = (value: string) => ({ md: mdText(value) });
const people = (w: Words, ids: readonly string[]): string =>
  ids.length > 0 ? ids.map(mdCode).join(', ') : w.nobody({});

const OUTCOME_WORD: Record<RecordedWrite['outcome'], keyof Words> = {
  applied: 'outcomeApplied',
  'already-applied': 'outcomeAlreadyApplied',
  refused: 'outcomeRefused',
  failed: 'outcomeFailed',
  'rolled-out': 'outcomeRolledOut',
  'pods-ready': 'outcomePodsReady',
  'still-failing': 'outcomeStillFailing',
  timeout: 'outcomeTimeout',
  paused: 'outcomePaused',
  'not-queued': 'outcomeNotQueued',
  tampered: 'outcomeTampered',
};
const outcomeWord = (w: Words, outcome: RecordedWrite['outcome']): string =>
  (w[OUTCOME_WORD[outcome]] as (p: object) => string)({});

const causeWord = (w: Words, cause: RecordedExclusion['cause']): string =>
  cause === 'expired' ? w.exclusionExpired({}) : w.exclusionNodesChanged({});

const EXCLUSION_WORD = {
  removed: 'exclusionRemoved',
  'already-removed': 'exclusionAlreadyRemoved',
  refused: 'exclusionRefused',
  failed: 'exclusionFailed',
  offered: 'exclusionOffered',
  waiting: 'exclusionWaiting',
} as const satisfies Record<RecordedExclusion['outcome'], keyof Words>;

const exclusionWord = (w: Words, outcome: RecordedExclusion['outcome']): string =>
  w[EXCLUSION_WORD[outcome]]({});

function exclusionLine(w: Words, x: RecordedExclusion): string {
  const detail = x.detail ? ` ${mdText(x.detail)}` : '';
  return w.exclusionLine({
    at: utcTime(x.at),
    cause: causeWord(w, x.cause),
    outcome: exclusionWord(w, x.outcome),
    detail,
  });
}

function viaWords(w: Words, signal: NonNullable<IncidentRecord['signal']>): string {
  switch (signal.via) {
    case 'alert':
      return w.viaAlert({});
    case 'early-warning':
      return w.viaEarlyWarning({});
    case 'admission':
      return w.viaAdmission({});
    case 'command':
      return w.viaCommand({ by: code(signal.by ?? '?') });
  }
}

function summary(w: Words, record: IncidentRecord): string[] {
  const first = record.diagnoses.find((d) => d.findings.length > 0) ?? record.diagnoses[0];
  const codes = first?.findings.map((f) => mdCode(f.code)).join(', ') ?? '';
  const { adopted, end } = record;
  const at = end.at ? utcTime(end.at) : '';
  return [
    w.headSummary({}),
    '',
    record.signal
      ? w.summarySignal({ via: viaWords(w, record.signal), at: utcTime(record.signal.at) })
      : w.summaryNoSignal({}),
    ...(first ? [codes ? w.summaryFound({ codes }) : w.summaryNothingFound({})] : []),
    adopted
      ? w.summaryAdopted({ plan: code(adopted.kind), by: people(w, adopted.approvedBy) })
      : w.summaryNoFix({}),
    {
      'rolled-out': () => w.endRolledOut({ at }),
      'pods-ready': () => w.endPodsReady({ at }),
      undone: () => w.endUndone({ at }),
      failed: () => w.endFailed({ at }),
      open: () => w.endOpen({}),
    }[end.state](),
  ];
}

function entryWords(w: Words, entry: TimelineEntry): string {
  switch (entry.type) {
    case 'signal':
      return w.tlSignal({ via: viaWords(w, entry) });
    case 'diagnosis':
      return w.tlDiagnosis({ codes: entry.codes.map(mdCode).join(', ') || '-', offered: entry.offered });
    case 'approval':
      return (entry.result === 'claimed' ? w.tlApprovalClaimed : w.tlApprovalRecorded)({
        plan: code(entry.kind),
        user: code(entry.user),
      });
    case 'refusal':
      return w.tlRefusal({ plan: code(entry.planId), user: code(entry.user), reason: code(entry.reason) });
    case 'write':
      return (entry.undo ? w.tlUndo : w.tlWrite)({
        plan: code(entry.kind),
        outcome: outcomeWord(w, entry.outcome),
      });
    case 'exclusion':
      return w.tlExclusion({ cause: causeWord(w, entry.cause), outcome: exclusionWord(w, entry.outcome) });
  }
}

function timeline(w: Words, record: IncidentRecord, zone: string): string[] {
  // One offset in the header while it holds for every row; across a daylight-saving
  // change, each row says its own.
  const offsets = new Set(record.timeline.map((e) => zonedTime(e.at, zone).offset));
  const sample = zonedTime(record.timeline[0]?.at ?? new Date(0).toISOString(), zone);
  const one = offsets.size <= 1;
  const head = one ? `${mdText(zone)} (${sample.offset})` : mdText(zone);
  const local = (at: string): string => {
    const t = zonedTime(at, zone);
    return one ? t.time : `${t.time} (${t.offset})`;
  };
  return [
    w.headTimeline({}),
    '',
    ...(record.timeline.length === 0
      ? [`- ${w.notRecorded({})}`]
      : [
          w.timelineHeader({ zone: head }),
          ...record.timeline.map((e) => mdRow([utcTime(e.at), local(e.at), entryWords(w, e)])),
        ]),
  ];
}

function impact(w: Words, record: IncidentRecord): string[] {
  const points = record.serving;
  if (points.length === 0) return [w.headImpact({}), '', w.impactNotRecorded({})];
  const lowest = points.reduce((low, p) =>
    p.available / Math.max(1, p.desired) < low.available / Math.max(1, low.desired) ? p : low,
  );
  return [
    w.headImpact({}),
    '',
    w.impactLowest({ available: lowest.available, desired: lowest.desired }),
    '',
    w.impactHeader({}),
    ...points.map((p) =>
      mdRow([
        utcTime(p.at),
        String(p.available),
        String(p.desired),
        p.source === 'diagnosis' ? w.impactFromDiagnosis({}) : w.impactFromRollout({}),
      ]),
    ),
  ];
}

function analysis(w: Words, record: IncidentRecord): string[] {
  const first = record.diagnoses.find((d) => d.findings.length > 0) ?? record.diagnoses[0];
  const findings = first?.findings ?? [];
  const quoted = findings.filter((f) => f.messages.length > 0);
  return [
    w.headAnalysis({}),
    '',
    ...(!first
      ? [w.noDiagnosis({})]
      : findings.length === 0
        ? [w.noFindings({})]
        : findings.map((f) =>
            w.finding({ code: code(f.code), severity: code(f.severity), summary: text(f.summary) }),
          )),
    '',
    w.headErrors({}),
    '',
    ...(quoted.length === 0
      ? [w.noErrors({})]
      : quoted.flatMap((f) => [
          w.errorsIntro({ code: code(f.code) }),
          '',
          ...f.messages.flatMap((m) => [mdFence(m), '']),
        ])),
  ];
}

function alternatives(w: Words, record: IncidentRecord): string[] {
  const offered = unique(
    record.diagnoses.flatMap((d) => d.offered),
    (p) => p.id,
  );
  const withheld = unique(
    record.diagnoses.flatMap((d) => d.notOffered),
    (p) => `${p.kind}\n${p.addresses}\n${p.reason}`,
  );
  return [
    w.headResolution({}),
    '',
    w.headAlternatives({}),
    '',
    w.offeredIntro({}),
    '',
    ...(offered.length === 0
      ? [w.noneOffered({})]
      : offered.map((p) => w.offered({ kind: code(p.kind), summary: text(p.summary) }))),
    ...(withheld.length === 0
      ? []
      : [
          '',
          w.notOfferedIntro({}),
          '',
          ...withheld.map((p) =>
            w.notOffered({ kind: code(p.kind), code: code(p.addresses), reason: text(p.reason) }),
          ),
        ]),
    '',
    w.headAdopted({}),
    '',
    adoptedLine(w, record.adopted),
  ];
}

function adoptedLine(w: Words, adopted: IncidentRecord['adopted']): string {
  if (!adopted) return w.noneAdopted({});
  const by = people(w, adopted.approvedBy);
  return adopted.summary !== null
    ? w.adopted({ kind: code(adopted.kind), summary: text(adopted.summary), by })
    : w.adoptedNoSummary({ kind: code(adopted.kind), plan: code(adopted.planId), by });
}

function writeLine(w: Words, write: RecordedWrite): string {
  const detail = write.detail ? ` ${mdText(write.detail)}` : '';
  return w.writeLine({
    at: utcTime(write.at),
    plan: code(write.kind),
    outcome: outcomeWord(w, write.outcome),
    detail,
  });
}

function result(w: Words, record: IncidentRecord): string[] {
  const key = (x: RecordedWrite) => `${x.at}\n${x.planId}\n${x.outcome}`;
  const later = new Set(record.laterChanges.map(key));
  const own = record.writes.filter((x) => !later.has(key(x)));
  return [
    w.headResult({}),
    '',
    ...(own.length === 0 ? [summary(w, record).at(-1) ?? ''] : own.map((x) => writeLine(w, x))),
    '',
    w.laterIntro({}),
    '',
    ...(record.laterChanges.length + record.exclusions.length === 0
      ? [w.noLater({})]
      : [
          ...record.laterChanges.map((x) => writeLine(w, x)),
          ...record.exclusions.map((x) => exclusionLine(w, x)),
        ]),
  ];
}

const SURGE_CODES = new Set(['RolloutSurgeDeadlock', 'RolloutAtRisk', 'QuotaExceeded']);
const NODE_CODES = new Set(['CrashLoopOnNode']);
/** The kind patches the workload's spec: the manifest, left as it was, reverts it at the next apply. */
const patchesWorkload = (kind: string): boolean => findKind(kind)?.writes === 'workload-patch';
/** The kind writes the pods' required node affinity: a node exclusion, a stopgap to remove. */
const excludesNodes = (kind: string, workload: string | null): boolean =>
  findKind(kind)
    ?.paths(isWorkloadKind(workload) ? workload : DEFAULT_WORKLOAD_KIND)
    .some((path) => path.includes('/affinity')) ?? false;

function followUps(w: Words, record: IncidentRecord, lang: Lang): string[] {
  const codes = new Set(record.diagnoses.flatMap((d) => d.findings.map((f) => f.code)));
  const changes = unique(
    record.diagnoses.flatMap((d) => d.manifestChanges),
    (m) => m.diff,
  );
  const kind = record.adopted?.kind;
  const lines: string[] = [];
  for (const change of changes)
    lines.push(
      w.followManifest({ where: text(sentenceIn(change.where, lang)) }),
      '',
      mdFence(change.diff, 'diff'),
      '',
    );
  // An exclusion is a stopgap to take back, not a change to commit.
  const exclusion = kind !== undefined && excludesNodes(kind, record.workload.kind);
  if (changes.length === 0 && kind !== undefined && !exclusion && patchesWorkload(kind))
    lines.push(w.followLivePatch({ kind: code(kind) }));
  // The sweep may have ended it already (expired, or its nodes changed and it was removed).
  const ended = record.exclusions.find((x) => x.outcome === 'removed' || x.outcome === 'already-removed');
  if (exclusion || ended)
    lines.push(
      ended
        ? w.followExclusionEnded({ at: utcTime(ended.at), cause: causeWord(w, ended.cause) })
        : w.followExclusion({}),
    );
  const guard = [...codes].some((c) => SURGE_CODES.has(c))
    ? w.followGuardSurge({})
    : [...codes].some((c) => NODE_CODES.has(c))
      ? w.followGuardNode({})
      : w.followGuardGeneric({});
  return [w.headFollowUps({}), '', ...lines, guard];
}

function unique<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item);
  return [...seen.values()];
}

/**
 * The post-mortem draft of `record` in `options.lang`, times in UTC and `options.zone`.
 * @example renderPostmortem(buildIncidentRecord(id, events), { lang: 'ko', zone: 'Asia/Seoul' })
 */
export function renderPostmortem(record: IncidentRecord, options: RenderOptions): string {
  const w = wordsIn(postmortemWords, options.lang);
  const { workload } = record;
  const name = w.workload({
    kind: workload.kind ? code(workload.kind) : { md: w.kindUnknown({}) },
    name: code(workload.name),
    namespace: code(workload.namespace),
    cluster: code(workload.cluster),
  });
  const sections = [
    [w.title({ workload: name }), '', w.draftNote({})],
    summary(w, record),
    timeline(w, record, options.zone),
    impact(w, record),
    analysis(w, record),
    alternatives(w, record),
    result(w, record),
    followUps(w, record, options.lang),
    [w.headLessons({}), '', w.lessonsToWrite({})],
  ];
  return `${sections.map((s) => s.join('\n').replace(/\n+$/, '')).join('\n\n')}\n`;
}
