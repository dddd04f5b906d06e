/**
 * A manifest's rollout (check and the admission webhook: the 'candidate' variant) for
 * the kinds the model does not follow step by step, run as the rolling update whose
 * bounds it keeps, as the kind's module says (candidateStrategy): a StatefulSet's
 * RollingUpdate replaces pods old pod first, at most maxUnavailable at a time (no
 * partition, every pod Running and Ready, so an OrderedReady update does not wait on a
 * pod first); an Argo Rollout's basic canary whose steps only set weights or pause
 * scales within maxSurge and maxUnavailable (its steps' own counts are checked first:
 * canary-steps.ts through final-state.ts). Anything else stays unmodelled. Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { ResolvedStrategy } from '../resolved-strategy.js';
import type { WorkloadObject } from '../snapshot/types.js';
import { isTerminating } from '../base/pods.js';
import { workloadKind } from '../workloads/index.js';
import { podPhases } from './pod-phase.js';

export function proxyStrategy(
  ctx: AnalysisContext,
  object: WorkloadObject,
  strategy: ResolvedStrategy,
): ResolvedStrategy | undefined {
  const kind = workloadKind(ctx.snapshot);
  if (!kind.candidateStrategy) return undefined;
  const phases = podPhases(ctx);
  const settled = ctx.snapshot.pods.every((p) => !isTerminating(p) && phases.get(p) === 'ready');
  return kind.candidateStrategy(object, strategy, settled);
}
