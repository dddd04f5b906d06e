import type { Finding } from './finding.js';
import type { Coverage, WorkloadRef } from './snapshot.js';
import type { RemediationPlan } from '../remediation/plan.js';

/** The result of one diagnosis: the JSON contract of DESIGN.md §3, extended. */
export interface Diagnosis {
  target: WorkloadRef;
  capturedAt: string;
  /** Deployment identity at diagnosis time, so stored plans can be checked later. */
  observed: { uid: string; generation: number; resourceVersion: string };
  findings: Finding[];
  remediations: RemediationPlan[];
  /** Analyzers that threw; the others' findings are still reported. */
  analyzerErrors: { analyzer: string; message: string }[];
  /** What the snapshot read and what it could not (DESIGN.md §2). */
  coverage?: Coverage;
}
