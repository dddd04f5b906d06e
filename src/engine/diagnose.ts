/**
 * The whole diagnosis, in the one direction the engine flows: the analyzers' findings
 * (src/diagnosis/analyzers/analyze.ts, pure and plan-free), then the plans for each finding (built
 * from the same AnalysisContext the analyzers were handed), then
 * per plan whether the workload's owner will put it back (drift), which moves a fix
 * the owner leaves alone ahead of one it reverts (plan-order.ts), then the change to
 * commit for the source of truth. A builder that throws is recorded in
 * `analyzerErrors` as `plans:<code>`; the other plans still come back.
 */
import type { Diagnosis, PlanNotOffered } from './diagnosis.js';
import type { Finding } from '../diagnosis/finding.js';
import { analyze, errorMessage, type AnalyzeOptions } from '../diagnosis/analyzers/analyze.js';
import type { WorkloadSnapshot } from '../diagnosis/snapshot/types.js';
import { workloadObject } from '../diagnosis/workloads/index.js';
import { planBuilders as registeredBuilders, type PlanBuilder } from '../remediation/builders/index.js';
import { planDrift } from '../remediation/drift.js';
import { buildManifestChanges } from '../remediation/manifest-change.js';
import { orderByDrift } from '../remediation/plan-order.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { planRefusal } from './plan-gate.js';
import { offerProved } from './proved-offer.js';
import { withWaitWarning } from './wait-warning.js';

export interface DiagnoseOptions extends AnalyzeOptions {
  planBuilders?: Partial<Record<string, PlanBuilder>>;
  /**
   * false: plans are offered as their builders and the gate leave them, not run forward
   * first (plan-proof.ts). Only the benchmark says no, to state what the proofs cost.
   */
  proofs?: boolean;
}

/** Findings, their plans (recommended first per finding, the fix that sticks ahead, each once), drift and the change to commit. */
export function diagnose(collected: WorkloadSnapshot, options: DiagnoseOptions = {}): Diagnosis {
  const { snapshot, context, findings: found, analyzerErrors, managedBy } = analyze(collected, options);
  const builders = options.planBuilders ?? registeredBuilders;
  const findings: Finding[] = [];
  const remediations: RemediationPlan[] = [];
  const planIds = new Set<string>();
  const notOffered: PlanNotOffered[] = [];
  for (const finding of found) {
    const ids: string[] = [];
    const build = builders[finding.code];
    if (build) {
      try {
        const note = (kind: RemediationPlan['kind'], reason: string): void => {
          notOffered.push({ kind, addresses: finding.code, reason });
        };
        const gated = build(context, finding, note).filter((plan) => {
          const refused = planRefusal(context, finding.code, plan);
          if (refused) note(plan.kind, refused);
          return !refused;
        });
        const proved = options.proofs === false ? gated : offerProved(context, gated, note);
        const { waitsFor } = finding;
        const offered = waitsFor ? proved.map((plan) => withWaitWarning(plan, waitsFor)) : proved;
        for (const plan of offered) {
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

  const object = workloadObject(snapshot);
  // Per plan, whether the workload's owner (or, with none recognised, an unknown writer) will put the field back.
  const withDrift = new Map(
    remediations.map((plan) => [
      plan.id,
      { ...plan, drift: planDrift(plan, object, managedBy, snapshot.ownerSettings) },
    ]),
  );
  // The fix that sticks first, per finding (plan-order.ts); every plan once, in finding order.
  const ordered = findings.map((f) => ({ ...f, remediations: orderByDrift(f.remediations, withDrift) }));
  const offered = [...new Set(ordered.flatMap((f) => f.remediations))].flatMap((id) => {
    const plan = withDrift.get(id);
    return plan ? [plan] : [];
  });
  const manifestChanges = buildManifestChanges(
    object,
    ordered,
    managedBy,
    snapshot.target.kind,
    (id) => withDrift.get(id)?.kind,
  );
  const meta = object.metadata;
  return {
    target: snapshot.target,
    capturedAt: snapshot.capturedAt,
    observed: {
      uid: meta.uid ?? '',
      generation: meta.generation ?? 0,
      resourceVersion: meta.resourceVersion ?? '',
    },
    findings: ordered,
    remediations: offered,
    analyzerErrors,
    coverage: snapshot.coverage,
    ...(managedBy ? { managedBy } : {}),
    ...(manifestChanges.length > 0 ? { manifestChanges } : {}),
    ...(notOffered.length > 0 ? { notOffered } : {}),
  };
}
