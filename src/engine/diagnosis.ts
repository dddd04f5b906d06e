/**
 * The engine's output: what one diagnosis found, offered and could not read. It sits
 * above diagnosis/ (findings) and remediation/ (plans), which both feed it.
 */
import type { AnalyzerError } from '../diagnosis/analyzer.js';
import type { Finding } from '../diagnosis/finding.js';
import type { ManagedBy } from '../diagnosis/ownership.js';
import type { Coverage, WorkloadRef } from '../diagnosis/snapshot/types.js';
import type { ManifestChange } from '../remediation/manifest-change.js';
import type { RemediationPlan } from '../remediation/plan.js';

/**
 * A plan kind a builder considered for a finding and did not offer, with why: the
 * approver sees that it was weighed, never a silent absence.
 */
export interface PlanNotOffered {
  kind: RemediationPlan['kind'];
  /** The finding code it would have addressed. */
  addresses: string;
  reason: string;
}

/** The result of one diagnosis: the JSON contract of DESIGN.md §3, extended. */
export interface Diagnosis {
  target: WorkloadRef;
  capturedAt: string;
  /** The workload's identity at diagnosis time, so stored plans can be checked later. */
  observed: { uid: string; generation: number; resourceVersion: string };
  findings: Finding[];
  remediations: RemediationPlan[];
  /** Analyzers that threw; the others' findings are still reported. */
  analyzerErrors: AnalyzerError[];
  /** What the snapshot read and what it could not (DESIGN.md §2). */
  coverage?: Coverage;
  /** Who applies the workload (absent when nothing proves an owner). */
  managedBy?: ManagedBy;
  /** Changes to commit to the manifest so the next rollout does not need a live fix. */
  manifestChanges?: ManifestChange[];
  /** Plans weighed and not offered, each with why. */
  notOffered?: PlanNotOffered[];
}
