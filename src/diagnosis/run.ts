import type { Analyzer } from './analyzer.js';
import { analyzers as registeredAnalyzers } from './analyzers/index.js';
import type { Diagnosis } from './diagnosis.js';
import type { Finding } from './finding.js';
import { detectOwner } from './ownership.js';
import { redactSnapshot } from './redact-secrets.js';
import type { WorkloadSnapshot } from './snapshot.js';
import { planBuilders as registeredBuilders, type PlanBuilder } from '../remediation/builders/index.js';
import { planDrift } from '../remediation/drift.js';
import { buildManifestChanges } from '../remediation/manifest-change.js';
import type { RemediationPlan } from '../remediation/plan.js';

export interface DiagnoseOptions {
  /** Mask secret shapes in log tails and termination messages first (default true). */
  redactSecrets?: boolean;
  analyzers?: readonly Analyzer[];
  planBuilders?: Partial<Record<string, PlanBuilder>>;
}

/**
 * Runs every analyzer over the snapshot (its log tails and termination messages
 * redacted unless `redactSecrets: false`), then the plan builders for each finding.
 * An analyzer or builder that throws is recorded in `analyzerErrors`; the others'
 * results still come back (a partial diagnosis beats none at 3 a.m.).
 */
export function diagnose(collected: WorkloadSnapshot, options: DiagnoseOptions = {}): Diagnosis {
  const snapshot = options.redactSecrets === false ? collected : redactSnapshot(collected);
  const analyzerList = options.analyzers ?? registeredAnalyzers;
  const builders = options.planBuilders ?? registeredBuilders;
  const analyzerErrors: Diagnosis['analyzerErrors'] = [];
  const findings: Finding[] = [];
  const remediations: RemediationPlan[] = [];
  const planIds = new Set<string>();

  for (const analyzer of analyzerList) {
    let found: Omit<Finding, 'remediations'>[];
    try {
      found = analyzer.analyze(snapshot);
    } catch (error) {
      analyzerErrors.push({ analyzer: analyzer.name, message: errorMessage(error) });
      continue;
    }
    for (const finding of found) {
      const ids: string[] = [];
      const build = builders[finding.code];
      if (build) {
        try {
          for (const plan of build(snapshot, finding)) {
            ids.push(plan.id);
            if (!planIds.has(plan.id)) {
              planIds.add(plan.id);
              remediations.push(plan);
            }
          }
        } catch (error) {
          analyzerErrors.push({ analyzer: `plans:${finding.code}`, message: errorMessage(error) });
        }
      }
      findings.push({ ...finding, remediations: ids });
    }
  }

  const meta = snapshot.deployment.metadata;
  // Who applies the Deployment, and per plan whether it will put the field back.
  const managedBy = detectOwner({ group: 'apps', kind: 'Deployment', metadata: meta });
  const withDrift = remediations.map((plan) => {
    const drift = planDrift(plan, snapshot.deployment, managedBy);
    return drift ? { ...plan, drift } : plan;
  });
  const manifestChanges = buildManifestChanges(snapshot.deployment, findings, managedBy);
  return {
    target: snapshot.target,
    capturedAt: snapshot.capturedAt,
    observed: {
      uid: meta.uid ?? '',
      generation: meta.generation ?? 0,
      resourceVersion: meta.resourceVersion ?? '',
    },
    findings,
    remediations: withDrift,
    analyzerErrors,
    coverage: snapshot.coverage,
    ...(managedBy ? { managedBy } : {}),
    ...(manifestChanges.length > 0 ? { manifestChanges } : {}),
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
