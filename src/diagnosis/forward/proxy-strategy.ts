/**
 * A manifest's rollout (check and the admission webhook: the 'candidate' variant) for
 * the kinds the model does not follow step by step, run as the rolling update whose
 * bounds it keeps. Each stands in only where that is what the controller does to the
 * nodes and the quota:
 * - a StatefulSet's RollingUpdate (no partition, every pod Running and Ready, so an
 *   OrderedReady update does not wait on a pod first) replaces pods old pod first, at
 *   most maxUnavailable (default 1) at a time: maxSurge 0, maxUnavailable as written;
 * - an Argo Rollout's basic canary (no trafficRouting) whose steps only set weights or
 *   pause scales its canary and stable ReplicaSets within maxSurge and maxUnavailable
 *   (basic-canary.ts); the steps' own counts are checked first (canary-steps.ts, through
 *   final-state.ts), so what is left is the rolling update between them.
 * Anything else (a partition, OnDelete, blue-green, traffic routing, analysis or
 * experiment steps, a pod not Ready) stays unmodelled: the verdict stays unknown.
 * Pure.
 */
import type { AnalysisContext } from '../analysis-context.js';
import type { ResolvedStrategy } from '../resolved-strategy.js';
import type { ArgoRollout } from '../k8s.js';
import type { WorkloadObject } from '../snapshot/types.js';
import { isTerminating } from '../base/pods.js';
import { podPhases } from './pod-phase.js';

/** Step kinds a basic canary may have for the stand-in: the weights it sets, and pauses. */
const PLAIN_STEPS = new Set(['setWeight', 'pause']);

export function proxyStrategy(
  ctx: AnalysisContext,
  object: WorkloadObject,
  strategy: ResolvedStrategy,
): ResolvedStrategy | undefined {
  if (strategy.type !== 'RollingUpdate') return undefined;
  const { kind } = ctx.snapshot.target;
  if (kind === 'StatefulSet') {
    if ((strategy.partition ?? 0) > 0) return undefined;
    const phases = podPhases(ctx);
    const settled = ctx.snapshot.pods.every((p) => !isTerminating(p) && phases.get(p) === 'ready');
    if (!settled) return undefined;
    return {
      type: 'RollingUpdate',
      maxSurge: { raw: 0, value: 0, source: 'default' },
      maxUnavailable: strategy.maxUnavailable ?? { raw: 1, value: 1, source: 'default' },
    };
  }
  if (kind === 'Rollout' && strategy.argo === 'canary') {
    const canary = (object as ArgoRollout).spec.strategy?.canary;
    if (!canary || canary.trafficRouting) return undefined;
    const steps = canary.steps ?? [];
    if (!steps.every((s) => Object.keys(s).every((key) => PLAIN_STEPS.has(key)))) return undefined;
    const { argo: _argo, ...bounds } = strategy;
    return bounds;
  }
  return undefined;
}
