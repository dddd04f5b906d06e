/**
 * The JSON diagnosis of DESIGN.md §3 (`target`, `findings[{code,severity,summary,evidence}]`,
 * `remediations[{id,kind,summary,patch:{type,body}}]`), extended with the rest of the
 * diagnosis. Pure: the command line prints it, the Slack app may attach it.
 */
import { plainCodeSpans } from '../text/code-span.js';
import type { Diagnosis } from '../engine/diagnosis.js';
import type { Evidence, FindingCode, Severity } from '../diagnosis/finding.js';
import type { WorkloadRef } from '../diagnosis/snapshot/types.js';
import type {
  OldReplicaSetTarget,
  Patch,
  PlanDrift,
  Preconditions,
  RemediationKind,
} from '../remediation/plan.js';

interface JsonDiagnosis {
  target: WorkloadRef;
  capturedAt: string;
  observed: Diagnosis['observed'];
  /** Who applies the Deployment (Argo CD, Flux, Helm, kubectl apply), when its metadata proves it. */
  managedBy?: Diagnosis['managedBy'];
  /** True when any finding is critical or a warning (the CLI exits 1). */
  problemsFound: boolean;
  findings: {
    code: FindingCode;
    severity: Severity;
    summary: string;
    explanation?: string;
    evidence: Evidence[];
    remediations: string[];
  }[];
  remediations: {
    id: string;
    kind: RemediationKind;
    summary: string;
    impact: string;
    warnings: string[];
    patch: Patch | null;
    pods?: { name: string; uid: string }[];
    /** scale-old-replicaset: the ReplicaSet whose scale the patch goes to. */
    replicaSet?: OldReplicaSetTarget;
    inverse: Patch | null;
    preconditions: Preconditions;
    addresses: string;
    /** Whether the Deployment's owner will revert this write, per field. */
    drift?: PlanDrift;
  }[];
  analyzerErrors: Diagnosis['analyzerErrors'];
  /** Changes to commit to the manifest (the permanent fix), as unified diffs of its YAML. */
  manifestChanges?: Diagnosis['manifestChanges'];
  /** Plan kinds weighed and not offered, each with why. */
  notOffered?: Diagnosis['notOffered'];
  /** What the diagnosis could not read (forbidden, capped, not in the dump). */
  coverage?: Diagnosis['coverage'];
}

/**
 * Findings of severity critical or warning count as problems, and so does every
 * IncompleteEvidence (what was not read is not healthy); info does not.
 */
export function hasProblems(diagnosis: Diagnosis): boolean {
  return diagnosis.findings.some(
    (f) => f.severity === 'critical' || f.severity === 'warning' || f.code === 'IncompleteEvidence',
  );
}

/** No problem found, and every check ran: the only state that may say "all clear". */
export function allClear(diagnosis: Diagnosis): boolean {
  return !hasProblems(diagnosis) && diagnosis.analyzerErrors.length === 0;
}

/** The JSON shape, as a plain value (stable key order for diffing). */
export function toJson(diagnosis: Diagnosis): JsonDiagnosis {
  return {
    target: {
      kind: diagnosis.target.kind,
      namespace: diagnosis.target.namespace,
      name: diagnosis.target.name,
    },
    capturedAt: diagnosis.capturedAt,
    observed: diagnosis.observed,
    ...(diagnosis.managedBy ? { managedBy: diagnosis.managedBy } : {}),
    problemsFound: hasProblems(diagnosis),
    findings: diagnosis.findings.map((f) => ({
      code: f.code,
      severity: f.severity,
      summary: f.summary,
      ...(f.explanation ? { explanation: f.explanation } : {}),
      evidence: f.evidence,
      remediations: f.remediations,
      ...(f.waitsFor ? { waitsFor: f.waitsFor } : {}),
    })),
    remediations: diagnosis.remediations.map((p) => ({
      id: p.id,
      kind: p.kind,
      summary: p.summary,
      impact: p.impact,
      warnings: p.warnings,
      patch: p.patch,
      ...(p.pods ? { pods: p.pods } : {}),
      ...(p.replicaSet ? { replicaSet: p.replicaSet } : {}),
      inverse: p.inverse,
      preconditions: p.preconditions,
      addresses: p.addresses,
      ...(p.drift ? { drift: p.drift } : {}),
    })),
    analyzerErrors: diagnosis.analyzerErrors,
    ...(diagnosis.manifestChanges ? { manifestChanges: diagnosis.manifestChanges } : {}),
    ...(diagnosis.notOffered ? { notOffered: diagnosis.notOffered } : {}),
    ...(diagnosis.coverage ? { coverage: diagnosis.coverage } : {}),
  };
}

/** `toJson` as pretty-printed text with a trailing newline. */
export function renderJson(diagnosis: Diagnosis): string {
  // Our code spans (src/text/code-span.ts) as backticks, as the text report shows them.
  const plain = (_key: string, value: unknown): unknown =>
    typeof value === 'string' ? plainCodeSpans(value) : value;
  return `${JSON.stringify(toJson(diagnosis), plain, 2)}\n`;
}
