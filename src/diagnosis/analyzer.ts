import type { AnalysisContext } from './analysis-context.js';
import type { Finding } from './finding.js';

/**
 * An analyzer looks at a snapshot and reports findings. It is pure: no I/O, no
 * clock (use snapshot.capturedAt), no mutation of the snapshot. It gets the snapshot
 * through the diagnosis' AnalysisContext (`ctx.snapshot`), whose derived values (the
 * rollout assessment, the container reports, the crash pictures, the placement index)
 * every analyzer shares. Findings carry no remediation ids yet; the runner links plans
 * built by src/remediation from the same context.
 */
export interface Analyzer {
  /** Registry key, kebab-case: "surge-deadlock". */
  name: string;
  /**
   * `earlier`: the findings of the analyzers before it in the registry, for the few
   * that judge what is left unexplained (unavailable.ts runs last); others ignore it.
   */
  analyze(
    ctx: AnalysisContext,
    earlier?: readonly Omit<Finding, 'remediations'>[],
  ): Omit<Finding, 'remediations'>[];
}

/** An analyzer (or plan builder, `plans:<code>`) that threw, and its message. */
export interface AnalyzerError {
  analyzer: string;
  message: string;
}
