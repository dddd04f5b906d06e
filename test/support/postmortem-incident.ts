/**
 * A recorded incident for post-mortem tests: seed incident A diagnosed by the engine
 * (the worker's audit event of it, src/worker/diagnosis-audit.ts), then the approval
 * and the writes as the app and the worker audit them, as audit log lines.
 */
import type { AuditEvent } from '../../src/audit.js';
import { diagnose } from '../../src/engine/diagnose.js';
import type { TimedEvent } from '../../src/postmortem/audit-line.js';
import { auditLineOf } from '../../src/postmortem/read-audit.js';
import { diagnosisAudit } from '../../src/worker/diagnosis-audit.js';
import { seedIncidentA } from './rollout-scenarios.js';

export const T0 = Date.parse('2026-11-27T09:40:00.000Z');

/** The events of seed incident A on cluster `default`, an alert first, then a fix approved by U0APPROVER. */
export function seedIncidentEvents(): TimedEvent[] {
  const snapshot = seedIncidentA();
  const diagnosis = diagnose(snapshot);
  const plan = diagnosis.remediations[0];
  if (!plan) throw new Error('seed incident A offers no plan');
  const where = {
    cluster: 'default',
    namespace: diagnosis.target.namespace,
    deployment: diagnosis.target.name,
  };
  const events: [number, AuditEvent][] = [
    [
      T0 + 4_000,
      diagnosisAudit({
        cluster: 'default',
        diagnosis,
        snapshot,
        requestedBy: 'ALERTMANAGER',
        requestedAt: T0,
      }),
    ],
    [
      T0 + 50_000,
      { action: 'refusal', planId: plan.id, ...where, user: 'U0STRANGER', reason: 'not-approver' },
    ],
    [
      T0 + 60_000,
      {
        action: 'approval',
        planId: plan.id,
        ...where,
        kind: plan.kind,
        user: 'U0APPROVER',
        result: 'claimed',
      },
    ],
    [
      T0 + 65_000,
      {
        action: 'outcome',
        planId: plan.id,
        ...where,
        kind: plan.kind,
        approvedBy: ['U0APPROVER'],
        outcome: 'applied',
      },
    ],
    [
      T0 + 95_000,
      {
        action: 'outcome',
        planId: plan.id,
        ...where,
        kind: plan.kind,
        approvedBy: ['U0APPROVER'],
        outcome: 'rolled-out',
        detail: 'deployment "vision-object-tracker" successfully rolled out',
      },
    ],
  ];
  return events.map(([at, event]) => ({ at, event }));
}

/** The same events as audit log lines, with other log lines between them (as a real log has). */
export function seedIncidentLog(events: readonly TimedEvent[] = seedIncidentEvents()): string {
  return [
    '{"level":"info","time":1,"name":"app","msg":"started"}',
    ...events.flatMap((e) => [auditLineOf(e), 'not json at all']),
    '',
  ].join('\n');
}
