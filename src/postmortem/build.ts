/**
 * The record of one incident from timestamped audit events (audit-line.ts): which
 * events belong to it, its first signal, the diagnoses, approvals, refusals and
 * writes, the plan adopted, how it ended and what changed after. Pure: the same
 * events give the same record, whatever order they come in.
 */
import type { AuditDiagnosis, AuditEvent } from '../audit.js';
import type { TimedEvent } from './audit-line.js';
import type { IncidentRecord, RecordedDiagnosis, RecordedWrite, SignalVia, TimelineEntry } from './record.js';

/**
 * Who asks for a diagnosis that no person asked for, as the diagnose job names it
 * (src/app/alerts/app-intake.ts ALERT_REQUESTER and ADMISSION_REQUESTER,
 * src/queue/diagnose-signature.ts WATCH_REQUESTER; test/unit/postmortem-record.test.ts
 * holds them equal). Anyone else is a person's command.
 */
export const SIGNAL_REQUESTERS: Readonly<Record<string, SignalVia>> = {
  ALERTMANAGER: 'alert',
  EARLYWARNING: 'early-warning',
  ADMISSION: 'admission',
};

/** Outcomes that end a rollout well. */
const DONE = new Set(['rolled-out', 'pods-ready']);
/** Outcomes of a write that took place (an Undo that took back a change). */
const WRITTEN = new Set(['applied', 'already-applied', 'rolled-out', 'pods-ready', 'paused']);

/** The incident an event is about: `<cluster>/<namespace>/<workload>`, or undefined (no workload named). */
export function incidentIdOf(event: AuditEvent): string | undefined {
  if (event.action === 'notification' || event.action === 'postmortem') return undefined;
  const { cluster, namespace, deployment } = event;
  if (!cluster || !namespace || !deployment) return undefined;
  return incidentId(cluster, namespace, deployment);
}

/** An incident's id: the cluster, namespace and name of its workload (`prod/vision/tracker`). */
export function incidentId(cluster: string, namespace: string, name: string): string {
  return `${cluster}/${namespace}/${name}`;
}

/** Every incident the events name, in the order each first appears in time. */
export function incidentIds(events: readonly TimedEvent[]): string[] {
  const ids = new Set<string>();
  for (const { event } of inTimeOrder(events)) {
    const id = incidentIdOf(event);
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}

function inTimeOrder(events: readonly TimedEvent[]): TimedEvent[] {
  // Stable: events logged in the same millisecond keep the log's order.
  return events
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at - b.e.at || a.i - b.i)
    .map(({ e }) => e);
}

const iso = (ms: number): string => new Date(ms).toISOString();

function diagnosisOf(at: number, d: AuditDiagnosis): RecordedDiagnosis {
  return {
    at: iso(at),
    requestedBy: d.requestedBy,
    findings: d.findings.map((f) => ({ ...f, messages: [...f.messages] })),
    offered: d.offered.map((p) => ({ ...p })),
    notOffered: d.notOffered.map((p) => ({ ...p })),
    manifestChanges: (d.manifestChanges ?? []).map((m) => ({ ...m })),
  };
}

/** The events of one incident, sorted, with the plans its diagnoses offered. */
function eventsOf(id: string, events: readonly TimedEvent[]): TimedEvent[] {
  const own = inTimeOrder(events).filter(({ event }) => incidentIdOf(event) === id);
  const plans = new Set(
    own.flatMap(({ event }) => (event.action === 'diagnosis' ? event.offered.map((p) => p.id) : [])),
  );
  // A refusal that names no workload belongs here when it names one of its plans.
  const strays = events.filter(
    ({ event }) => event.action === 'refusal' && incidentIdOf(event) === undefined && plans.has(event.planId),
  );
  return inTimeOrder([...own, ...strays]);
}

function signalOf(diagnoses: readonly { at: number; d: AuditDiagnosis }[]): IncidentRecord['signal'] {
  const first = [...diagnoses].sort((a, b) => Date.parse(a.d.requestedAt) - Date.parse(b.d.requestedAt))[0];
  if (!first) return null;
  const via = SIGNAL_REQUESTERS[first.d.requestedBy] ?? 'command';
  return {
    at: new Date(Date.parse(first.d.requestedAt)).toISOString(),
    via,
    ...(via === 'command' ? { by: first.d.requestedBy } : {}),
  };
}

/** How it ended: the first write that completed the rollout, an Undo after it, or none. */
function endOf(writes: readonly RecordedWrite[]): { end: IncidentRecord['end']; ending?: RecordedWrite } {
  const done = writes.find((w) => !w.undo && DONE.has(w.outcome));
  if (done) {
    const undo = writes.find((w) => w.undo && w.at >= done.at && WRITTEN.has(w.outcome));
    return undo
      ? { end: { state: 'undone', at: undo.at }, ending: done }
      : {
          end: { state: done.outcome === 'pods-ready' ? 'pods-ready' : 'rolled-out', at: done.at },
          ending: done,
        };
  }
  const last = writes.filter((w) => !w.undo).at(-1);
  if (last && !WRITTEN.has(last.outcome)) return { end: { state: 'failed', at: last.at }, ending: last };
  return { end: { state: 'open', at: null }, ...(last ? { ending: last } : {}) };
}

