import { AnalysisContext } from '../analysis-context.js';
import type { Analyzer, AnalyzerError } from '../analyzer.js';
import { analyzers as registeredAnalyzers } from './index.js';
import type { Finding } from '../finding.js';
import { reconcileWithForward } from '../forward/reconcile.js';
import { leadWithRollback } from '../forward/crashing-revision.js';
import { withAutoscalerSaid } from '../guards/autoscaler.js';
import { detectOwner, type ManagedBy } from '../ownership.js';
import { redactSnapshot } from '../redact-secrets.js';
import type { WorkloadSnapshot } from '../snapshot/types.js';
import { workloadObject } from '../workloads/index.js';
import { WORKLOAD_NAMES } from '../workload-ref.js';

export interface AnalyzeOptions {
  /** Mask secret shapes in log tails and termination messages first (default true). */
  redactSecrets?: boolean;
  analyzers?: readonly Analyzer[];
  /** How long a node exclusion lasts (src/remediation/exclusion-ttl.ts); absent: the default. */
  exclusionTtl?: string;
}

/** What the analyzers found, before any plan is built (src/engine/diagnose.ts builds them). */
interface Analysis {
  /** The snapshot the analyzers saw (redacted unless asked otherwise): `context.snapshot`. */
  snapshot: WorkloadSnapshot;
  /**
   * The context every analyzer was handed, with the values they derived (rollout
   * assessment, container reports, crash pictures, placement index): the plan
   * builders get this same context, so plans rest on what the findings saw.
   */
  context: AnalysisContext;
  findings: Omit<Finding, 'remediations'>[];
  /** Analyzers that threw; the others' findings are still reported. */
  analyzerErrors: AnalyzerError[];
  /** Who applies the Deployment (absent when nothing proves an owner). */
  managedBy?: ManagedBy;
}

/**
 * Runs every analyzer over the snapshot (its log tails and termination messages
 * redacted unless `redactSecrets: false`), handing each the same AnalysisContext,
 * built once, so shared derivations run once per diagnosis. An analyzer that throws is recorded in
 * `analyzerErrors`; the others' findings still come back (a partial diagnosis beats
 * none at 3 a.m.). Pure: no plans, no I/O. `scan` stops here; `diagnose` goes on to
 * the plans.
 */
export function analyze(collected: WorkloadSnapshot, options: AnalyzeOptions = {}): Analysis {
  const snapshot = options.redactSecrets === false ? collected : redactSnapshot(collected);
  const context = new AnalysisContext(
    snapshot,
    options.exclusionTtl === undefined ? {} : { exclusionTtl: options.exclusionTtl },
  );
  const analyzerErrors: AnalyzerError[] = [];
  const findings: Omit<Finding, 'remediations'>[] = [];
  for (const analyzer of options.analyzers ?? registeredAnalyzers) {
    try {
      findings.push(...analyzer.analyze(context, findings));
    } catch (error) {
      analyzerErrors.push({ analyzer: analyzer.name, message: errorMessage(error) });
    }
  }
  let reconciled = findings;
  try {
    reconciled = withAutoscalerSaid(
      context,
      leadWithRollback(context, reconcileWithForward(context, findings)),
    );
  } catch (error) {
    analyzerErrors.push({ analyzer: 'forward-model', message: errorMessage(error) });
  }
  const managedBy = detectOwner({
    group: WORKLOAD_NAMES[snapshot.target.kind].group,
    kind: snapshot.target.kind,
    metadata: workloadObject(snapshot).metadata,
  });
  return { snapshot, context, findings: reconciled, analyzerErrors, ...(managedBy ? { managedBy } : {}) };
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
