/**
 * The last word on a plan before anyone sees it, whatever builder made it:
 * - a plan that takes serving pods down (old pods first, Recreate, the old ReplicaSet
 *   scaled to 0, pods deleted, a restart, an abort) only where the forward model does
 *   not show the rollout finishing by itself, nor failing to finish even with the old
 *   pods gone (forward/verdict.ts); RolloutAtRisk plans change the next rollout only;
 * - never the strategy the workload already has.
 * Both are the kind's to say (src/remediation/kinds/: `spendsAvailability`, `alreadySet`).
 */
import type { AnalysisContext } from '../diagnosis/analysis-context.js';
import type { FindingCode } from '../diagnosis/finding.js';
import { availabilityMayBeSpent, forwardVerdict } from '../diagnosis/forward/verdict.js';
import { waitingAmong, waitingWords } from '../diagnosis/forward/daemon-budget.js';
import { workloadKind } from '../diagnosis/workloads/index.js';
import type { RemediationPlan } from '../remediation/plan.js';
import { kindOf } from '../remediation/kinds/index.js';

/** Why the plan is not offered, or undefined when it may be. */
export function planRefusal(
  ctx: AnalysisContext,
  code: FindingCode,
  plan: RemediationPlan,
): string | undefined {
  if (sameStrategy(ctx, plan)) return 'it would set the strategy the workload already has';
  if (code === 'RolloutAtRisk' || !kindOf(plan).spendsAvailability) return undefined;
  if (availabilityMayBeSpent(ctx) || kindOf(plan).takesNoServingPod?.(ctx, plan)) return undefined;
  const waits = waitingElsewhere(ctx);
  if (waits) return waits;
  return 'run forward, the controllers finish this rollout by themselves, or it cannot finish even with the old pods gone: taking serving pods down would not help';
}

/**
 * A DaemonSet that cannot finish only because new pods wait for room on their own nodes
 * (daemon-budget.ts): those pods spend maxUnavailable while they wait, so the plan names
 * them and what must come first.
 */
function waitingElsewhere(ctx: AnalysisContext): string | undefined {
  const { asIs, withoutOld } = forwardVerdict(ctx);
  if (asIs.result !== 'blocked' || withoutOld?.result !== 'blocked' || withoutOld.refused) return undefined;
  const { waiting, only } = waitingAmong(ctx, withoutOld.pending);
  if (!only) return undefined;
  const one = waiting.length === 1;
  return `run forward, the rollout cannot finish while ${waitingWords(waiting)} ${one ? 'waits' : 'wait'} for room (the Unschedulable finding): make room there. Until then ${one ? 'it spends' : 'they spend'} maxUnavailable (the DaemonSet controller counts ${one ? 'that node' : 'those nodes'} as unavailable), so letting each node's old pod go first needs maxUnavailable ${waiting.length + 1}, not 1, to update the other nodes meanwhile`;
}

/** The workload already has what the plan sets, as its kind judges (kind.ts `alreadySet`). */
function sameStrategy(ctx: AnalysisContext, plan: RemediationPlan): boolean {
  const alreadySet = kindOf(plan).alreadySet;
  if (!alreadySet) return false;
  const kind = workloadKind(ctx.snapshot);
  return alreadySet(plan, kind.strategy(kind.object(ctx.snapshot)));
}
