/**
 * A diagnosis as the audit keeps it (src/audit.ts AuditDiagnosis): the findings with
 * the error messages of their evidence, the plans offered and those withheld with why,
 * the workload's replicas, and the manifest changes to commit. It is what an incident's
 * post-mortem quotes later (src/postmortem), so it stays bounded: a few messages a
 * finding, each cut to a length. Pure.
 */
import type { AuditDiagnosis } from '../audit.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Evidence } from '../diagnosis/finding.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { workloadKind } from '../diagnosis/workloads/index.js';

const MAX_MESSAGES = 5;
const MAX_MESSAGE = 2_000;
const MAX_ITEMS = 20;
const MAX_DIFF = 4_000;

/** The error texts one piece of evidence carries, as the cluster wrote them. */
function messagesOf(evidence: Evidence): string[] {
  switch (evidence.type) {
    case 'scheduling':
      return [evidence.message];
    case 'condition':
      return evidence.message ? [evidence.message] : [];
    case 'crash-table':
      return evidence.rows.flatMap((r) => [r.lastMessage, r.logTail].filter((m): m is string => Boolean(m)));
    case 'log':
      return [evidence.tail];
    case 'node-diff':
      return evidence.clue ? [evidence.clue.text] : [];
    default:
      return [];
  }
}

const cut = (text: string, max: number): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The workload's desired and available replicas, when its status was read. */
function servingOf(snapshot: WorkloadSnapshot): AuditDiagnosis['serving'] {
  const kind = workloadKind(snapshot);
  let object: ReturnType<typeof kind.object>;
  try {
    object = kind.object(snapshot);
  } catch {
    // A snapshot without its workload object (not read): its replicas are not recorded.
    return undefined;
  }
  const { progress } = kind.rolloutStatus(object);
  if (!progress.statusRead) return undefined;
  return { desired: kind.desiredReplicas(object), available: progress.available, updated: progress.updated };
}

/**
 * The audit event of one diagnosis of `snapshot`'s workload.
 * @example audit.record(diagnosisAudit({ cluster, diagnosis, snapshot, requestedBy, requestedAt }))
 */
export function diagnosisAudit(input: {
  cluster: string;
  diagnosis: Diagnosis;
  snapshot: WorkloadSnapshot;
  requestedBy: string;
  /** When the job was queued (epoch ms). */
  requestedAt: number;
}): AuditDiagnosis {
  const { diagnosis, snapshot } = input;
  const serving = servingOf(snapshot);
  return {
    action: 'diagnosis',
    planId: 'diagnosis',
    cluster: input.cluster,
    namespace: diagnosis.target.namespace,
    deployment: diagnosis.target.name,
    workloadKind: diagnosis.target.kind,
    requestedBy: input.requestedBy,
    requestedAt: new Date(input.requestedAt).toISOString(),
    findings: diagnosis.findings.slice(0, MAX_ITEMS).map((f) => ({
      code: f.code,
      severity: f.severity,
      summary: cut(f.summary, MAX_MESSAGE),
      messages: [...new Set(f.evidence.flatMap(messagesOf))]
        .slice(0, MAX_MESSAGES)
        .map((m) => cut(m, MAX_MESSAGE)),
    })),
    offered: diagnosis.remediations
      .slice(0, MAX_ITEMS)
      .map((p) => ({ id: p.id, kind: p.kind, summary: cut(p.summary, MAX_MESSAGE) })),
    notOffered: (diagnosis.notOffered ?? [])
      .slice(0, MAX_ITEMS)
      .map((p) => ({ kind: p.kind, addresses: p.addresses, reason: cut(p.reason, MAX_MESSAGE) })),
    ...(serving ? { serving } : {}),
    ...(diagnosis.manifestChanges?.length
      ? {
          manifestChanges: diagnosis.manifestChanges.slice(0, MAX_ITEMS).map((m) => ({
            addresses: m.addresses,
            where: cut(m.where, MAX_MESSAGE),
            diff: cut(m.diff, MAX_DIFF),
          })),
        }
      : {}),
  };
}
