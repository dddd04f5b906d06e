/**
 * What the forward model (run.ts) says about the rollout, once per analysis:
 * - as it is: does it complete by itself, is it blocked for good, or does it fail;
 * - with this workload's old pods gone (only when blocked as it is): a strategy that
 *   lets old pods go first helps only when this run completes. When it is blocked too,
 *   the new pods fit no node or no quota whatever happens to the old ones: the verdict
 *   is Unschedulable or QuotaExceeded, and removing serving pods only loses capacity.
 */
import type { AnalysisContext } from '../analysis-context.js';
import { queueRace } from './queue-race.js';
import { runForward, runWithChange, type Outcome } from './run.js';
import { canaryOrderShortfall } from './canary-order.js';
import { workloadKind } from '../workloads/index.js';

interface ForwardVerdict {
  asIs: Outcome;
  /** Run only when `asIs` is blocked. */
  withoutOld?: Outcome;
  /**
   * The workload is paused and holds its template back (a Deployment's spec.paused):
   * both runs are of the rollout as it goes once resumed; nothing moves before.
   */
  paused?: true;
}

export function forwardVerdict(ctx: AnalysisContext): ForwardVerdict {
  return ctx.once('forward-verdict', () => {
    const kind = workloadKind(ctx.snapshot);
    if (kind.pauseHoldsTemplate && kind.paused(kind.object(ctx.snapshot))) {
      const asIs = runWithChange(ctx, { resumed: true }).outcome;
      if (asIs.result !== 'blocked') return { asIs, paused: true };
      const withoutOld = runWithChange(ctx, {
        resumed: true,
        oldTo: { replicas: 0, stepped: false },
      }).outcome;
      return { asIs, withoutOld, paused: true };
    }
    const run = runForward(ctx, 'as-is');
    // A basic canary the model does not follow step by step, settled: the order its
    // stable pods go in may stop a step ahead that fits in count (canary-order.ts).
    // Where only the way into a step is short (canary-steps.ts surgeInto), the order comes
    // first too: it stops the canary at a step before that.
    const entry = run.result === 'blocked' && run.step?.transition === true;
    const order = (run.result === 'unknown' || entry) && canaryOrderShortfall(ctx);
    const earlier = order && (!entry || (order.step?.index ?? 0) <= (run.step?.index ?? 0));
    const asIs = (earlier && order) || run;
    if (asIs.result !== 'blocked') return { asIs };
    return { asIs, withoutOld: runForward(ctx, 'without-old') };
  });
}

/** The next rollout from the steady state, run forward (RolloutAtRisk's prediction). */
export function nextRolloutOutcome(ctx: AnalysisContext): Outcome {
  return ctx.once('forward-next-rollout', () => runForward(ctx, 'next-rollout'));
}

/**
 * Whether a plan that takes serving pods down (old pods first, Recreate, scaling the
 * old ReplicaSet to 0) may be offered: not when the rollout finishes by itself, and not
 * when it cannot finish even with the old pods gone. Where the model cannot tell, the
 * analyzers' own proof stands.
 */
export function availabilityMayBeSpent(ctx: AnalysisContext): boolean {
  const { asIs, withoutOld, paused } = forwardVerdict(ctx);
  // Finishing only if our pods win the scheduler's queue (queue-race.ts): a plan may spend
  // availability to finish whatever the order; the proof says what it costs.
  if (asIs.result === 'completes' && !paused && queueRace(ctx)) return true;
  if (asIs.result === 'completes' || asIs.result === 'moving') return false;
  if (asIs.result === 'blocked' && withoutOld?.result === 'blocked') return false;
  return true;
}