function adoptedOf(
  ending: RecordedWrite | undefined,
  record: Pick<IncidentRecord, 'approvals' | 'diagnoses'>,
): IncidentRecord['adopted'] {
  const claimed = record.approvals
    .filter((a) => a.result === 'claimed' && !a.planId.startsWith('undo-'))
    .at(-1);
  const planId = ending?.planId ?? claimed?.planId;
  if (planId === undefined) return null;
  const offered = record.diagnoses.flatMap((d) => d.offered).find((p) => p.id === planId);
  const approvedBy =
    ending?.approvedBy ?? record.approvals.filter((a) => a.planId === planId).map((a) => a.user);
  return {
    planId,
    kind: ending?.kind ?? claimed?.kind ?? offered?.kind ?? 'unknown',
    summary: offered?.summary ?? null,
    approvedBy: [...approvedBy],
  };
}

function servingOf(
  diagnoses: readonly { at: number; d: AuditDiagnosis }[],
  ending: RecordedWrite | undefined,
): IncidentRecord['serving'] {
  const points: IncidentRecord['serving'] = diagnoses.flatMap(({ at, d }) =>
    d.serving
      ? [
          {
            at: iso(at),
            desired: d.serving.desired,
            available: d.serving.available,
            source: 'diagnosis' as const,
          },
        ]
      : [],
  );
  const desired = points.at(-1)?.desired;
  // A completed rollout has every desired replica available; with no desired count read, that stays unknown.
  if (ending && DONE.has(ending.outcome) && desired !== undefined)
    points.push({ at: ending.at, desired, available: desired, source: 'rolled-out' });
  return points;
}

function timelineOf(record: Omit<IncidentRecord, 'timeline'>): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...(record.signal ? [{ type: 'signal' as const, ...record.signal }] : []),
    ...record.diagnoses.map((d) => ({
      at: d.at,
      type: 'diagnosis' as const,
      codes: d.findings.map((f) => f.code),
      offered: d.offered.length,
    })),
    ...record.approvals.map((a) => ({ type: 'approval' as const, ...a })),
    ...record.refusals.map(({ at, planId, user, reason }) => ({
      at,
      type: 'refusal' as const,
      planId,
      user,
      reason,
    })),
    ...record.writes.map(({ at, planId, kind, outcome, undo }) => ({
      at,
      type: 'write' as const,
      planId,
      kind,
      outcome,
      undo,
    })),
    ...record.exclusions.map(({ at, cause, outcome }) => ({
      at,
      type: 'exclusion' as const,
      cause,
      outcome,
    })),
  ];
  // Stable by time: the signal before the diagnosis it started, then the log's order.
  return entries
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.at.localeCompare(b.e.at) || a.i - b.i)
    .map(({ e }) => e);
}

/**
 * The record of incident `id` (`<cluster>/<namespace>/<workload>`) from `events`;
 * events of other incidents are ignored.
 * @example buildIncidentRecord('default/vision/tracker', readAuditLog(text).events)
 */
export function buildIncidentRecord(id: string, events: readonly TimedEvent[]): IncidentRecord {
  const own = eventsOf(id, events);
  const [cluster = '', namespace = '', ...rest] = id.split('/');
  const diagnosed = own.flatMap(({ at, event }) => (event.action === 'diagnosis' ? [{ at, d: event }] : []));
  const approvals = own.flatMap(({ at, event }) =>
    event.action === 'approval'
      ? [{ at: iso(at), planId: event.planId, kind: event.kind, user: event.user, result: event.result }]
      : [],
  );
  const refusals = own.flatMap(({ at, event }) =>
    event.action === 'refusal'
      ? [
          {
            at: iso(at),
            planId: event.planId,
            user: event.user,
            reason: event.reason,
            ...(event.detail ? { detail: event.detail } : {}),
          },
        ]
      : [],
  );
  const writes: RecordedWrite[] = own.flatMap(({ at, event }) =>
    event.action === 'outcome'
      ? [
          {
            at: iso(at),
            planId: event.planId,
            kind: event.kind,
            outcome: event.outcome,
            approvedBy: [...event.approvedBy],
            ...(event.detail ? { detail: event.detail } : {}),
            undo: event.planId.startsWith('undo-'),
          },
        ]
      : [],
  );
  const exclusions = own.flatMap(({ at, event }) =>
    event.action === 'exclusion'
      ? [
          {
            at: iso(at),
            planId: event.planId,
            cause: event.cause,
            outcome: event.outcome,
            ...(event.detail ? { detail: event.detail } : {}),
          },
        ]
      : [],
  );
  const diagnoses = diagnosed.map(({ at, d }) => diagnosisOf(at, d));
  const { end, ending } = endOf(writes);
  const record: Omit<IncidentRecord, 'timeline'> = {
    id,
    workload: { cluster, namespace, name: rest.join('/'), kind: diagnosed.at(-1)?.d.workloadKind ?? null },
    signal: signalOf(diagnosed),
    diagnoses,
    approvals,
    refusals,
    writes,
    adopted: adoptedOf(ending, { approvals, diagnoses }),
    end,
    serving: servingOf(diagnosed, ending),
    laterChanges: ending
      ? writes.filter((w) => w.at > ending.at || (w !== ending && w.undo && w.at >= ending.at))
      : [],
    exclusions,
  };
  return { ...record, timeline: timelineOf(record) };
}
