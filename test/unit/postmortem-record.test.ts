/**
 * An incident's record from its audit events (src/postmortem/build.ts): the events of
 * seed incident A as the worker and the app audit them, in any order, give one record
 * whose timeline is in time order and whose facts are the events'.
 */
import { describe, expect, it } from 'vitest';
import { ALERT_REQUESTER, ADMISSION_REQUESTER } from '../../src/app/alerts/app-intake.js';
import { WATCH_REQUESTER } from '../../src/queue/diagnose-signature.js';
import { buildIncidentRecord, incidentIds, SIGNAL_REQUESTERS } from '../../src/postmortem/build.js';
import { incidentRecordSchema } from '../../src/postmortem/record.js';
import { readAuditLog } from '../../src/postmortem/read-audit.js';
import { seedIncidentEvents, seedIncidentLog, T0 } from '../support/postmortem-incident.js';

const ID = 'default/vision/object-tracker';
const iso = (ms: number) => new Date(ms).toISOString();

describe('incident record', () => {
  it('holds the first signal, the diagnosis, who approved what and when, the writes and the end', () => {
    const record = buildIncidentRecord(ID, seedIncidentEvents());
    expect(incidentRecordSchema.parse(record)).toEqual(record);
    expect(record.workload).toEqual({
      cluster: 'default',
      namespace: 'vision',
      name: 'object-tracker',
      kind: 'Deployment',
    });
    expect(record.signal).toEqual({ at: iso(T0), via: 'alert' });
    expect(record.diagnoses).toHaveLength(1);
    const [diagnosis] = record.diagnoses;
    expect(diagnosis?.findings.map((f) => f.code)).toEqual(['RolloutSurgeDeadlock']);
    expect(diagnosis?.findings[0]?.messages[0]).toMatch(
      /^0\/10 nodes are available: 1 Insufficient nvidia.com\/gpu/,
    );
    expect(diagnosis?.offered.map((p) => p.kind)).toEqual([
      'set-rolling-update',
      'set-recreate',
      'scale-old-replicaset',
    ]);
    expect(record.approvals).toEqual([
      expect.objectContaining({
        at: iso(T0 + 60_000),
        kind: 'set-rolling-update',
        user: 'U0APPROVER',
        result: 'claimed',
      }),
    ]);
    expect(record.refusals).toEqual([
      expect.objectContaining({ user: 'U0STRANGER', reason: 'not-approver' }),
    ]);
    expect(record.writes.map((w) => [w.at, w.outcome])).toEqual([
      [iso(T0 + 65_000), 'applied'],
      [iso(T0 + 95_000), 'rolled-out'],
    ]);
    expect(record.adopted).toEqual(
      expect.objectContaining({ kind: 'set-rolling-update', approvedBy: ['U0APPROVER'] }),
    );
    expect(record.end).toEqual({ state: 'rolled-out', at: iso(T0 + 95_000) });
    expect(record.serving).toEqual([
      { at: iso(T0 + 4_000), desired: 1, available: 1, source: 'diagnosis' },
      { at: iso(T0 + 95_000), desired: 1, available: 1, source: 'rolled-out' },
    ]);
    expect(record.laterChanges).toEqual([]);
  });

  it('puts the timeline in time order whatever order the events come in', () => {
    const events = seedIncidentEvents();
    const record = buildIncidentRecord(ID, [...events].reverse());
    expect(record).toEqual(buildIncidentRecord(ID, events));
    expect(record.timeline.map((e) => e.type)).toEqual([
      'signal',
      'diagnosis',
      'refusal',
      'approval',
      'write',
      'write',
    ]);
    const times = record.timeline.map((e) => e.at);
    expect(times).toEqual([...times].sort());
  });

  it('says an Undo after the rollout ended it undone, and keeps it as a later change', () => {
    const events = seedIncidentEvents();
    const last = events.at(-1);
    if (last?.event.action !== 'outcome') throw new Error('fixture changed');
    const undo = { ...last.event, planId: `undo-${last.event.planId}`, outcome: 'applied' as const };
    const record = buildIncidentRecord(ID, [...events, { at: T0 + 600_000, event: undo }]);
    expect(record.end).toEqual({ state: 'undone', at: iso(T0 + 600_000) });
    expect(record.laterChanges.map((w) => [w.undo, w.outcome])).toEqual([[true, 'applied']]);
  });

  it('knows what it does not know: no diagnosis, no signal and no serving replicas', () => {
    const events = seedIncidentEvents().filter((e) => e.event.action !== 'diagnosis');
    const record = buildIncidentRecord(ID, events);
    expect(record.signal).toBeNull();
    expect(record.workload.kind).toBeNull();
    expect(record.serving).toEqual([]);
    expect(record.adopted?.summary).toBeNull();
  });

  it('names incidents by cluster, namespace and workload, and reads every line of a log', () => {
    const events = seedIncidentEvents();
    const log = readAuditLog(seedIncidentLog(events));
    expect(log.events).toEqual(events);
    expect(log.foreign).toBe(6);
    expect(log.unreadable).toBe(0);
    expect(incidentIds(log.events)).toEqual([ID]);
    const forged = readAuditLog('{"audit":true,"time":1,"event":{"action":"outcome","planId":"x"}}\n');
    expect(forged).toEqual({ events: [], foreign: 0, unreadable: 1 });
  });

  it('knows the requesters that are no person as the app and the workers name them', () => {
    expect(SIGNAL_REQUESTERS).toEqual({
      [ALERT_REQUESTER]: 'alert',
      [WATCH_REQUESTER]: 'early-warning',
      [ADMISSION_REQUESTER]: 'admission',
    });
  });
});
