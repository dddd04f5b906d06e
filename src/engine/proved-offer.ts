/**
 * Which of a finding's plans are shown, once each was run forward (plan-proof.ts):
 * - a plan that changes no pod, or that is proved, is shown with its proof;
 * - a refused one is not, and the finding says why (Diagnosis.notOffered);
 * - one that reaches its goal only below the owners' floor (a PodDisruptionBudget) is
 *   shown only when no plan of the finding reaches the goal and keeps the floor, and
 *   then labelled as the outage it is, with how far below the floor it goes.
 */
import type { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { NotOffered, RemediationPlan } from '../remediation/plan.js';
import { kindOf } from '../remediation/kinds/index.js';
import { planLabel, provePlan, type ProofVerdict } from './plan-proof.js';
import { autoscalerPlanWarning, workloadAutoscaler } from '../diagnosis/guards/autoscaler.js';
import { REMEDIATION_SENTENCES } from '../remediation/sentences.js';

export function offerProved(
  ctx: AnalysisContext,
  plans: readonly RemediationPlan[],
  note: NotOffered,
): RemediationPlan[] {
  return provedOnly(ctx, plans, note).map((plan) => withAutoscalerWarning(ctx, withOrderWarning(plan)));
}

/** A plan that reaches its goal only if ours win the scheduler's queue says so first (plan-proof.ts orderDependence). */
function withOrderWarning(plan: RemediationPlan): RemediationPlan {
  const order = plan.proof?.dependsOnOrder;
  if (!order) return plan;
  return {
    ...plan,
    warnings: [
      `Pending pods of ${order.rivals} wait for the same room at the same priority: the scheduler may place them first, and then ${order.otherwise}. Apply it only once they are placed or gone, or make room for both.`,
      ...plan.warnings,
    ],
  };
}

/**
 * A plan whose arithmetic turns on spec.replicas, under a HorizontalPodAutoscaler: what
 * the autoscaler does next and the count the plan was run forward at.
 */
function withAutoscalerWarning(ctx: AnalysisContext, plan: RemediationPlan): RemediationPlan {
  const view = kindOf(plan).turnsOnReplicas ? workloadAutoscaler(ctx) : undefined;
  if (!view) return plan;
  const { kind, name } = ctx.snapshot.target;
  return {
    ...plan,
    warnings: [...plan.warnings, autoscalerPlanWarning(view, `${kind.toLowerCase()}/${name}`)],
  };
}

function provedOnly(
  ctx: AnalysisContext,
  plans: readonly RemediationPlan[],
  note: NotOffered,
): RemediationPlan[] {
  const judged = plans.map((plan) => ({ plan, verdict: provePlan(ctx, plan) }));
  const keepsFloor = judged.some((j) => j.verdict?.verdict === 'proved' && !isRelief(j.plan, j.verdict));
  const target = `${ctx.snapshot.target.kind.toLowerCase()}/${ctx.snapshot.target.name}`;
  return judged.flatMap(({ plan, verdict }) => {
    if (!verdict) return [plan];
    if (verdict.verdict === 'refused') {
      note(plan.kind, verdict.reason);
      return [];
    }
    if (verdict.verdict === 'proved' && verdict.recurs) {
      // Relief whose replacements may land where the crash is: worth it only beside a fix.
      const where = verdict.recurs.slice(0, 3).join(', ');
      if (!keepsFloor) {
        note(
          plan.kind,
          `${planLabel(plan)}: run forward, their replacements crash-loop again on ${where} and no more pods serve, so it relieves nothing`,
        );
        return [];
      }
      return [
        {
          ...plan,
          proof: verdict.proof,
          warnings: [REMEDIATION_SENTENCES.replacementsCrashAgain.en({ where }), ...plan.warnings],
        },
      ];
    }
    if (verdict.verdict === 'proved') return [{ ...plan, proof: verdict.proof }];
    const { floor, proof } = verdict;
    const below = `would take ${target} to ${proof.serving.lowest} serving, ${proof.belowFloor} below its PodDisruptionBudget ${floor.budget} (${floor.rule}: ${floor.minServing} must serve)`;
    if (keepsFloor) {
      note(plan.kind, `${planLabel(plan)} ${below}; a plan that keeps the budget is offered`);
      return [];
    }
    return [
      {
        ...plan,
        proof,
        impact: `Outage below the disruption budget: it ${below.replace('would take', 'takes')}. ${plan.impact}`,
        warnings: [
          `No plan reaches the goal within PodDisruptionBudget ${floor.budget}: this one goes ${proof.belowFloor} below it. The budget only guards evictions; the controller will not stop it.`,
          ...plan.warnings,
        ],
      },
    ];
  });
}

/** Relief (kinds/ `reliefOnly`) keeps the floor but is not a fix: it does not stand in for one that keeps it. */
function isRelief(plan: RemediationPlan, verdict: ProofVerdict): boolean {
  return verdict.verdict === 'proved' && kindOf(plan).reliefOnly === true;
}
