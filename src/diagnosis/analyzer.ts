import type { Finding } from './finding.js';
import type { WorkloadSnapshot } from './snapshot.js';

/**
 * An analyzer looks at a snapshot and reports findings. It is pure: no I/O, no
 * clock (use snapshot.capturedAt), no mutation of the snapshot. Findings carry no
 * remediation ids yet; the runner links plans built by src/remediation.
 */
export interface Analyzer {
  /** Registry key, kebab-case: "surge-deadlock". */
  name: string;
  analyze(snapshot: WorkloadSnapshot): Omit<Finding, 'remediations'>[];
}
